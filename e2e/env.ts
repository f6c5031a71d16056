/** Settings shared by the Playwright config and the e2e tests. */
import path from 'node:path';

export const E2E = {
  port: Number(process.env.E2E_PORT ?? 8090),
  baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8090)}`,
  dataDir: path.resolve('.tmp', 'e2e-data'),
  login: 'admin',
  password: 'E2e-Admin-2026!',
} as const;

/**
 * The real server without SMTP_URL (its `.eml` outbox in a folder of its own) behind the mail
 * outbox screen's test, and the DOM at its origin. Imported first by the test, so both exist
 * before React and the client modules load. `admin` holds CONFIGURATION.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp } from '../helpers/app.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Comptoir-2026!';
export const dataDir = mkdtempSync(path.join(tmpdir(), 'comptoir-outbox-screen-'));
export const t = await createTestApp({ config: { dataDir, smtpUrl: undefined } });
export const adminId = await t.createUser({
  login: 'admin',
  password: PASSWORD,
  droits: ['CONFIGURATION'],
  allSites: true,
});

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);

/** Stops the server and its database (client keep-alive connections closed first). */
export async function closeAll(): Promise<void> {
  const closing = t.close();
  t.app.server.closeAllConnections();
  await closing;
}

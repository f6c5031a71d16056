/**
 * Playwright e2e (DESIGN.md §3): the production build served by the real server on a fresh
 * embedded PostgreSQL with the demo chain, driven in Debian's Chromium. Playwright never
 * downloads a browser: CHROME_PATH (set by scripts/test.ts) or /usr/bin/chromium.
 */
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { E2E } from './e2e/env.ts';

// The e2e server mails to an SMTP server the mail specs start on this port (password reset,
// administration); set here so the workers, which inherit the environment, read the same URL.
process.env.SMTP_URL ??= `smtp://127.0.0.1:${E2E.port + 5000}`;

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  outputDir: path.join('test-results', 'e2e'),
  use: {
    baseURL: E2E.baseURL,
    serviceWorkers: 'allow',
    acceptDownloads: true,
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    {
      name: 'tablet',
      use: { ...devices['Galaxy Tab S4'], browserName: 'chromium', defaultBrowserType: 'chromium' },
    },
  ],
  webServer: {
    command: `rm -rf ${E2E.dataDir} && ${path.join('node_modules', '.bin', 'node')} src/server/cli/start.ts`,
    url: `${E2E.baseURL}/api/version`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(E2E.port),
      HOST: '127.0.0.1',
      DATA_DIR: E2E.dataDir,
      COMPTOIR_ADMIN_LOGIN: E2E.login,
      COMPTOIR_ADMIN_PASSWORD: E2E.password,
      COMPTOIR_DISTRIBUTION: 'Comptoir E2E',
      // The suite signs in some thirty times, often within a minute from one address: above the
      // default limit of 10 sign-ins a minute, which the server tests check (tests/server/auth).
      COMPTOIR_LOGIN_RATE: '120',
      SMTP_URL: process.env.SMTP_URL,
      COMPTOIR_PUBLIC_URL: E2E.baseURL,
      LOG_LEVEL: 'warn',
      // Lets the integrations spec store a secret header (decision 0044); a test value, not a secret.
      COMPTOIR_SECRET_KEY: 'e2e-integrations-secret-key',
    },
  },
});

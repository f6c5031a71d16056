/** Shared steps of the e2e tests: sign-in, and a connection to the e2e server's own database. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import pg from 'pg';
import { E2E } from './env.ts';

/** Signs in through the login screen (French labels, the default language) and waits for /home. */
export async function signIn(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Identifiant').fill(E2E.login);
  await page.getByLabel('Mot de passe').fill(E2E.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/home$/);
}

/**
 * A pool on the embedded PostgreSQL that the e2e server started in E2E.dataDir (Unix socket in
 * `run/`, password in `pg-password`), to compute expected figures straight from the tickets.
 */
export function e2eDatabase(): pg.Pool {
  return new pg.Pool({
    host: path.join(E2E.dataDir, 'run'),
    port: 5432,
    user: 'postgres',
    password: fs.readFileSync(path.join(E2E.dataDir, 'pg-password'), 'utf8').trim(),
    database: 'comptoir',
    max: 2,
  });
}

/** Waits until a service worker controls the page (synchronous predicate, see DESIGN.md §3). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
    timeout: 30_000,
  });
}

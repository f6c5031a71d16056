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

/**
 * Whether `page` still draws: two animation frames within `ms` milliseconds.
 *
 * Headless Chromium has been seen, rarely and on a loaded machine, to stop producing frames for a
 * page for good: in one CI run of the chaos test (e2e/offline-chaos.spec.ts), the 19th "save"
 * click waited its whole 8 minutes on Playwright's stability check, which compares the element's
 * box across animation frames, while the page's DOM answered queries. Others report the same
 * (engram-app/Engram#1276; dknauss/Sudo#353, where a reload did not help and a new page of the
 * same context did).
 */
export async function drawsFrames(page: Page, ms = 5_000): Promise<boolean> {
  // A page whose scripts no longer run at all never answers the evaluation: that is no frame too.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms + 1_000);
  });
  const frames = page
    .evaluate(
      (limit) =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), limit);
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              clearTimeout(timer);
              resolve(true);
            }),
          );
        }),
      ms,
    )
    .catch(() => false);
  try {
    return await Promise.race([frames, silent]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A new page of `page`'s context on the same address, `page` closed: the way out of a page that
 * no longer draws ({@link drawsFrames}). The session and the outbox live in IndexedDB, which the
 * context's pages share, so the new page is the app as a user reopening it finds it.
 */
export async function reopenPage(page: Page): Promise<Page> {
  const next = await page.context().newPage();
  await next.goto(page.url());
  await page.close();
  return next;
}

/**
 * Does `act` on `page`; when it fails because the page stopped drawing ({@link drawsFrames}),
 * reopens the app ({@link reopenPage}), waits for `ready` on the new page and does `act` again
 * there, as a user would. Any other failure is thrown as it is.
 * @returns the page the act succeeded on (`page`, or the reopened one).
 */
export async function actOrReopen(
  page: Page,
  act: (page: Page) => Promise<void>,
  ready: (page: Page) => Promise<void>,
): Promise<Page> {
  try {
    await act(page);
    return page;
  } catch (error) {
    if (await drawsFrames(page)) throw error;
    const next = await reopenPage(page);
    await ready(next);
    await act(next);
    return next;
  }
}

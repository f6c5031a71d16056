/**
 * The way out of a page the browser stopped running (e2e/helpers.ts actOrReopen), taken for real:
 * the chaos test relies on it when headless Chromium stops drawing a page, which no run could make
 * happen on its own. Here the Chrome DevTools Protocol pauses the page's main thread
 * (Debugger.pause: no frame, no script; headless Chromium keeps every page visible, so hiding
 * one does not stop its frames), before a count is typed: the form cannot be filled, the page
 * is found not drawing, the app is reopened in a new page of the same context (the session is in
 * IndexedDB), the count is typed again and saved, and the server holds it once.
 */
import { expect, type Page, test } from '@playwright/test';
import { actOrReopen, drawsFrames, e2eDatabase, signIn, waitForServiceWorker } from './helpers.ts';

test('a count on a page that stopped running is typed again in a reopened page and saved once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const tag = `stalled-${Date.now()}`;
  await signIn(page);
  await waitForServiceWorker(page);
  await page.goto('/analyses/comptageCaisses/saisie');
  const formShown = async (on: Page) => {
    await expect(on.getByRole('button', { name: /Caisse 1/ })).toBeVisible();
  };
  await formShown(page);
  const limit = { timeout: 5_000 };
  let attempts = 0;
  const fillAndSave = async (on: Page) => {
    attempts += 1;
    await on.getByTestId('cash-denomination-2000').fill('3', limit);
    await on.getByLabel('Chèques').fill('1', limit);
    await on.getByLabel('Titres-restaurant').fill('1', limit);
    await on.getByLabel('Commentaire').fill(tag, limit);
    await on.getByRole('button', { name: 'Enregistrer le comptage' }).click(limit);
  };

  expect(await drawsFrames(page)).toBe(true);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.pause');
  expect(await drawsFrames(page, 2_000)).toBe(false);

  const saved = await actOrReopen(page, fillAndSave, formShown);
  expect(saved).not.toBe(page);
  expect(page.isClosed()).toBe(true);
  expect(attempts).toBe(2);
  await expect(saved.getByLabel('Commentaire')).toHaveValue('');

  const pool = e2eDatabase();
  try {
    const stored = async () =>
      (
        await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cash_counts WHERE comment = $1', [
          tag,
        ])
      ).rows[0]?.n;
    await expect.poll(stored, { timeout: 30_000 }).toBe(1);
    await expect(saved.getByTestId('sync-badge')).toHaveAttribute('data-state', 'synced');
  } finally {
    await pool.end();
  }
});

test('a failure on a page that still draws is not retried', async ({ page }) => {
  await signIn(page);
  let attempts = 0;
  const failing = async () => {
    attempts += 1;
    throw new Error('not a drawing problem');
  };
  await expect(actOrReopen(page, failing, async () => {})).rejects.toThrow('not a drawing problem');
  expect(attempts).toBe(1);
  expect(page.isClosed()).toBe(false);
});

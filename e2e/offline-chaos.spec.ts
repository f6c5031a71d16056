/**
 * Chaos (issue #3 point 7): 200 cash counts saved through the screen while a seeded PRNG drops
 * the network, aborts requests, delays them, answers 500, lets the server commit and then loses
 * its answer, and reloads the page mid-replay (context.route, which the service worker's fetches
 * go through too; setOffline does not cut those), on single writes and on batches alike. At the end the server holds exactly one row per
 * count, nothing waits and nothing needs attention.
 */
import { expect, type Page, type Route, test } from '@playwright/test';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import {
  actOrReopen,
  drawsFrames,
  e2eDatabase,
  reopenPage,
  signIn,
  waitForServiceWorker,
} from './helpers.ts';

const SEED = 20261122;
const WRITES = 200;

class Rng {
  private readonly g = xoroshiro128plus(SEED);
  float(): number {
    return (this.g.next() >>> 0) / 4_294_967_296;
  }
}

test('200 counts saved through network chaos and reloads reach the server exactly once each', async ({
  page: firstPage,
  context,
}) => {
  let page = firstPage;
  test.setTimeout(480_000);
  const rng = new Rng();
  const tag = `chaos-${Date.now()}`;
  await signIn(page);
  await waitForServiceWorker(page);
  await page.goto('/analyses/comptageCaisses/saisie');
  await expect(page.getByRole('button', { name: /Caisse 1/ })).toBeVisible();

  let sends = 0;
  let chaotic = 0;
  // Writes of different drawers may leave several in one batch (decision record 0024): a batch
  // meets the same chaos. (Here every count is of one drawer, one lane, so each leaves alone.)
  const chaos = async (route: Route) => {
    sends += 1;
    const x = rng.float();
    if (x < 0.37) chaotic += 1;
    if (x < 0.12) return route.abort('internetdisconnected');
    if (x < 0.22) {
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"code":"InternalError"}',
      });
    }
    if (x < 0.37) {
      // The server commits, the answer is lost on the way back.
      await route.fetch().catch(() => undefined);
      return route.abort('connectionreset');
    }
    if (x < 0.47) await new Promise((r) => setTimeout(r, 100 + Math.floor(rng.float() * 600)));
    return route.continue().catch(() => undefined);
  };
  await context.route('**/api/bo/comptage/save**', chaos);
  await context.route('**/api/bo/outbox/batch**', chaos);

  const fillAndSave = (i: number) => async (on: Page) => {
    const limit = { timeout: 30_000 };
    await on.getByTestId('cash-denomination-2000').fill(String((i % 5) + 1), limit);
    await on.getByLabel('Chèques').fill('1', limit);
    await on.getByLabel('Titres-restaurant').fill('1', limit);
    await on.getByLabel('Commentaire').fill(`${tag}-${i}`, limit);
    await on.getByRole('button', { name: 'Enregistrer le comptage' }).click(limit);
  };
  const formShown = async (on: Page) => {
    await expect(on.getByRole('button', { name: /Caisse 1/ })).toBeVisible();
  };
  for (let i = 0; i < WRITES; i++) {
    if (rng.float() < 0.05) await context.setOffline(true);
    // A click that cannot happen because the browser stopped drawing the page (helpers.ts
    // drawsFrames): the count was not saved; the user reopens the app and types it again.
    page = await actOrReopen(page, fillAndSave(i), formShown);
    // Saved on the device: the form empties for the next drawer.
    await expect(page.getByLabel('Commentaire')).toHaveValue('');
    if (rng.float() < 0.1) await context.setOffline(false);
    if (rng.float() < 0.04) {
      // Reload in the middle of a replay.
      await page.reload();
      await expect(page.getByRole('button', { name: /Caisse 1/ })).toBeVisible();
    }
  }

  await context.setOffline(false);
  // Still in the chaos: each restart replays until the network fails again.
  const badge = page.getByTestId('sync-badge');
  for (let round = 0; round < 12; round++) {
    await page.reload();
    const drained = await expect(badge)
      .toHaveAttribute('data-state', 'synced', { timeout: 8_000 })
      .then(() => true)
      .catch(() => false);
    if (drained) break;
  }
  await context.unroute('**/api/bo/comptage/save**');
  await context.unroute('**/api/bo/outbox/batch**');
  // A restart sends everything waiting at once, whatever the backoff said.
  await page.reload();
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', 'synced', { timeout: 120_000 });
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-attention', '0');

  const pool = e2eDatabase();
  try {
    const { rows } = await pool.query<{ comment: string; n: number }>(
      'SELECT comment, count(*)::int AS n FROM cash_counts WHERE comment LIKE $1 GROUP BY comment',
      [`${tag}-%`],
    );
    expect(rows).toHaveLength(WRITES);
    expect(rows.filter((r) => r.n !== 1)).toEqual([]);
  } finally {
    await pool.end();
  }
  // The chaos really hit the sends: many were cut, refused with 500 or lost after committing.
  expect(sends).toBeGreaterThan(WRITES / 2);
  expect(chaotic).toBeGreaterThan(40);
  if (!(await drawsFrames(page))) page = await reopenPage(page);
  await page.getByTestId('sync-badge').click();
  await expect(page.getByTestId('sync-empty')).toBeVisible();
});

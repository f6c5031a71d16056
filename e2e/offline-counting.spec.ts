/**
 * Offline writes end to end (issue #3 point 7), production build + real server + Chromium:
 * a manager signs in online, loses the network, counts two drawers, reloads the app with no
 * network, and when the network is back each count reaches the server exactly once and the sync
 * badge says synced. A write the server refuses (4xx) needs attention and stays until the user
 * acts. A dashboard opened online is shown offline as an offline copy with its date.
 */
import { expect, type Page, test } from '@playwright/test';
import { e2eDatabase, signIn, waitForServiceWorker } from './helpers.ts';

/** Rows of cash_counts carrying `comment` (each test writes its own unique comment). */
async function cashCountRows(comment: string) {
  const pool = e2eDatabase();
  try {
    const { rows } = await pool.query<{
      terminal_id: number;
      cash_cents: string;
      cheques_cents: string;
      version: number;
    }>(
      'SELECT terminal_id, cash_cents::text, cheques_cents::text, version FROM cash_counts WHERE comment = $1 ORDER BY terminal_id',
      [comment],
    );
    return rows;
  } finally {
    await pool.end();
  }
}

/** Rows of safe_counts and manager_receipts carrying `tag` (comment / motif). */
async function safeAndReceiptRows(tag: string) {
  const pool = e2eDatabase();
  try {
    const safe = await pool.query<{ opening_cents: string; counted_cents: string }>(
      'SELECT opening_cents::text, counted_cents::text FROM safe_counts WHERE comment = $1',
      [tag],
    );
    const receipts = await pool.query<{ seller_code: string; amount: number }>(
      "SELECT seller_code, (complements->>'montantCents')::int AS amount FROM manager_receipts WHERE complements->>'motif' = $1",
      [tag],
    );
    return { safe: safe.rows, receipts: receipts.rows };
  } finally {
    await pool.end();
  }
}

/** Signs in and reloads once the service worker controls the page, so every read goes through it. */
async function signInWithServiceWorker(page: Page): Promise<void> {
  await signIn(page);
  await waitForServiceWorker(page);
  await page.reload();
  await expect(page.getByTestId('sync-badge')).toBeVisible();
}

async function openCashCounting(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Caisses', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Comptage des caisses' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Caisse 1/ })).toBeVisible();
}

/** Counts the drawer now chosen: 3 × 20 € and 2 × 2 € by the stepper, cheques and meal vouchers typed. */
async function countDrawer(page: Page, comment: string, cheques: string): Promise<void> {
  await page.getByTestId('cash-denomination-2000').fill('3');
  const twoEuros = page.getByRole('button', { name: 'Un de plus : Pièce de 2,00 €' });
  await twoEuros.click();
  await twoEuros.click();
  await page.getByLabel('Chèques').fill(cheques);
  await page.getByLabel('Titres-restaurant').fill('12');
  await page.getByLabel('Commentaire').fill(comment);
  await expect(page.getByTestId('counted-cash')).toHaveText('64,00 €');
  await page.getByRole('button', { name: 'Enregistrer le comptage' }).click();
}

test('two drawers, the safe and a receipt written offline reach the server exactly once after a reload, a reopen and reconnecting', async ({
  page: firstPage,
  context,
}) => {
  let page = firstPage;
  const comment = `hors-ligne-${Date.now()}`;
  await signInWithServiceWorker(page);
  await openCashCounting(page);

  await context.setOffline(true);
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', 'offline');
  await countDrawer(page, comment, '45,50');
  await expect(page.getByTestId('cash-count-local')).toHaveCount(1);
  await page.getByRole('button', { name: /Caisse 1/ }).click();
  await page.getByRole('option', { name: 'Caisse 2' }).click();
  await countDrawer(page, comment, '10');
  await expect(page.getByTestId('cash-count-local')).toHaveCount(2);
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-waiting', '2');

  // The safe, still offline: 150 € float + 320,50 € deposits, 9 × 50 € counted.
  await page.getByRole('link', { name: 'Coffre', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Comptage du coffre' })).toBeVisible();
  await page.getByLabel("Fond de caisse d'ouverture").fill('150');
  await page.getByLabel('Dépôts').fill('320,50');
  await page.getByTestId('safe-denomination-5000').fill('9');
  await page.getByLabel('Commentaire').fill(comment);
  await expect(page.getByTestId('safe-variance')).toHaveText('-20,50 €');
  await page.getByRole('button', { name: 'Enregistrer le comptage' }).click();
  await expect(page.getByTestId('safe-count-local')).toHaveCount(1);

  // A manager receipt, still offline.
  await page.getByRole('link', { name: 'Reçus', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Reçus managers' })).toBeVisible();
  // The labels of required fields end with their visible mark, "(obligatoire)".
  await page.getByLabel(/^Code vendeur\b/).fill('12');
  await page.getByLabel(/^Nom du vendeur\b/).fill('Alice');
  await page.getByLabel(/^Code manager\b/).fill('900');
  await page.getByLabel('Montant reçu').fill('35,20');
  await page.getByLabel('Motif').fill(comment);
  await page.getByRole('button', { name: 'Enregistrer le reçu' }).click();
  await expect(page.getByTestId('receipt-local')).toHaveCount(1);
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-waiting', '4');

  // The app reloaded with no network: the shell comes from the service worker, the writes from IndexedDB.
  await page.goto('/analyses/comptageCaisses/saisie');
  await expect(page.getByRole('heading', { name: 'Comptage des caisses' })).toBeVisible();
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-waiting', '4');
  await expect(page.getByTestId('cash-count-local')).toHaveCount(2);
  expect(await cashCountRows(comment)).toEqual([]);

  // Closed and opened again, still offline.
  await page.close();
  page = await context.newPage();
  await page.goto('/analyses/comptageCaisses/saisie');
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-waiting', '4');

  await context.setOffline(false);
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', 'synced', { timeout: 30_000 });
  await expect(page.getByTestId('cash-count-local')).toHaveCount(0);
  const rows = await cashCountRows(comment);
  expect(rows.map((r) => [r.terminal_id, r.cash_cents, r.cheques_cents])).toEqual([
    [1, '6400', '4550'],
    [2, '6400', '1000'],
  ]);
  expect(await safeAndReceiptRows(comment)).toEqual({
    safe: [{ opening_cents: '15000', counted_cents: '45000' }],
    receipts: [{ seller_code: '12', amount: 3520 }],
  });

  // Nothing is sent again: another reload and replay leave exactly one row per count.
  await page.reload();
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', 'synced');
  await page.getByTestId('sync-badge').click();
  await expect(page.getByTestId('sync-empty')).toBeVisible();
  expect(await cashCountRows(comment)).toHaveLength(2);
  const again = await safeAndReceiptRows(comment);
  expect([again.safe.length, again.receipts.length]).toEqual([1, 1]);

  // The safe count now waits for a countersignature, which needs the network: offline, the dialog
  // says so, sends nothing and keeps what was typed.
  await page.getByRole('link', { name: 'Coffre', exact: true }).click();
  await expect(page.getByTestId('safe-awaiting-item').first()).toBeVisible();
  await page.getByTestId('safe-count-server').first().getByRole('button', { name: 'Contre-signer' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Identifiant du manager qui contre-signe').fill('chef');
  await dialog.getByLabel('Code manager').fill('1234');
  await context.setOffline(true);
  await expect(dialog.getByTestId('offline-notice')).toBeVisible();
  await dialog.getByRole('button', { name: 'Contre-signer' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Pas de connexion');
  await expect(dialog.getByLabel('Code manager')).toHaveValue('1234');
  await context.setOffline(false);
  await expect(dialog.getByTestId('offline-notice')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Annuler' }).click();
});

test('a count the server refuses needs attention and stays until the user retries it', async ({
  page,
  context,
}) => {
  const comment = `refus-${Date.now()}`;
  await signInWithServiceWorker(page);
  await openCashCounting(page);
  // The server refuses the first attempt (as it would a count missing a required part).
  let refused = 0;
  // context.route also sees what the service worker fetches (page.route does not).
  await context.route('**/api/bo/comptage/save**', async (route) => {
    if (refused++ === 0) {
      await route.fulfill({ status: 400, contentType: 'application/json', body: '{"code":"MissingCount"}' });
    } else {
      await route.continue();
    }
  });
  await countDrawer(page, comment, '20');
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-state', 'needsAttention', {
    timeout: 15_000,
  });
  await page.getByTestId('sync-badge').click();
  const item = page.getByTestId('sync-item');
  await expect(item).toHaveAttribute('data-state', 'needsAttention');
  await expect(item).toContainText('Comptage de caisse');
  // Later replays leave it alone.
  await page.waitForTimeout(1_500);
  await expect(item).toHaveCount(1);
  expect(await cashCountRows(comment)).toEqual([]);

  await item.getByRole('button', { name: 'Réessayer' }).click();
  await expect(page.getByTestId('sync-empty')).toBeVisible({ timeout: 15_000 });
  expect(await cashCountRows(comment)).toHaveLength(1);
});

test('the home dashboard opened online is shown offline as an offline copy with its time', async ({
  page,
  context,
}) => {
  await signInWithServiceWorker(page);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('offline-copy-banner')).toHaveCount(0);
  // The widgets' answers must have reached the service worker's copies before the network goes.
  await page.waitForLoadState('networkidle');
  await context.setOffline(true);
  await page.reload();
  const banner = page.getByTestId('offline-copy-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(/Copie hors ligne du \d{2}:\d{2}/);
});

test('the service worker sends a queued count on Background Sync with no page of the app open', async ({
  page,
  context,
}) => {
  const comment = `sync-${Date.now()}`;
  await signInWithServiceWorker(page);
  await openCashCounting(page);
  // The network fails for the page's sends (context.route also covers the service worker's).
  await context.route('**/api/bo/comptage/save**', (route) => route.abort('internetdisconnected'));
  await countDrawer(page, comment, '5');
  await expect(page.getByTestId('sync-badge')).toHaveAttribute('data-waiting', '1');
  // Leave the app: no page replays any more; the network comes back.
  await page.goto('/api/version');
  await context.unroute('**/api/bo/comptage/save**');

  // Chromium fires the Background Sync the page registered (dispatched here through DevTools).
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<{ registrationId: string }>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const live = event.registrations.find((r) => !r.isDeleted);
      if (live) resolve(live);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const { registrationId } = await registration;
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: new URL(page.url()).origin,
    registrationId,
    tag: 'comptoir-outbox',
    lastChance: false,
  });
  await expect.poll(() => cashCountRows(comment), { timeout: 20_000 }).toHaveLength(1);

  await page.goto('/sync');
  await expect(page.getByTestId('sync-empty')).toBeVisible();
  expect(await cashCountRows(comment)).toHaveLength(1);
});

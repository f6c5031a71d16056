/**
 * /rapports with no network (issue #20 item 9): a manager shows a report on screen online (the
 * service worker keeps its answer as an offline copy), loses the network and reopens /rapports:
 * the page lists the copy — report, sites, period and time of the copy — and opening it shows
 * the report, marked as an offline copy, without asking the server.
 */
import { expect, test } from '@playwright/test';
import { signIn, waitForServiceWorker } from './helpers.ts';

test('offline, /rapports lists the kept report previews and opens one', async ({ page, context }) => {
  await signIn(page);
  await waitForServiceWorker(page);
  await page.reload();
  await page.getByRole('link', { name: 'Rapports' }).click();
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /Période prédéfinie/ }).click();
  await page.getByRole('option', { name: 'Semaine précédente' }).click();
  const period = await page.getByRole('status').filter({ hasText: /^Du / }).textContent();
  const [, from, to] = /Du (\S+) au (\S+)/.exec(period ?? '') ?? [];
  await page.getByRole('button', { name: "Afficher à l'écran" }).click();
  const preview = page.locator('.rep-preview');
  await expect(preview).toBeVisible();
  const title = await page.locator('#rep-preview-heading').textContent();
  // Online, no list of copies.
  await expect(page.getByRole('heading', { name: 'Rapports disponibles hors ligne' })).toHaveCount(0);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
  const copies = page.getByRole('region', { name: 'Rapports disponibles hors ligne' });
  await expect(copies).toBeVisible();
  const item = copies.getByRole('button').first();
  await expect(item).toContainText(`du ${from} au ${to}`);
  await expect(item).toContainText(/Copie du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}/);
  await item.click();
  await expect(page.locator('#rep-preview-heading')).toHaveText(title ?? '');
  await expect(page.locator('.rep-copy-note')).toHaveText(
    /^Copie hors ligne du \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}$/,
  );
  await context.setOffline(false);
});

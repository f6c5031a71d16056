/**
 * The first paint (decision 0026) against the production build: index.html alone paints the
 * splash (no script needed, under the server's CSP); each first screen hides it as soon as it is
 * there — the login, and `/home` signed in; the HTML preloads the login's chunks and the start
 * catalogue, so they are asked for with the entry.
 */
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test('without its scripts the page still paints the splash: the mark and the name, no language', async ({
  page,
}) => {
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('/');
  const splash = page.locator('.app-splash');
  await expect(splash).toBeVisible();
  await expect(splash.locator('img')).toBeVisible();
  expect(await splash.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(
    0,
  );
  await expect(splash).toHaveText('Comptoir');
});

test('the login and /home hide the splash once they are there', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('Identifiant')).toBeVisible();
  await expect(page.locator('.app-splash')).toBeHidden();
  const preloaded = await page
    .locator('link[rel="modulepreload"]')
    .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(preloaded.some((href) => /\/assets\/login-page-[^/]+\.js$/.test(href))).toBe(true);
  expect(preloaded.some((href) => /\/assets\/fr\.json\.start\.compiled-[^/]+\.js$/.test(href))).toBe(true);

  await signIn(page);
  await expect(page.locator('.app-splash')).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.app-splash')).toBeHidden();
});

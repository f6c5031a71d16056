/**
 * /anomalies (issue #19) in French against the demo chain, on the tablet of the config and on a
 * phone: the screen shows its result on arrival (4 weeks ending yesterday) and passes axe (WCAG
 * 2.1 A/AA and best practices) with it shown; each flagged entity's link opens /tickets on its
 * search, which runs at once.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

/** axe's violations on `page` as it is now, one line per rule and element. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')} ${n.failureSummary ?? ''}`),
  );
}

/** Opens /anomalies signed in and waits for its result (the heading naming the period). */
async function openAnomalies(page: Page): Promise<void> {
  await signIn(page);
  await page.goto('/anomalies');
  await expect(page.getByRole('heading', { name: 'Anomalies', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: /anomalies? du \d\d\/\d\d\/\d{4} au / }),
  ).toBeVisible({
    timeout: 60_000,
  });
  await page.waitForLoadState('networkidle');
}

/** A page of `browser` as a phone (Pixel 7), with the service worker allowed as in the config. */
async function phonePage(browser: Browser) {
  const context = await browser.newContext({
    ...devices['Pixel 7'],
    baseURL: E2E.baseURL,
    serviceWorkers: 'allow',
  });
  return { context, page: await context.newPage() };
}

test('/anomalies on a tablet: the result on arrival, axe clean', async ({ page }) => {
  await openAnomalies(page);
  expect(await violations(page)).toEqual([]);
});

test('/anomalies on a phone: axe clean, nothing wider than the screen', async ({ browser }) => {
  const { context, page } = await phonePage(browser);
  await openAnomalies(page);
  expect(await violations(page)).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});

test('a planted case of the demo opens /tickets on its search, which runs at once', async ({ page }) => {
  await openAnomalies(page);
  // The demo plants its cases over the last weeks: ask for the 8 weeks ending yesterday.
  const day = (daysAgo: number) => {
    const d = new Date(Date.now() - daysAgo * 86_400_000);
    return `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
  };
  await page.getByLabel('Du', { exact: true }).fill(day(56));
  await page.getByLabel('Au', { exact: true }).fill(day(1));
  await page.getByRole('button', { name: 'Rechercher les anomalies' }).click();
  const first = page.locator('.an-item').first();
  await expect(first).toBeVisible({ timeout: 60_000 });
  await expect(first).toContainText(/contre .* sur ses 8 semaines précédentes\./);
  const link = first.getByRole('link', { name: /^Voir les tickets de / });
  await link.click();
  await expect(page).toHaveURL(/\/tickets\?.*site=\d+.*dateDebut=/);
  await expect(page.getByRole('heading', { name: 'Recherche de tickets', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Résultats', level: 2 })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.tk-results')).toContainText(/\d+ tickets?/);
});

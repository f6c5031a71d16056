/**
 * The KPI/BI area (issue #19) in French against the demo chain, on a tablet and on a phone: /bi
 * answers net sales by site for the last week with its table and chart, /totalKPI its key
 * figures with sparklines, /tracker today's ranking with the time of its refresh; each screen,
 * with its result shown, passes axe's WCAG A and AA rules (no focusable chart part inside
 * aria-hidden among them), and a CSV export downloads.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's violations on `page` as it is now, one line per rule and element. */
async function violations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags([...WCAG_A_AA, 'best-practice']).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) => `${screen}: ${v.id} (${v.impact}) ${n.html.slice(0, 200)} — ${n.failureSummary ?? ''}`,
    ),
  );
}

/** Chooses the previous week (period code W-1) in the selection's period picker. */
async function lastWeek(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Période prédéfinie/ }).click();
  await page.getByRole('option', { name: 'Semaine précédente' }).click();
}

/** Walks the three screens in a new context of `device`, each with its result; all violations found. */
async function walk(browser: Browser, device: (typeof devices)[string]): Promise<string[]> {
  const context = await browser.newContext({ ...device, baseURL: E2E.baseURL, serviceWorkers: 'allow' });
  const page = await context.newPage();
  const found: string[] = [];
  await signIn(page);

  await page.goto('/bi');
  await expect(page.getByRole('heading', { name: 'Exploration BI', level: 1 })).toBeVisible();
  await lastWeek(page);
  await page.getByRole('button', { name: 'Afficher', exact: true }).click();
  await expect(page.getByRole('table', { name: "Chiffre d'affaires TTC : chiffres" })).toBeVisible();
  await expect(page.locator('.gr-chart .recharts-wrapper')).toBeVisible();
  found.push(...(await violations(page, '/bi')));

  await page.goto('/totalKPI');
  await expect(page.getByRole('heading', { name: 'Indicateurs clés', level: 1 })).toBeVisible();
  await lastWeek(page);
  await page.getByRole('button', { name: 'Afficher', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Indicateurs clés par périmètre' })).toBeVisible();
  await expect(page.locator('svg.kpi-sparkline').first()).toBeAttached();
  found.push(...(await violations(page, '/totalKPI')));

  await page.goto('/tracker');
  await expect(page.getByRole('heading', { name: 'Suivi du jour', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Classement des sites' })).toBeVisible();
  await expect(page.getByText(/^Mis à jour le \d\d\/\d\d\/\d{4} à \d\d:\d\d$/)).toBeVisible();
  found.push(...(await violations(page, '/tracker')));
  await context.close();
  return found;
}

test.describe('the KPI/BI screens pass axe with their results shown, in French', () => {
  test.setTimeout(180_000);
  test('on a tablet', async ({ browser }) => {
    expect(await walk(browser, devices['Galaxy Tab S4'])).toEqual([]);
  });
  test('on a phone', async ({ browser }) => {
    expect(await walk(browser, devices['Pixel 7'])).toEqual([]);
  });
});

test('/bi exports its rows as CSV written by the server', async ({ page }) => {
  await signIn(page);
  await page.goto('/bi');
  await page.getByRole('button', { name: 'Afficher', exact: true }).click();
  await expect(page.getByRole('table', { name: "Chiffre d'affaires TTC : chiffres" })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exporter en CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^exploration_\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.csv$/);
});

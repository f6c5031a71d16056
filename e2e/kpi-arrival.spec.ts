/**
 * /totalKPI and /tracker show their figures on arrival (issue #19 screens, as /graphs does since
 * issue #20 item 12), in French against the demo chain, on a tablet and on a phone: /totalKPI the
 * last full week against the year before, /tracker today — no press on "Afficher". The wide key
 * figures' table scrolls in a region the keyboard reaches (ui/table), and each screen passes axe's
 * WCAG A and AA rules with its figures shown.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { resolvePeriod } from '../src/contract/periods.ts';
import { wireToDisplay } from '../src/contract/dates.ts';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** Money as the French interface writes it: digits, a decimal comma, the euro sign. */
const EUROS = /^-?[\d\s\u202f]+,\d\d\s€$/;

/** axe's violations on `page` as it is now, one line per rule and element. */
async function violations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags([...WCAG_A_AA, 'best-practice']).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) => `${screen}: ${v.id} (${v.impact}) ${n.html.slice(0, 200)} — ${n.failureSummary ?? ''}`,
    ),
  );
}

/** /totalKPI on arrival: last week's figures, nothing pressed; axe's violations. */
async function keyFigures(page: Page, phone: boolean): Promise<string[]> {
  await page.goto('/totalKPI');
  await expect(page.getByRole('heading', { name: 'Indicateurs clés', level: 1 })).toBeVisible();
  const week = resolvePeriod('W-1');
  await expect(
    page.getByRole('heading', {
      name: `Indicateurs du ${wireToDisplay(week.dateDebut)} au ${wireToDisplay(week.dateFin)}`,
    }),
  ).toBeVisible();
  const table = page.getByRole('table', { name: 'Indicateurs clés par périmètre' });
  const chain = table.getByRole('row', { name: /^Ensemble des sites choisis/ });
  await expect(chain.getByRole('cell').first()).toHaveText(EUROS);
  // The button stays, for another choice.
  await expect(page.getByRole('button', { name: 'Afficher', exact: true })).toBeEnabled();
  if (phone) {
    // Wider than a phone: the table's box is a named region the keyboard focuses and scrolls.
    const region = page.getByRole('region', { name: 'Indicateurs clés par périmètre (tableau défilant)' });
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => region.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
  }
  return violations(page, '/totalKPI');
}

/** /tracker on arrival: today's ranking with figures; axe's violations. */
async function tracker(page: Page): Promise<string[]> {
  await page.goto('/tracker');
  await expect(page.getByRole('heading', { name: 'Suivi du jour', level: 1 })).toBeVisible();
  const ranking = page.getByRole('table', { name: 'Classement des sites' });
  await expect(ranking.locator('tbody tr').first().locator('td').nth(1)).toHaveText(EUROS);
  await expect(page.getByText(/^Mis à jour le \d\d\/\d\d\/\d{4} à \d\d:\d\d$/)).toBeVisible();
  return violations(page, '/tracker');
}

async function walk(browser: Browser, device: (typeof devices)[string], phone: boolean): Promise<string[]> {
  const context = await browser.newContext({ ...device, baseURL: E2E.baseURL, serviceWorkers: 'allow' });
  const page = await context.newPage();
  await signIn(page);
  const found = [...(await keyFigures(page, phone)), ...(await tracker(page))];
  await context.close();
  return found;
}

test.describe('/totalKPI and /tracker show figures on arrival, axe clean, in French', () => {
  test.setTimeout(180_000);
  test('on a tablet', async ({ browser }) => {
    expect(await walk(browser, devices['Galaxy Tab S4'], false)).toEqual([]);
  });
  test('on a phone', async ({ browser }) => {
    expect(await walk(browser, devices['Pixel 7'], true)).toEqual([]);
  });
});

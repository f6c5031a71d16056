/**
 * Accessibility (issue #20 item 24): axe-core's WCAG 2.0–2.2 A and AA rules on every screen of
 * the app, in French, on a tablet and on a phone; any violation fails, listed with the screen,
 * the rule and the elements. The screens are walked as a signed-in administrator sees them on
 * arrival (the demo chain behind them).
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

/** Every screen of SPEC.md §2 the app has today, by path. */
const SCREENS = [
  '/home',
  '/rapports',
  '/tickets',
  '/graphs',
  '/recus',
  '/sync',
  '/configFavoris',
  '/analyses/coffre',
  '/analyses/comptageCaisses/saisie',
  '/analyses/comptageCaisses/liste',
  '/analyses/listExports',
  '/analyses/recuManagers',
  '/analyses/repartitions',
  '/evenements',
  '/bi',
  '/totalKPI',
  '/tracker',
  '/anomalies',
  '/fec',
  '/fec/recurrencesfec',
  '/account',
  '/config',
  '/config/users',
  '/config/profils',
  '/config/groupes',
  '/config/sites',
  '/config/messages',
  '/config/rules',
  '/config/audit',
  '/config/recurrences',
  '/config/miseenroute',
  '/config/adoria',
  '/config/easilys',
  '/config/ecash',
  '/config/consolidations',
  '/abonnements',
  '/config/bdd',
];

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's violations on `page` as it is now, one line per rule and element. */
async function violations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags([...WCAG_A_AA, 'best-practice', 'experimental'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map(
      (n) => `${screen}: ${v.id} (${v.impact}) ${n.html.slice(0, 300)} — ${n.failureSummary ?? ''}`,
    ),
  );
}

/** Walks the login page and every screen in a new context of `device`; all violations found. */
async function walk(browser: Browser, device: (typeof devices)[string]): Promise<string[]> {
  const context = await browser.newContext({ ...device, baseURL: E2E.baseURL, serviceWorkers: 'allow' });
  const page = await context.newPage();
  const found: string[] = [];
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  found.push(...(await violations(page, '/ (login)')));
  await signIn(page);
  for (const screen of SCREENS) {
    await page.goto(screen);
    await expect(page.locator('h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    found.push(...(await violations(page, screen)));
  }
  await context.close();
  return found;
}

test.describe('every screen passes axe (WCAG A and AA), in French', () => {
  test.setTimeout(240_000);
  test('on a tablet', async ({ browser }) => {
    expect(await walk(browser, devices['Galaxy Tab S4'])).toEqual([]);
  });
  test('on a phone', async ({ browser }) => {
    expect(await walk(browser, devices['Pixel 7'])).toEqual([]);
  });
});

/**
 * /account (issue #18) in Chromium as the demo administrator, in French, on a tablet and a phone:
 * axe's WCAG A/AA rules with the forms as loaded and with their refusals shown, no horizontal
 * overflow, and a wrong current password told at its field with what was typed kept — by the
 * keyboard only. Nothing is saved, so the specs that follow sign in as before.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's violations on `page` as it is now, one line per rule and element. */
async function violations(page: Page, state: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags([...WCAG_A_AA, 'best-practice', 'experimental'])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${state}: ${v.id} (${v.impact}) ${n.html.slice(0, 300)} — ${n.failureSummary ?? ''}`),
  );
}

/** /account on `device`: its violations in each state, and overflow. */
async function walk(browser: Browser, device: (typeof devices)[string]): Promise<string[]> {
  const context = await browser.newContext({ ...device, baseURL: E2E.baseURL, serviceWorkers: 'block' });
  const page = await context.newPage();
  const found: string[] = [];
  await signIn(page);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Adresse e-mail')).toBeVisible();
  found.push(...(await violations(page, '/account')));
  if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) {
    found.push('/account: wider than the screen');
  }

  // By the keyboard: the current password, then the new one and its confirmation, then Enter.
  await page.getByLabel('Mot de passe actuel').focus();
  await page.keyboard.type('pas-le-bon');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Nouveau-E2e-2026!');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Nouveau-E2e-2026!');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Le mot de passe actuel est incorrect.')).toBeVisible();
  await expect(page.getByLabel('Mot de passe actuel')).toBeFocused();
  await expect(page.getByLabel('Mot de passe actuel')).toHaveValue('pas-le-bon');
  await expect(page.getByLabel('Confirmation du nouveau mot de passe')).toHaveValue('Nouveau-E2e-2026!');
  found.push(...(await violations(page, '/account, wrong current password')));

  await page.getByLabel('Adresse e-mail').fill('pas-une-adresse');
  await page.getByLabel('Adresse e-mail').press('Enter');
  await expect(page.getByText("Cette adresse e-mail n'est pas valable", { exact: false })).toBeVisible();
  found.push(...(await violations(page, '/account, invalid e-mail')));
  await context.close();
  return found;
}

test.describe('/account passes axe (WCAG A and AA) and tells refusals at their field, in French', () => {
  test('on a tablet', async ({ browser }) => {
    expect(await walk(browser, devices['Galaxy Tab S4'])).toEqual([]);
  });
  test('on a phone', async ({ browser }) => {
    expect(await walk(browser, devices['Pixel 7'])).toEqual([]);
  });
});

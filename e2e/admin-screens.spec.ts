/**
 * /config/users and /config/profils in Chromium, in French, on a tablet and on a 400 px phone
 * (issue #18): axe-core's WCAG A and AA rules on the list and on the open form, nothing wider than
 * the screen, and the form reached, filled and closed with the keyboard alone.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContextOptions, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** The two screens, their "new" button and the first field of their form. */
const SCREENS = [
  { path: '/config/users', title: 'Utilisateurs', create: 'Nouvel utilisateur', firstField: 'Identifiant' },
  { path: '/config/profils', title: 'Profils', create: 'Nouveau profil', firstField: 'Titre' },
] as const;

/**
 * Best-practice rules about the page as a whole: an open modal dialog hides the page behind it
 * from assistive technologies on purpose (aria-hidden), so its main landmark and h1 are gone.
 */
const PAGE_RULES = ['landmark-one-main', 'page-has-heading-one', 'region'];

/** axe's violations on `page` as it is now, one line per rule and element; `inDialog` skips PAGE_RULES. */
async function violations(page: Page, where: string, inDialog = false): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags([...WCAG_A_AA, 'best-practice'])
    .disableRules(inDialog ? PAGE_RULES : [])
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.html.slice(0, 300)} — ${n.failureSummary ?? ''}`),
  );
}

/** How far the page is wider than the screen, in CSS pixels (0 when nothing overflows). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Walks both screens in a new context of `device`: list, then the form opened and closed by keyboard. */
async function walk(browser: Browser, device: BrowserContextOptions, label: string): Promise<string[]> {
  const context = await browser.newContext({ ...device, baseURL: E2E.baseURL });
  const page = await context.newPage();
  const found: string[] = [];
  await signIn(page);
  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.title })).toBeVisible();
    await expect(page.getByRole('table')).toBeVisible();
    await page.waitForLoadState('networkidle');
    found.push(...(await violations(page, `${label} ${screen.path}`)));
    expect(await overflow(page), `${label} ${screen.path} overflows`).toBeLessThanOrEqual(0);

    const create = page.getByRole('button', { name: screen.create });
    await expect(create).toBeEnabled();
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(screen.firstField)).toBeFocused();
    await page.keyboard.type('e2e-clavier');
    await page.keyboard.press('Tab');
    found.push(...(await violations(page, `${label} ${screen.path} (form)`, true)));
    expect(await overflow(page), `${label} ${screen.path} form overflows`).toBeLessThanOrEqual(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(create).toBeFocused();
  }
  await context.close();
  return found;
}

test.describe('administration screens: axe clean, no overflow, keyboard only, in French', () => {
  test.setTimeout(180_000);
  test('on a tablet', async ({ browser }) => {
    expect(await walk(browser, devices['Galaxy Tab S4'], 'tablet')).toEqual([]);
  });
  test('on a 400 px phone', async ({ browser }) => {
    const phone = { ...devices['Pixel 7'], viewport: { width: 400, height: 860 } };
    expect(await walk(browser, phone, 'phone')).toEqual([]);
  });
});

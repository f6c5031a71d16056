/**
 * The administration screens of sites, groups, counting rules and the audit log (issue #18) in
 * Chromium against the production build and the demo chain: axe's WCAG A/AA rules and no
 * sideways scrolling on a 400 px phone and a 1024 px tablet, lists and open forms alike; and a
 * company then a site made with the keyboard only (Tab, typing, arrows, Enter), the site's time
 * zone picked in the searchable list, both found in the audit log.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const SCREENS = ['/config/sites', '/config/groupes', '/config/rules', '/config/audit'];
const VIEWPORTS = [
  { name: 'phone', viewport: { width: 400, height: 860 }, isMobile: true, hasTouch: true },
  { name: 'tablet', viewport: { width: 1024, height: 768 }, isMobile: false, hasTouch: true },
];

/**
 * axe's violations on `page` as it is now, one line per rule and element. With a modal open, the
 * page behind it is hidden from assistive technology on purpose (WAI-ARIA dialog pattern), so the
 * page-level "one main landmark" and "one h1" rules do not apply to that state.
 */
async function violations(page: Page, where: string, modal = false): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags([...WCAG_A_AA, 'best-practice']);
  if (modal) builder.disableRules(['landmark-one-main', 'page-has-heading-one']);
  const result = await builder.analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) ${n.html.slice(0, 200)} — ${n.failureSummary ?? ''}`),
  );
}

/** True when the page scrolls sideways (something wider than the screen). */
function overflows(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}

async function signedIn(browser: Browser, device: (typeof VIEWPORTS)[number]): Promise<Page> {
  const { name: _name, ...options } = device;
  const context = await browser.newContext({ ...options, baseURL: E2E.baseURL, serviceWorkers: 'allow' });
  const page = await context.newPage();
  await signIn(page);
  return page;
}

for (const device of VIEWPORTS) {
  test(`the four screens and their forms pass axe and fit a ${device.name} (${device.viewport.width} px)`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await signedIn(browser, device);
    const found: string[] = [];
    const wide: string[] = [];
    for (const screen of SCREENS) {
      await page.goto(screen);
      await expect(page.locator('h1')).toBeVisible();
      await page.waitForLoadState('networkidle');
      found.push(...(await violations(page, screen)));
      if (await overflows(page)) wide.push(screen);
    }
    for (const [screen, button, where] of [
      ['/config/sites', 'Nouvelle société', 'company form'],
      ['/config/sites', 'Nouveau site', 'site form'],
      ['/config/groupes', 'Nouveau groupe', 'group form'],
    ] as const) {
      await page.goto(screen);
      await page.getByRole('button', { name: button, exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      found.push(...(await violations(page, where, true)));
      if (await overflows(page)) wide.push(where);
    }
    expect(found).toEqual([]);
    expect(wide).toEqual([]);
    await page.context().close();
  });
}

test('a company and its site made with the keyboard only, time zone from the searchable list, both in the audit log', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, VIEWPORTS[1]!);
  await page.goto('/config/sites');
  await expect(page.locator('h1')).toHaveText('Sites et sociétés');
  const newCompany = page.getByRole('button', { name: 'Nouvelle société', exact: true });
  await newCompany.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  // The company name has the focus: type, then Tab through the fields.
  await page.keyboard.type('Clavier SAS');
  await page.keyboard.press('Tab'); // enseigne
  await page.keyboard.press('Tab'); // SIREN
  await page.keyboard.type('123456789');
  await page.keyboard.press('Tab'); // SIRET
  await page.keyboard.type('12345678900099');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Clavier SAS' })).toBeVisible();
  // A creation says what it created, not "Modification enregistrée." (issue #32 D.12).
  await expect(page.getByText(/Société\s«\sClavier SAS\s»\scréée\./)).toBeVisible();
  await expect(page.getByText('Modification enregistrée.')).toHaveCount(0);

  await page.getByRole('button', { name: 'Ajouter un site à Clavier SAS' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.type('Lisbonne Baixa');
  const zone = page.getByRole('combobox', { name: /Fuseau horaire/ });
  await zone.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('lisb');
  await expect(page.getByRole('option', { name: 'Europe/Lisbon' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(zone).toHaveValue('Europe/Lisbon');
  await page.getByLabel(/Début de la journée commerciale/).focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('04:30');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Lisbonne Baixa' })).toBeVisible();
  await expect(page.getByText(/Site\s«\sLisbonne Baixa\s»\scréé\./)).toBeVisible();
  await expect(page.getByText('Europe/Lisbon')).toBeVisible();

  await page.goto('/config/audit');
  await expect(page.getByRole('heading', { name: 'Site · création' }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Société · création' }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Europe/Lisbon' }).first()).toBeVisible();
  await page.context().close();
});

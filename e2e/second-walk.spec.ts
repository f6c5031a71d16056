/**
 * Issue #32's newcomer's second walk (items B, D.3, D.9, D.11, D.13, D.15) in Chromium, as the
 * demo users meet it: /rapports' operation, separate days, single-site mode, one site at a time for
 * a profile holding LIMITATION_SITE, and training mode with its banner; no navigation entry or
 * address of a screen not built yet ends on "Page introuvable"; a day with nothing counted says
 * what to do; toasts sit below the header on a tablet and a phone; a manager of one site is not
 * offered pickers that choose nothing; the 404 page passes axe's color-contrast.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, type Request, test } from '@playwright/test';
import { adminWithoutOneSiteLimit, chooseYesterday, e2eQuery, signInAsDemo } from './demo-users.ts';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

test.use({ actionTimeout: 15_000 });

test.beforeAll(adminWithoutOneSiteLimit);

/** The query of a request, with `x[]` lists read as arrays. */
function queryOf(request: Request): URLSearchParams {
  return new URL(request.url()).searchParams;
}

/** The next bo/getReport or bo/getReportSite request `page` sends while `act` runs. */
async function nextReportRequest(page: Page, act: () => Promise<void>): Promise<Request> {
  const [request] = await Promise.all([
    page.waitForRequest((r) => /\/api\/bo\/getReport(Site)?\?/.test(r.url())),
    act(),
  ]);
  return request;
}

/** Every link of the signed-in navigation (bar, folded groups, settings) and of /config. */
async function navigationTargets(page: Page): Promise<string[]> {
  const hrefs = await page
    .locator('.app-header a[href], .app-nav__popover a[href]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  const all = new Set(hrefs.filter((h) => h.startsWith('/')));
  if (all.has('/config')) {
    await page.goto('/config');
    await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
    for (const h of await page
      .locator('.admin-hub a[href]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))) {
      all.add(h);
    }
  }
  return [...all];
}

/** A page of a new browser context (its own session) on a 1024 px tablet. */
async function newUserPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: E2E.baseURL, viewport: { width: 1024, height: 768 } });
  return context.newPage();
}

test('no navigation entry leads to "Page introuvable", and a screen not built yet says it is coming (D.3)', async ({
  browser,
}) => {
  const admin = await newUserPage(browser);
  const accountant = await newUserPage(browser);
  await signIn(admin);
  await signInAsDemo(accountant, 'comptable');
  for (const [who, page] of [
    ['admin', admin],
    ['comptable', accountant],
  ] as const) {
    for (const target of await navigationTargets(page)) {
      await page.goto(target);
      await expect(page.locator('main h1').first(), `${who} ${target}`).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Page introuvable' }), `${who} ${target}`).toHaveCount(
        0,
      );
    }
  }
  // The accountant holds FEC_CONFIGURATION: /fec is built, its recurrences are coming, not missing.
  await accountant.goto('/fec/recurrencesfec');
  await expect(accountant.getByRole('heading', { level: 1, name: 'Écran à venir' })).toBeVisible();
  await expect(accountant.getByRole('heading', { name: 'Page introuvable' })).toHaveCount(0);
  // The administrator holds CONFIGURATION: the Adoria integration screen is coming too.
  const page = admin;
  await page.goto('/config/adoria');
  await expect(page.getByRole('heading', { level: 1, name: 'Écran à venir' })).toBeVisible();
  // A mistyped address is still not found.
  await page.goto('/config/nulle-part');
  await expect(page.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
});

test('the 404 page passes axe color-contrast (D.15)', async ({ page }) => {
  await page.goto('/nulle-part');
  await expect(page.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
  const result = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  expect(result.violations.flatMap((v) => v.nodes.map((n) => n.html))).toEqual([]);
});

test('a manager of one site is told the site, not offered a group or "all your sites (1)" (D.13)', async ({
  page,
}) => {
  await signInAsDemo(page, 'gerant.bellecour');
  for (const screen of ['/home', '/rapports', '/evenements']) {
    await page.goto(screen);
    await expect(page.getByTestId('only-site'), screen).toHaveText('Site Le Comptoir Lyon Bellecour');
    await expect(page.getByRole('button', { name: /Groupe de sites/ }), screen).toHaveCount(0);
    await expect(page.getByText(/tous vos sites/), screen).toHaveCount(0);
  }
});

test('/rapports: operation, separate days, training mode and single-site mode reach bo/getReport (B)', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/rapports');
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
  // VENTE by default, the class's other operations offered.
  const operation = page.getByRole('button', { name: /Opération/ });
  await expect(operation).toContainText('Ventes');
  await operation.click();
  await page.getByRole('option', { name: 'Toutes les opérations' }).click();

  // Separate days in place of the period: two days typed, one repeated (kept once).
  await page.getByText("Jours séparés au lieu d'une période").click();
  await expect(page.getByRole('button', { name: /Période prédéfinie/ })).toHaveCount(0);
  const day = page.getByLabel('Jour à ajouter');
  for (const d of ['01/12/2026', '03/12/2026', '01/12/2026']) {
    await day.fill(d);
    await day.blur();
    await page.getByRole('button', { name: 'Ajouter ce jour' }).click();
  }
  await expect(page.getByRole('list', { name: 'Jours choisis' }).getByRole('listitem')).toHaveText([
    /01\/12\/2026/,
    /03\/12\/2026/,
  ]);
  const show = page.getByRole('button', { name: "Afficher à l'écran" });
  let query = queryOf(await nextReportRequest(page, () => show.click()));
  expect(query.getAll('datefiscales[]')).toEqual(['2026-12-01', '2026-12-03']);
  expect(query.has('dateDebut')).toBe(false);
  expect(query.get('operation')).toBe('TOUTES');
  expect(query.has('trainingMode')).toBe(false);
  await expect(page.locator('.rep-preview')).toBeVisible();

  // Training mode: a banner while on, trainingMode=true sent, and a way out.
  await page.getByText('Mode formation', { exact: true }).click();
  const banner = page.getByTestId('training-banner');
  await expect(banner).toContainText('Mode formation');
  query = queryOf(await nextReportRequest(page, () => show.click()));
  expect(query.get('trainingMode')).toBe('true');
  await banner.getByRole('button', { name: 'Quitter le mode formation' }).click();
  await expect(banner).toHaveCount(0);

  // Single-site mode: one site chosen, the single-site variant called with it.
  await page.getByText('Un rapport pour un seul site').click();
  await page.getByRole('button', { name: / Site$/ }).click();
  await page.getByRole('option', { name: 'Le Comptoir Annecy Vieille Ville' }).click();
  const request = await nextReportRequest(page, () => show.click());
  expect(new URL(request.url()).pathname).toBe('/api/bo/getReportSite');
  expect(queryOf(request).getAll('sites[]')).toEqual([]);
  expect(queryOf(request).get('restaurantId')).toMatch(/^\d+$/);
  expect(queryOf(request).has('trainingMode')).toBe(false);
});

test('a profile holding LIMITATION_SITE chooses one site and sends one (B)', async ({ page }) => {
  const login = 'responsable.brasseries';
  const profile = '(SELECT profile_id FROM users WHERE login = $1)';
  await e2eQuery(
    `UPDATE profiles SET droits = array_append(droits, 'LIMITATION_SITE') WHERE id = ${profile}`,
    [login],
  );
  try {
    await signInAsDemo(page, login);
    await page.goto('/rapports');
    await expect(page.getByTestId('one-site-limited')).toBeVisible();
    await expect(page.getByText(/tous vos sites/)).toHaveCount(0);
    const query = queryOf(
      await nextReportRequest(page, () => page.getByRole('button', { name: "Afficher à l'écran" }).click()),
    );
    expect(query.getAll('sites[]')).toHaveLength(1);
  } finally {
    await e2eQuery(
      `UPDATE profiles SET droits = array_remove(droits, 'LIMITATION_SITE') WHERE id = ${profile}`,
      [login],
    );
  }
});

test('a day with nothing counted or received says so and what to do (D.9)', async ({ page }) => {
  await signIn(page);
  for (const [screen, text] of [
    ['/analyses/comptageCaisses/liste', 'Aucun comptage enregistré ce jour pour ce site.'],
    ['/recus', 'Aucun reçu ce jour pour ce site.'],
  ] as const) {
    await page.goto(screen);
    // The first site is chosen on arrival.
    await expect(page.getByRole('button', { name: / Site$/ })).toContainText('Le Comptoir');
    const date = page.getByLabel(/^Date fiscale/);
    await date.fill('01/01/2020');
    await date.blur();
    await expect(page.getByText(text), screen).toBeVisible();
  }
});

for (const viewport of [
  { width: 1024, height: 768 },
  { width: 412, height: 915 },
]) {
  test(`toasts sit below the header at ${viewport.width} px (D.11)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    await page.goto('/rapports');
    await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
    await chooseYesterday(page);
    await page.getByRole('button', { name: 'Générer', exact: true }).click();
    const toast = page.locator('.notification').filter({ hasText: 'Export terminé.' });
    await expect(toast).toBeVisible();
    const header = await page.locator('.app-header').boundingBox();
    const box = await toast.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
  });
}

/**
 * Screens a newcomer tripped on (issue #20), in French against the demo chain: /graphs draws its
 * charts on arrival and passes axe with a chart shown (items 12, 18, 19: no focusable part of a
 * chart inside aria-hidden, no h3 straight after the h1 on /home, /tickets and /graphs); the
 * navigation bar holds on one row at 1024 px (item 10); on a phone, /rapports keeps "Générer" on
 * screen without scrolling (item 14) and each key figure of a report on one line (item 11).
 */
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { signIn } from './helpers.ts';

/** axe's violations of `rules` on `page` as it is now, one line per rule and element. */
async function violations(page: Page, rules: readonly string[]): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations
    .filter((v) => rules.includes(v.id))
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}`));
}

test('/graphs shows the last full week on arrival, without a press', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Graphiques' }).click();
  await expect(page.getByRole('heading', { name: 'Graphiques des ventes', level: 1 })).toBeVisible();
  // The result's heading names the period: Monday to Sunday of last week.
  const result = page.getByRole('heading', { level: 2, name: /^Ventes du / });
  await expect(result).toBeVisible();
  const [, from, to] = /du (\S+) au (\S+)/.exec((await result.textContent()) ?? '') ?? [];
  const day = (d: string) => new Date(`${d.split('/').reverse().join('-')}T12:00:00Z`).getUTCDay();
  expect([day(from ?? ''), day(to ?? '')]).toEqual([1, 0]);
  await expect(page.locator('.gr-chart svg').first()).toBeVisible();
  // Nobody asked for it: the focus does not jump to the result.
  await expect(result).not.toBeFocused();
});

test('/graphs with its charts, /home and /tickets: no focusable chart inside aria-hidden, headings in order', async ({
  page,
}) => {
  await signIn(page);
  const rules = ['aria-hidden-focus', 'heading-order'];
  await expect(page.getByRole('heading', { name: 'Accueil', level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const found = await violations(page, rules);
  await page.getByRole('link', { name: 'Tickets' }).click();
  await expect(page.getByRole('heading', { name: 'Recherche de tickets', level: 1 })).toBeVisible();
  found.push(...(await violations(page, rules)));
  await page.getByRole('link', { name: 'Graphiques' }).click();
  await expect(page.locator('.gr-chart .recharts-wrapper')).toHaveCount(4);
  found.push(...(await violations(page, rules)));
  expect(found).toEqual([]);
});

test('at 1024 px the navigation entries sit on one row', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: E2E.baseURL,
    viewport: { width: 1024, height: 768 },
    serviceWorkers: 'allow',
  });
  const page = await context.newPage();
  await signIn(page);
  const links = page.locator('.app-nav .app-nav__link');
  await expect(links.last()).toHaveText('Reçus');
  // The settings links sit in the header's first row, beside the sync badge (app/nav-menu.tsx NavTools).
  const administration = page.locator('.app-tools').getByRole('link', { name: 'Administration' });
  await expect(administration).toBeVisible();
  const [toolTop, syncTop] = await Promise.all([
    administration.evaluate((a) => Math.round(a.getBoundingClientRect().bottom)),
    page.locator('.app-header__logout').evaluate((b) => Math.round(b.getBoundingClientRect().bottom)),
  ]);
  expect(Math.abs(toolTop - syncTop)).toBeLessThan(8);
  const tops = await links.evaluateAll((all) => all.map((a) => Math.round(a.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThanOrEqual(10);
  expect(new Set(tops).size).toBe(1);
  // The steering screens (events, BI, anomalies) fold into one button of the header's first row, opening their links.
  await page.locator('.app-tools').getByRole('button', { name: 'Pilotage' }).click();
  const popover = page.getByRole('dialog', { name: 'Pilotage' });
  await expect(popover.getByRole('link')).toHaveText(['Événements', 'BI', 'Anomalies']);
  await popover.getByRole('link', { name: 'BI' }).click();
  await expect(popover).toBeHidden();
  await expect(page).toHaveURL(/\/bi$/);
  await context.close();
});

test('on a phone, "Générer" on /rapports is on screen without scrolling', async ({ browser }) => {
  const context = await browser.newContext({
    ...devices['Pixel 7'],
    baseURL: E2E.baseURL,
    serviceWorkers: 'allow',
  });
  const page = await context.newPage();
  await signIn(page);
  await page.goto('/rapports');
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const generate = page.getByRole('button', { name: 'Générer', exact: true });
  await expect(generate).toBeInViewport();
  const box = await generate.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);

  // Item 11: a month of the whole chain on screen; every key figure holds on one line in its tile.
  await page.getByRole('button', { name: /Période prédéfinie/ }).click();
  await page.getByRole('option', { name: 'Mois précédent' }).click();
  await page.getByRole('button', { name: "Afficher à l'écran" }).click();
  const figures = page.locator('.rep-totals__item dd');
  await expect(figures.first()).toBeVisible({ timeout: 60_000 });
  const shapes = await figures.evaluateAll((all) =>
    all.map((dd) => ({
      text: dd.textContent,
      lines: Math.round(
        dd.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(dd).lineHeight),
      ),
      overflows: dd.scrollWidth > dd.clientWidth,
    })),
  );
  expect(shapes.some((f) => f.text?.includes('€'))).toBe(true);
  expect(shapes.filter((f) => f.lines !== 1 || f.overflows)).toEqual([]);
  await context.close();
});

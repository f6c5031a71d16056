/**
 * The KPI/BI area (issue #19) in French against the demo chain, on a tablet and on a phone: /bi
 * answers net sales by site for the last week with its table and chart, /totalKPI its key
 * figures with sparklines, /tracker today's ranking with the time of its refresh; each screen,
 * with its result shown, passes axe's WCAG A and AA rules (no focusable chart part inside
 * aria-hidden among them), and a CSV export downloads. The discounts of last week equal, to the
 * cent, what the demo's discount lines gave away; a view saved as a favourite from /bi is listed
 * in /configFavoris, opens /bi on its view again, is renamed and deleted there.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Browser, devices, expect, type Page, test } from '@playwright/test';
import { E2E } from './env.ts';
import { e2eDatabase, signIn } from './helpers.ts';

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

/** A French DD/MM/YYYY date as a wire date. */
const wire = (d: string) => d.split('/').reverse().join('-');

test("/bi reads last week's discounts from the aggregates, to the cent of the discount lines", async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/bi');
  await lastWeek(page);
  await page.getByRole('button', { name: /Mesure/ }).click();
  await page.getByRole('option', { name: 'Remises accordées TTC' }).click();
  await page.getByRole('button', { name: 'Afficher', exact: true }).click();
  const table = page.getByRole('table', { name: 'Remises accordées TTC : chiffres' });
  await expect(table).toBeVisible();
  const periods = (await page.locator('.bi-result__periods').textContent()) ?? '';
  const [, from, to] = /du (\d\d\/\d\d\/\d{4}) au (\d\d\/\d\d\/\d{4})/.exec(periods) ?? [];
  expect(from, periods).toBeTruthy();
  const total =
    (await table
      .getByRole('row', { name: /^Total/ })
      .getByRole('cell')
      .first()
      .textContent()) ?? '';
  const pool = e2eDatabase();
  try {
    const { rows } = await pool.query<{ cents: string }>(
      `SELECT coalesce(-sum(l.amount_cents), 0) AS cents
         FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
        WHERE t.fiscal_date BETWEEN $1::date AND $2::date AND NOT t.training_mode AND NOT l.corrected
          AND CASE WHEN t.kind = 'SALE' THEN l.amount_cents < 0 ELSE l.amount_cents > 0 END`,
      [wire(from!), wire(to!)],
    );
    expect(Number(rows[0]!.cents)).toBeGreaterThan(0);
    expect(Number(total.replace(/\D/g, ''))).toBe(Number(rows[0]!.cents));
  } finally {
    await pool.end();
  }
});

test('/bi saves its view as a favourite, which /configFavoris lists, opens on /bi, renames and deletes', async ({
  page,
}) => {
  const name = `Remises par vendeur ${Date.now()}`;
  await signIn(page);
  await page.goto('/bi?measure=DISCOUNTS&dimension1=SELLER&comparison=PREVIOUS');
  await expect(page.getByRole('button', { name: /Mesure/ })).toContainText('Remises accordées TTC');
  const card = page.locator('.fav-bi-save');
  // No name: refused at the field, nothing sent.
  await card.getByRole('button', { name: 'Enregistrer comme favori' }).click();
  await expect(card.getByText('Donnez un nom au favori.')).toBeVisible();
  await card.getByLabel('Nom du favori').fill(name);
  await card.getByRole('button', { name: 'Enregistrer comme favori' }).click();
  await expect(card.getByLabel('Nom du favori')).toHaveValue('');

  await page.goto('/configFavoris');
  const row = page.locator('.fav-item', { hasText: name });
  await expect(row).toContainText('Remises accordées TTC par Vendeur, comparé à : Période précédente');
  await row.getByRole('button', { name: /^Ouvrir le favori .* dans l'exploration BI$/ }).click();
  await expect(page).toHaveURL(/\/bi\?.*measure=DISCOUNTS/);
  await expect(page.getByRole('button', { name: /Axe 1/ })).toContainText('Vendeur');
  await page.getByRole('button', { name: 'Afficher', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Remises accordées TTC : chiffres' })).toBeVisible();

  await page.goto('/configFavoris');
  await page
    .locator('.fav-item', { hasText: name })
    .getByRole('button', { name: /^Renommer le favori/ })
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Nom du favori').fill(`${name} (bis)`);
  await dialog.getByRole('button', { name: 'Renommer' }).click();
  const renamed = page.locator('.fav-item', { hasText: `${name} (bis)` });
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: /^Supprimer le favori/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.locator('.fav-item', { hasText: name })).toHaveCount(0);
});

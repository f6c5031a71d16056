/**
 * The walking skeleton end to end (issue #2): a manager signs in, picks a site and a period,
 * downloads the sales report as CSV and PDF, and the figures equal sums computed straight from
 * the ticket lines in the database; then the installed shell opens with no network.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { adminWithoutOneSiteLimit } from './demo-users.ts';
import { e2eDatabase, signIn, waitForServiceWorker } from './helpers.ts';

// The administrator chooses several sites on /rapports: without LIMITATION_SITE (issue #32 B).
test.beforeAll(adminWithoutOneSiteLimit);

const SITE = 'Le Comptoir Lyon Bellecour';

/** Expected rows of the sales report for `siteId` over [from, to], from ticket lines (not the report code). */
async function expectedRows(siteId: number, from: string, to: string) {
  const pool = e2eDatabase();
  try {
    const { rows } = await pool.query<{
      fiscal_date: string;
      tickets: number;
      net: number;
      excl: number;
      tax: number;
    }>(
      `SELECT t.fiscal_date::text AS fiscal_date,
              (SELECT count(*)::int FROM tickets s
                WHERE s.site_id = $1 AND s.fiscal_date = t.fiscal_date AND s.kind = 'SALE' AND NOT s.training_mode) AS tickets,
              sum(l.amount_cents)::bigint AS net, sum(l.amount_excl_cents)::bigint AS excl, sum(l.tax_cents)::bigint AS tax
         FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
        WHERE t.site_id = $1 AND t.fiscal_date BETWEEN $2 AND $3 AND NOT t.training_mode
        GROUP BY t.fiscal_date ORDER BY t.fiscal_date`,
      [siteId, from, to],
    );
    return rows;
  } finally {
    await pool.end();
  }
}

async function siteId(libelle: string): Promise<number> {
  const pool = e2eDatabase();
  try {
    const { rows } = await pool.query<{ id: number }>('SELECT id FROM sites WHERE libelle = $1', [libelle]);
    return rows[0]!.id;
  } finally {
    await pool.end();
  }
}

/** French money text of the CSV ("9717,70") → cents. */
const frCents = (text: string) => Math.round(Number(text.replace(',', '.')) * 100);
/** `DD/MM/YYYY` → `YYYY-MM-DD`. */
const wire = (d: string) => d.split('/').reverse().join('-');

test('a manager downloads the sales report of last week for one site as CSV and PDF, with the right figures', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Rapports' }).click();
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: /^Sites/ }).click();
  await page.getByRole('option', { name: new RegExp(`^${SITE}`) }).click();
  await page.getByRole('button', { name: /Période prédéfinie/ }).click();
  await page.getByRole('option', { name: 'Semaine précédente' }).click();
  const period = await page.getByRole('status').filter({ hasText: /^Du / }).textContent();
  const [, from, to] = /Du (\S+) au (\S+)/.exec(period ?? '') ?? [];
  expect(from && to, `period shown: ${period}`).toBeTruthy();

  // CSV
  await page.getByRole('radio', { name: 'CSV (tableur)' }).check({ force: true });
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Générer', exact: true }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(/^ventes_.*\.csv$/);
  const csvText = fs.readFileSync((await csv.path())!, 'utf8');
  expect(csvText.charCodeAt(0)).toBe(0xfeff); // BOM for spreadsheet programs
  const records: string[][] = parse(csvText.slice(1), { delimiter: ';' });
  expect(records[0]).toEqual([
    'Date fiscale',
    'N° site',
    'Site',
    'Tickets',
    'CA TTC',
    'CA HT',
    'TVA',
    'Ticket moyen',
  ]);
  const body = records.slice(1, -1);
  const total = records.at(-1)!;

  const id = await siteId(SITE);
  const expected = await expectedRows(id, wire(from!), wire(to!));
  expect(expected).toHaveLength(7);
  expect(
    body.map((r) => [
      wire(r[0]!),
      Number(r[1]),
      r[2],
      Number(r[3]),
      frCents(r[4]!),
      frCents(r[5]!),
      frCents(r[6]!),
    ]),
  ).toEqual(
    expected.map((e) => [e.fiscal_date, id, SITE, e.tickets, Number(e.net), Number(e.excl), Number(e.tax)]),
  );
  const sum = (k: 'net' | 'tickets') => expected.reduce((s, e) => s + Number(e[k]), 0);
  expect(total[0]).toBe('Total');
  expect(Number(total[3])).toBe(sum('tickets'));
  expect(frCents(total[4]!)).toBe(sum('net'));

  // PDF
  await page.getByRole('radio', { name: 'PDF' }).check({ force: true });
  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Générer', exact: true }).click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toMatch(/^ventes_.*\.pdf$/);
  const doc = await getDocument({ data: new Uint8Array(fs.readFileSync((await pdf.path())!)) }).promise;
  let text = '';
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    text += ` ${content.items.map((i) => ('str' in i ? i.str : '')).join(' ')}`;
  }
  const money = (cents: number) =>
    new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' })
      .format(cents / 100)
      .replace(/\s/g, ' ');
  const flat = text.replace(/\s/g, ' ');
  expect(flat).toContain(SITE);
  expect(flat).toContain(`Période du ${from} au ${to}`);
  expect(flat).toContain(money(sum('net')));
});

test('the installed app opens its shell with no network', async ({ page, context }) => {
  await signIn(page);
  await page.reload();
  await waitForServiceWorker(page);
  await page.getByRole('link', { name: 'Rapports' }).click();
  await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Se déconnecter' })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a year of corrections shows on screen a hundred rows at a time, the table scrolling in its box', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/rapports');
    await expect(page.getByRole('heading', { name: 'Rapports', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: /Rapport à générer/ }).click();
    await page.getByRole('option', { name: 'Corrections', exact: true }).click();
    await page.getByRole('button', { name: /Période prédéfinie/ }).click();
    await page.getByRole('option', { name: '365 derniers jours' }).click();
    await page.getByRole('button', { name: "Afficher à l'écran" }).click();

    const pages = page.getByRole('navigation', { name: 'Pages du rapport' });
    const where = pages.getByRole('status');
    await expect(where).toHaveText(/^Lignes 1 à 100 sur \d[\d\s]*$/);
    const count = Number((await where.textContent())!.replace(/^.* sur /, '').replace(/\D/g, ''));
    expect(count).toBeGreaterThan(200);
    const table = page.getByRole('table');
    await expect(table.locator('tbody tr')).toHaveCount(101); // a page, and the totals
    await expect(table.locator('tbody tr').last()).toContainText('Total');
    // The page itself never scrolls sideways: the table does, in its box.
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);

    await pages.getByRole('button', { name: 'Lignes suivantes' }).click();
    await expect(where).toHaveText(/^Lignes 101 à 200 sur /);
    await expect(table.locator('tbody tr')).toHaveCount(101);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await pages.getByRole('button', { name: 'Lignes précédentes' }).click();
    await expect(where).toHaveText(/^Lignes 1 à 100 sur /);
  });
});

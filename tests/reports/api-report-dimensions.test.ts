/**
 * Filters on product family, VAT rate and payment method (filtre FAMILLE, TVA, PAIEMENT): the
 * values bo/getGroupements offers from the data, and bo/getReport keeping the rows of those
 * values with totals summed again — on a few ticket lines and payments added to the test chain.
 */
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { refreshDailySales } from '../../src/server/db/aggregates.ts';
import type { TestApp } from '../helpers/app.ts';
import { setUpReportApp } from '../helpers/report-app.ts';
import { MANAGER } from '../helpers/report-users.ts';
import { type ChainTicket, loadChain } from './chain.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

/** Lines added: [ticket, family, vat rate, amount cents]. */
const LINES: Array<[number, string, number, number]> = [];

/** The test chain, with the lines of {@link LINES} and two payments added to Paris on 2 November. */
async function loadDimensions(database: TestApp['database']): Promise<object> {
  const tickets = await loadChain(database);
  // Three sales of Paris on 2 November: drinks at 10 %, desserts at 5.5 %, one of each paid by card or cash.
  const sales = tickets.filter(
    (k: ChainTicket) =>
      k.siteId === 1 && k.fiscalDate === '2026-11-02' && k.kind === 'SALE' && !k.trainingMode,
  );
  const [a, b, c] = sales;
  LINES.push(
    [a!.ticketId, 'Boissons', 0.1, 450],
    [a!.ticketId, 'Desserts', 0.055, 650],
    [b!.ticketId, 'Boissons', 0.1, 300],
  );
  LINES.push([c!.ticketId, 'Plats', 0.1, 1500]);
  let lineNo = 0;
  for (const [ticketId, family, rate, amount] of LINES) {
    const excl = Math.round(amount / (1 + rate));
    await database.pool.query(
      `INSERT INTO ticket_lines (site_id, ticket_id, line_no, article, family, quantity, unit_price_cents, amount_cents,
                                 vat_rate, amount_excl_cents, tax_cents)
       VALUES (1, $1, $2, $3, $4, 1, $5, $5, $6, $7, $8)`,
      [ticketId, ++lineNo, `${family} ${lineNo}`, family, amount, rate, excl, amount - excl],
    );
  }
  await database.pool.query(
    `INSERT INTO payments (site_id, ticket_id, payment_no, method, amount_cents) VALUES (1, $1, 1, 'CARD', 1100), (1, $2, 1, 'CASH', 300)`,
    [a!.ticketId, b!.ticketId],
  );
  await refreshDailySales(database.pool, 1, '2026-11-01', '2026-11-10');
  return {};
}

const api = setUpReportApp({
  password: 'Rapp0rts!-dimensions',
  users: { manager: MANAGER },
  load: loadDimensions,
});

const DAY = 'dateDebut=2026-11-02&dateFin=2026-11-02';

async function groupements(className: string, filtre: string) {
  const res = await api.get(
    api.manager.headers,
    `bo/getGroupements?id=${api.manager.id}&rapportGeneralClassName=${className}&filtre=${filtre}&restaurantId=1&${DAY}&language=en`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ groupements: Array<{ value: string; label: string }> }>().groupements;
}

async function report(className: string, query: string): Promise<Dataset> {
  const res = await api.get(
    api.manager.headers,
    `bo/getReport?id=${api.manager.id}&rapportClassName=${className}&format=JSON&language=en&sites[]=1&${DAY}&${query}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return datasetAnswer(res);
}

describe('family, VAT rate and payment method filters', () => {
  it('bo/getGroupements offers the families, VAT rates and payment methods of the data, labelled', async () => {
    expect(await groupements('RapportVentesFamille', 'FAMILLE')).toEqual([
      { value: 'Boissons', label: 'Boissons' },
      { value: 'Desserts', label: 'Desserts' },
      { value: 'Plats', label: 'Plats' },
    ]);
    expect(await groupements('RapportVentesTva', 'TVA')).toEqual([
      { value: '0.055', label: '5.5%' },
      { value: '0.1', label: '10%' },
    ]);
    expect(await groupements('RapportVentesPaiement', 'PAIEMENT')).toEqual([
      { value: 'CARD', label: 'Card' },
      { value: 'CASH', label: 'Cash' },
    ]);
  });

  it('FAMILLE keeps the families named; totals are theirs and shares stay shares of the whole day', async () => {
    const all = await report('RapportVentesFamille', '');
    const got = await report(
      'RapportVentesFamille',
      'isFilters=true&filtre=FAMILLE&condition=Boissons&condition=Plats',
    );
    expect(got.rows.map((r) => r.family)).toEqual(
      all.rows.filter((r) => r.family === 'Boissons' || r.family === 'Plats').map((r) => r.family),
    );
    expect(got.totals.netSales).toBe(450 + 300 + 1500);
    const share = all.rows.find((r) => r.family === 'Plats')!.share;
    expect(got.rows.find((r) => r.family === 'Plats')!.share).toBe(share);
  });

  it('TVA keeps the rates named, PAIEMENT the methods named (by code, whatever the language)', async () => {
    const vat = await report('RapportVentesTva', 'isFilters=true&filtre=TVA&condition=0.055');
    expect(vat.rows).toHaveLength(1);
    expect(vat.totals.netSales).toBe(650);
    const pay = await report('RapportVentesPaiement', 'isFilters=true&filtre=PAIEMENT&condition=CASH');
    expect(pay.rows.map((r) => r.paymentMethod)).toEqual(['Cash']);
    expect(pay.totals.amount).toBe(300);
  });
});

/**
 * A payment method outside the schema's list (a load may write what its till recorded) in the
 * two views of the payments that read the same figures: sales by payment method keeps it on a
 * row of its own, after the known methods; the finance report folds it into its OTHER column.
 * Both on the per-day aggregates and on the tickets.
 */
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../src/contract/reports.ts';
import { refreshDailySales } from '../../../src/server/db/aggregates.ts';
import { type RawReportInput, resolveReport } from '../../../src/server/reports/request.ts';
import { runReport } from '../../../src/server/reports/run.ts';
import { setUpFixtureDatabase } from '../../helpers/db.ts';
import { fxInput, loadFixture } from '../operations/fixture.ts';

/** `gift`: the ticket whose payment the set-up records as a gift card, and its amount (cents). */
const fx = setUpFixtureDatabase(async (database) => {
  const { tickets } = await loadFixture(database);
  // A paid sale of Paris on terminal 1, its single payment recorded as a gift card.
  const ticket = tickets.find(
    (t) =>
      t.siteId === 1 && t.terminalId === 1 && !t.trainingMode && t.kind === 'SALE' && t.payments.length === 1,
  )!;
  await database.pool.query(
    `UPDATE payments SET method = 'GIFT_CARD' WHERE site_id = $1 AND ticket_id = $2`,
    [ticket.siteId, ticket.ticketId],
  );
  await refreshDailySales(database.pool, ticket.siteId, ticket.fiscalDate, ticket.fiscalDate);
  return { gift: { ticket, amount: ticket.payments[0]!.amount } };
});

async function dataset(className: string, overrides: Partial<RawReportInput>): Promise<Dataset> {
  const report = await resolveReport(
    fxInput(className, { language: 'en', ...overrides }),
    [1, 2, 3],
    fx.database,
  );
  return runReport(report, fx.database);
}

describe('a payment method outside the known list', () => {
  const selections: Array<[string, Partial<RawReportInput>]> = [
    ['the per-day aggregates', {}],
    ['the tickets (terminal 1 only)', { tpv: [1] }],
  ];
  for (const [label, overrides] of selections) {
    it(`shows as recorded, last, in sales by payment method and as OTHER in the finance report, from ${label}`, async () => {
      const byMethod = await dataset('RapportVentesPaiement', overrides);
      expect(byMethod.rows.at(-1)).toMatchObject({
        paymentMethod: 'GIFT_CARD',
        payments: 1,
        amount: fx.gift.amount,
      });
      expect(byMethod.rows.slice(0, -1).map((r) => r.paymentMethod)).not.toContain('GIFT_CARD');

      const finance = await dataset('RapportFinance', overrides);
      const { ticket } = fx.gift;
      const day = finance.rows.find((r) => r.fiscalDate === ticket.fiscalDate && r.siteId === ticket.siteId);
      expect(day?.payment_OTHER).toBe(fx.gift.amount);
      expect(finance.totals.payment_OTHER).toBe(fx.gift.amount);
      expect(finance.totals.totalPayments).toBe(byMethod.totals.amount);
    });
  }
});

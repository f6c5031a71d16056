/**
 * The sales analyses on a few days of the demo chain (staff meals at no charge, corrected lines,
 * cancellations mirroring a table with negative covers and payments, split payments, a late bar
 * whose day starts at 05:00, training tickets on the 1st): figures recomputed in TypeScript from
 * the raw rows read back, and every breakdown summing to the sales report's total.
 */
import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../src/contract/reports.ts';
import { generateDemoChain } from '../../../src/server/demo/generate.ts';
import { type RawReportInput, resolveReport } from '../../../src/server/reports/request.ts';
import { runReport } from '../../../src/server/reports/run.ts';
import { setUpFixtureDatabase } from '../../helpers/db.ts';
import { input } from './chain.ts';

interface RawTicket {
  site_id: number;
  ticket_id: string;
  kind: string;
  training_mode: boolean;
  covers: number | null;
  total_cents: string;
  opened_at: Date;
}

/** The demo chain's site ids and its first and last fiscal dates (`from`, `to`). */
const fx = setUpFixtureDatabase(async (database) => {
  // 2026-10-31..2026-11-02: a Saturday, a Sunday (with the month's training tickets) and a Monday.
  await generateDemoChain(database.pool, { seed: 7, now: new Date('2026-11-02T22:30:00Z'), days: 3 });
  const sites = (await database.pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id')).rows.map(
    (r) => r.id,
  );
  const range = await database.pool.query<{ from: string; to: string }>(
    'SELECT min(fiscal_date)::text AS from, max(fiscal_date)::text AS to FROM tickets',
  );
  return { sites, ...range.rows[0]! };
});

function demoInput(className: string, overrides: Partial<RawReportInput> = {}): RawReportInput {
  return input(className, { sites: fx.sites, dateDebut: fx.from, dateFin: fx.to, ...overrides });
}

async function dataset(className: string, overrides: Partial<RawReportInput> = {}): Promise<Dataset> {
  const report = await resolveReport(demoInput(className, overrides), fx.sites, fx.database);
  return runReport(report, fx.database);
}

async function rawTickets(): Promise<RawTicket[]> {
  const { rows } = await fx.database.pool.query<RawTicket>(
    'SELECT site_id, ticket_id::text, kind, training_mode, covers, total_cents::text, opened_at FROM tickets',
  );
  return rows.filter((t) => !t.training_mode);
}

describe('sales analyses on the demo chain', () => {
  it('holds the cases the analyses must count right', async () => {
    const tickets = await rawTickets();
    expect(fx.from).toBe('2026-10-31');
    expect(tickets.some((t) => t.kind === 'CANCELLATION' && (t.covers ?? 0) < 0)).toBe(true);
    const all = await fx.database.pool.query('SELECT count(*)::int AS n FROM tickets WHERE training_mode');
    expect(all.rows[0].n).toBeGreaterThan(0);
    const corrected = await fx.database.pool.query(
      'SELECT count(*)::int AS n FROM ticket_lines WHERE corrected',
    );
    expect(corrected.rows[0].n).toBeGreaterThan(0);
  });

  it('sums every breakdown to the sales report total, to the cent', async () => {
    const sales = await dataset('RapportVentes');
    const total = sales.totals.netSales as number;
    expect(total).toBeGreaterThan(0);
    const tickets = await rawTickets();
    expect(total).toBe(tickets.reduce((a, t) => a + Number(t.total_cents), 0));
    for (const [className, key] of [
      ['RapportVentesHoraire', 'netSales'],
      ['RapportVentesTranche', 'netSales'],
      ['RapportVentesFamille', 'netSales'],
      ['RapportVentesCaisse', 'netSales'],
      ['RapportVentesVendeur', 'netSales'],
      ['RapportVentesPaiement', 'amount'],
      ['RapportVentesTva', 'netSales'],
      ['RapportVentesCouverts', 'netSales'],
      ['RapportVentesComparaison', 'netSales'],
    ] as const) {
      const d = await dataset(className);
      expect(d.totals[key], className).toBe(total);
      expect(
        d.rows.reduce((a, r) => a + (r[key] as number), 0),
        className,
      ).toBe(total);
      expect(d.totals.tickets ?? sales.totals.tickets, className).toBe(sales.totals.tickets);
    }
  });

  it('puts each ticket in the hour of the Paris clock it was opened in', async () => {
    const tickets = await rawTickets();
    const byHour = new Array<number>(24).fill(0);
    for (const t of tickets)
      byHour[new TZDate(t.opened_at, 'Europe/Paris').getHours()]! += Number(t.total_cents);
    const d = await dataset('RapportVentesHoraire');
    expect(d.rows.map((r) => r.netSales)).toEqual(byHour);
    // The late bar trades after midnight on the previous fiscal date.
    expect(byHour[0]).toBeGreaterThan(0);
  });

  it('gives covers and payments by method as the raw rows add them up', async () => {
    const tickets = await rawTickets();
    const covers = await dataset('RapportVentesCouverts');
    expect(covers.totals.covers).toBe(tickets.reduce((a, t) => a + (t.covers ?? 0), 0));
    const { rows } = await fx.database.pool.query<{
      method: string;
      amount_cents: string;
      training_mode: boolean;
    }>(
      `SELECT p.method, p.amount_cents::text, t.training_mode
         FROM payments p JOIN tickets t ON t.site_id = p.site_id AND t.ticket_id = p.ticket_id`,
    );
    const byMethod = new Map<string, number>();
    for (const p of rows.filter((r) => !r.training_mode)) {
      byMethod.set(p.method, (byMethod.get(p.method) ?? 0) + Number(p.amount_cents));
    }
    const d = await dataset('RapportVentesPaiement', { language: 'en' });
    const labels: Record<string, string> = {
      CASH: 'Cash',
      CARD: 'Card',
      MEAL_VOUCHER: 'Meal voucher',
      CHEQUE: 'Cheque',
      OTHER: 'Other',
    };
    expect(new Map(d.rows.map((r) => [r.paymentMethod, r.amount]))).toEqual(
      new Map([...byMethod].map(([m, a]) => [labels[m] ?? m, a])),
    );
  });
});

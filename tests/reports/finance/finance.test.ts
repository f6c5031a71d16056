import { describe, expect, it } from 'vitest';
import { formatPercent, message } from '../../../src/server/i18n.ts';
import type { RawReportInput } from '../../../src/server/reports/request.ts';
import { localTime, tradingDayMinute } from '../../helpers/chain.ts';
import { setUpFixtureDatabase } from '../../helpers/db.ts';
import {
  byKeys,
  FX_SITES,
  type FxTicket,
  fxDataset,
  loadFixture,
  voidedValue,
} from '../operations/fixture.ts';

const fx = setUpFixtureDatabase(loadFixture);
const dataset = (className: string, overrides?: Partial<RawReportInput>) =>
  fxDataset(fx.database, className, overrides);

const siteName = (id: number) => FX_SITES.find((s) => s.id === id)!.libelle;
const selected = (t: FxTicket) => [1, 2].includes(t.siteId) && !t.trainingMode;
const METHODS = ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE', 'OTHER'];

/** Tickets of the selection grouped by fiscal date then site, in that order. */
function days(
  keep: (t: FxTicket) => boolean = selected,
): Array<{ fiscalDate: string; siteId: number; tickets: FxTicket[] }> {
  const map = new Map<string, { fiscalDate: string; siteId: number; tickets: FxTicket[] }>();
  for (const t of fx.tickets.filter(keep)) {
    const key = `${t.fiscalDate}|${t.siteId}`;
    const g = map.get(key) ?? { fiscalDate: t.fiscalDate, siteId: t.siteId, tickets: [] };
    g.tickets.push(t);
    map.set(key, g);
  }
  return [...map.values()].sort(
    byKeys(
      (g) => g.fiscalDate,
      (g) => g.siteId,
    ),
  );
}

describe('RapportFinance', () => {
  it('gives the amount of each payment method per day and site, summing to the net sales', async () => {
    const ds = await dataset('RapportFinance');
    const expected = days()
      .filter((g) => g.tickets.some((t) => t.payments.length > 0))
      .map((g) => {
        const row: Record<string, string | number> = {
          fiscalDate: g.fiscalDate,
          siteId: g.siteId,
          site: siteName(g.siteId),
        };
        for (const m of METHODS) row[`payment_${m}`] = 0;
        let total = 0;
        for (const t of g.tickets) {
          for (const p of t.payments) {
            row[`payment_${p.method}`] = Number(row[`payment_${p.method}`]) + p.amount;
            total += p.amount;
          }
        }
        row.totalPayments = total;
        row.paymentCount = g.tickets.reduce((s, t) => s + t.payments.length, 0);
        return row;
      });
    expect(ds.rows).toEqual(expected);
    const net = fx.tickets.filter(selected).reduce((s, t) => s + t.total, 0);
    expect(ds.totals.totalPayments).toBe(net);
    expect(ds.columns.find((c) => c.key === 'payment_MEAL_VOUCHER')?.label).toBe('Titre-restaurant');
  });
});

describe('RapportTva', () => {
  it('gives base, VAT and total per rate, day and site, adding up to the ticket totals', async () => {
    const ds = await dataset('RapportTva', { tpv: [1, 3] });
    const keep = (t: FxTicket) => selected(t) && [1, 3].includes(t.terminalId);
    const expected = days(keep).flatMap((g) => {
      const rates = new Map<number, { base: number; tax: number; total: number }>();
      for (const l of g.tickets.flatMap((t) => t.lines)) {
        const r = rates.get(l.vatRate) ?? { base: 0, tax: 0, total: 0 };
        r.base += l.excl;
        r.tax += l.tax;
        r.total += l.amount;
        rates.set(l.vatRate, r);
      }
      return [...rates.entries()]
        .sort(([a], [b]) => a - b)
        .map(([rate, r]) => ({
          fiscalDate: g.fiscalDate,
          siteId: g.siteId,
          site: siteName(g.siteId),
          vatRate: rate,
          vatBase: r.base,
          tax: r.tax,
          netSales: r.total,
        }));
    });
    expect(ds.rows).toEqual(expected);
    const kept = fx.tickets.filter(keep);
    expect(ds.totals).toMatchObject({
      vatBase: kept.reduce((s, t) => s + t.excl, 0),
      tax: kept.reduce((s, t) => s + t.tax, 0),
      netSales: kept.reduce((s, t) => s + t.total, 0),
    });
  });
});

describe('RapportZ', () => {
  it('closes each site and fiscal date with tickets, sales, VAT per rate, payments, cancellations, corrections, meals, covers and times', async () => {
    const ds = await dataset('RapportZ', { language: 'en', dateDebut: '2026-11-02', dateFin: '2026-11-03' });
    const expected = days(
      (t) => selected(t) && t.fiscalDate >= '2026-11-02' && t.fiscalDate <= '2026-11-03',
    ).flatMap((g) => {
      const base = { fiscalDate: g.fiscalDate, siteId: g.siteId, site: siteName(g.siteId) };
      const item = (
        code: string,
        count: number | null,
        amount: number | null,
        detail: string | null = null,
      ) => ({
        ...base,
        code,
        count,
        amount,
        detail,
      });
      const ts = g.tickets;
      const sales = ts.filter((t) => t.kind === 'SALE').length;
      const net = ts.reduce((s, t) => s + t.total, 0);
      const rates = new Map<number, number>();
      for (const l of ts.flatMap((t) => t.lines).filter((l) => !l.corrected)) {
        rates.set(l.vatRate, (rates.get(l.vatRate) ?? 0) + l.tax);
      }
      const pays = new Map<string, { n: number; amount: number }>();
      for (const p of ts.flatMap((t) => t.payments)) {
        const e = pays.get(p.method) ?? { n: 0, amount: 0 };
        e.n += 1;
        e.amount += p.amount;
        pays.set(p.method, e);
      }
      const voided = ts.flatMap((t) => t.lines).filter((l) => l.corrected);
      const cancelled = ts.filter((t) => t.kind === 'CANCELLATION');
      const meals = ts.filter((t) => t.employeeMeal);
      const ordered = [...ts].sort(byKeys(tradingDayMinute));
      return [
        item('TICKETS', sales, net),
        item(
          'NET_EXCL',
          null,
          ts.reduce((s, t) => s + t.excl, 0),
        ),
        ...[...rates.entries()]
          .sort(([a], [b]) => a - b)
          .map(([rate, tax]) => item(`VAT_${rate}`, null, tax)),
        item(
          'TAX',
          null,
          ts.reduce((s, t) => s + t.tax, 0),
        ),
        ...METHODS.filter((m) => pays.has(m)).map((m) =>
          item(`PAYMENT_${m}`, pays.get(m)!.n, pays.get(m)!.amount),
        ),
        item('CANCELLATIONS', cancelled.length, -cancelled.reduce((s, t) => s + t.total, 0)),
        item(
          'CORRECTIONS',
          voided.length,
          voided.reduce((s, l) => s + voidedValue(l), 0),
        ),
        item(
          'EMPLOYEE_MEALS',
          meals.length,
          meals.reduce((s, t) => s + t.total, 0),
        ),
        item(
          'COVERS',
          ts.reduce((s, t) => s + (t.covers ?? 0), 0),
          null,
        ),
        item('AVERAGE_TICKET', null, sales === 0 ? 0 : Math.round(net / sales)),
        item('FIRST_TICKET', null, null, localTime(ordered[0]!)),
        item('LAST_TICKET', null, null, localTime(ordered.at(-1)!)),
      ];
    });
    expect(ds.rows.map(({ item: _label, ...rest }) => rest)).toEqual(expected);
    const vat = ds.rows.find((r) => r.code === 'VAT_0.055');
    expect(vat?.item).toBe(message('en', 'report.z.VAT', { rate: formatPercent('en', 0.055) }));
    expect(ds.rows.find((r) => r.code === 'PAYMENT_CARD')?.item).toBe('Payments: Card');
    expect(ds.rows.some((r) => r.code === 'CORRECTIONS' && Number(r.count) > 0)).toBe(true);
    expect(ds.rows.some((r) => r.code === 'EMPLOYEE_MEALS' && Number(r.count) > 0)).toBe(true);
  });
});

describe('the finance reports and the sales analyses of VAT and payments', () => {
  const selections: Array<[string, Partial<RawReportInput>]> = [
    ['whole days (read from the per-day aggregates)', {}],
    ['terminals 1 and 3 (read from the tickets)', { tpv: [1, 3] }],
  ];
  for (const [label, overrides] of selections) {
    it(`give each VAT rate the same base, VAT and total on ${label}`, async () => {
      const byRate = await dataset('RapportVentesTva', overrides);
      const breakdown = await dataset('RapportTva', overrides);
      const summed = new Map<number, { netSalesExclTax: number; tax: number; netSales: number }>();
      for (const r of breakdown.rows) {
        const s = summed.get(Number(r.vatRate)) ?? { netSalesExclTax: 0, tax: 0, netSales: 0 };
        s.netSalesExclTax += Number(r.vatBase);
        s.tax += Number(r.tax);
        s.netSales += Number(r.netSales);
        summed.set(Number(r.vatRate), s);
      }
      expect(summed.size).toBe(3);
      expect(byRate.rows.map(({ share: _share, ...rest }) => rest)).toEqual(
        [...summed.entries()].sort(([a], [b]) => a - b).map(([vatRate, s]) => ({ vatRate, ...s })),
      );
    });

    it(`give each payment method the same amount and number of payments on ${label}`, async () => {
      const byMethod = await dataset('RapportVentesPaiement', overrides);
      const finance = await dataset('RapportFinance', overrides);
      const column = (m: string) => finance.rows.reduce((s, r) => s + Number(r[`payment_${m}`]), 0);
      expect(byMethod.rows.map((r) => [r.paymentMethod, r.amount])).toEqual(
        METHODS.filter((m) => finance.rows.some((r) => r[`payment_${m}`] !== 0)).map((m) => [
          message('fr', `report.paymentMethod.${m}`),
          column(m),
        ]),
      );
      expect(byMethod.totals.amount).toBe(finance.totals.totalPayments);
      expect(byMethod.totals.payments).toBe(finance.totals.paymentCount);
    });
  }
});

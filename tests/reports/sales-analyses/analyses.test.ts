import { describe, expect, it } from 'vitest';
import { DAY_PARTS, dayPartOfHour } from '../../../src/contract/day-parts.ts';
import type { Dataset } from '../../../src/contract/reports.ts';
import { REPORT_CLASSES } from '../../../src/server/reports/registry.ts';
import { SALES_ANALYSES, SALES_ANALYSIS_QUERIES } from '../../../src/server/reports/sales-analyses/index.ts';
import { type RawReportInput, resolveReport } from '../../../src/server/reports/request.ts';
import { runReport } from '../../../src/server/reports/run.ts';
import { setUpFixtureDatabase } from '../../helpers/db.ts';
import { input, loadChain, type Ticket } from './chain.ts';
import {
  byComparison,
  byCovers,
  byCumulativeComparison,
  byDayPart,
  byFamily,
  byHour,
  byPayment,
  bySeller,
  byTerminal,
  byVat,
  daysBefore,
  type Expected,
  selectTickets,
} from './expected.ts';

const fx = setUpFixtureDatabase(async (database) => ({ tickets: await loadChain(database) }));

async function dataset(className: string, overrides: Partial<RawReportInput> = {}): Promise<Dataset> {
  const report = await resolveReport(input(className, overrides), [1, 2, 3], fx.database, {
    now: new Date('2026-11-21T10:00:00Z'),
  });
  return runReport(report, fx.database);
}

/** Every class with its expected figures and the key of the column that sums to the sales total. */
const CLASSES: Array<{ className: string; expected: (ts: Ticket[]) => Expected; sumKey: string }> = [
  { className: 'RapportVentesHoraire', expected: byHour, sumKey: 'netSales' },
  { className: 'RapportVentesTranche', expected: byDayPart, sumKey: 'netSales' },
  { className: 'RapportVentesFamille', expected: byFamily, sumKey: 'netSales' },
  { className: 'RapportVentesCaisse', expected: byTerminal, sumKey: 'netSales' },
  { className: 'RapportVentesVendeur', expected: bySeller, sumKey: 'netSales' },
  { className: 'RapportVentesPaiement', expected: byPayment, sumKey: 'amount' },
  { className: 'RapportVentesTva', expected: byVat, sumKey: 'netSales' },
  { className: 'RapportVentesCouverts', expected: byCovers, sumKey: 'netSales' },
];

/** Requests exercising every ticket filter of bo/getReport. */
const REQUESTS: Array<[string, Partial<RawReportInput>]> = [
  ['the plain period', {}],
  ['an hour range', { trancheHoraire: true, heureDebut: '11:00', heureFin: '15:00' }],
  ['an hour range past midnight', { trancheHoraire: true, heureDebut: '22:00', heureFin: '02:00' }],
  [
    'terminals, sellers (a comma in a code) and training tickets',
    {
      tpv: [1, 4],
      vendeurs: ['S2', 'Dupont, Marie'],
      trainingMode: true,
    },
  ],
  [
    'explicit fiscal dates and one site',
    {
      datefiscales: ['2026-11-07', '2026-11-02'],
      dateDebut: undefined,
      dateFin: undefined,
      sites: [1],
    },
  ],
];

describe('sales analyses against figures computed from the chain rows', () => {
  for (const { className, expected } of CLASSES) {
    for (const [what, overrides] of REQUESTS) {
      it(`${className} gives the rows and totals of the tickets for ${what}, to the cent`, async () => {
        const d = await dataset(className, overrides);
        const want = expected(selectTickets(fx.tickets, input(className, overrides)));
        expect(want.rows.length).toBeGreaterThan(0);
        expect(d.rows).toEqual(want.rows);
        expect(d.totals).toEqual(want.totals);
        expect(d.columns.map((c) => c.key)).toEqual(Object.keys(want.totals));
      });
    }
  }

  it('RapportVentesComparaison compares each date with the same weekday 364 days earlier', async () => {
    for (const [, overrides] of REQUESTS) {
      const req = input('RapportVentesComparaison', overrides);
      const previousReq = {
        ...req,
        dateDebut: req.dateDebut && daysBefore(req.dateDebut, 364),
        dateFin: req.dateFin && daysBefore(req.dateFin, 364),
        datefiscales: req.datefiscales.map((x) => daysBefore(x, 364)),
      };
      const want = byComparison(selectTickets(fx.tickets, req), selectTickets(fx.tickets, previousReq));
      const d = await dataset('RapportVentesComparaison', overrides);
      expect(d.rows).toEqual(want.rows);
      expect(d.totals).toEqual(want.totals);
    }
    const d = await dataset('RapportVentesComparaison');
    expect(d.rows[0]).toMatchObject({ fiscalDate: '2026-11-01', previousFiscalDate: '2025-11-02' });
    // Same weekday (a Sunday both years).
    expect(new Date('2026-11-01T12:00:00Z').getUTCDay()).toBe(new Date('2025-11-02T12:00:00Z').getUTCDay());
    expect(d.totals.previousNetSales).not.toBe(0);
    expect(d.totals.variance).toBe((d.totals.netSales as number) - (d.totals.previousNetSales as number));
  });

  it('RapportVentesComparaison Cumulative runs totals of every site since the first date', async () => {
    for (const [, overrides] of REQUESTS) {
      const req = input('RapportVentesComparaison', overrides);
      const previousReq = {
        ...req,
        dateDebut: req.dateDebut && daysBefore(req.dateDebut, 364),
        dateFin: req.dateFin && daysBefore(req.dateFin, 364),
        datefiscales: req.datefiscales.map((x) => daysBefore(x, 364)),
      };
      const want = byCumulativeComparison(
        byComparison(selectTickets(fx.tickets, req), selectTickets(fx.tickets, previousReq)),
      );
      const d = await dataset('RapportVentesComparaison', { ...overrides, typeRapport: 'Cumulative' });
      expect(d.variant).toBe('Cumulative');
      expect(d.rows).toEqual(want.rows);
      expect(d.totals).toEqual(want.totals);
      expect(d.columns.map((c) => c.key)).toEqual(Object.keys(want.totals));
    }
    const daily = await dataset('RapportVentesComparaison');
    const cumulated = await dataset('RapportVentesComparaison', { typeRapport: 'Cumulative' });
    expect(cumulated.rows).toHaveLength(10);
    expect(cumulated.rows.at(-1)!.cumulativeNetSales).toBe(daily.totals.netSales);
    await expect(dataset('RapportVentesFamille', { typeRapport: 'Cumulative' })).rejects.toMatchObject({
      code: 'BadRequest',
    });
  });

  it('gives a comparison row to a date whose counterpart alone has tickets, this year reading 0', async () => {
    // 2026-11-11 has no ticket; 2025-11-12 neither; 2025-11-11 (counterpart of 2026-11-10) has.
    const d = await dataset('RapportVentesComparaison', { dateDebut: '2026-11-10', dateFin: '2026-11-11' });
    const sameAsLastYear = selectTickets(
      fx.tickets,
      input('x', { dateDebut: '2025-11-11', dateFin: '2025-11-11' }),
    );
    expect(d.rows).toEqual(
      byComparison(
        selectTickets(fx.tickets, input('x', { dateDebut: '2026-11-10', dateFin: '2026-11-10' })),
        sameAsLastYear,
      ).rows,
    );
    const onlyLastYear = await dataset('RapportVentesComparaison', {
      dateDebut: '2026-11-12',
      dateFin: '2026-11-12',
    });
    expect(onlyLastYear.rows).toEqual([]);
    const previousOnly = await dataset('RapportVentesComparaison', {
      dateDebut: '2026-10-31',
      dateFin: '2026-10-31',
    });
    // 2026-10-31's counterpart is 2025-11-01, which has tickets; 2026-10-31 has none.
    expect(previousOnly.rows).toHaveLength(2);
    for (const row of previousOnly.rows) {
      expect(row).toMatchObject({ tickets: 0, netSales: 0, previousFiscalDate: '2025-11-01' });
      expect(row.variance).toBe(-(row.previousNetSales as number));
      expect(row.variancePercent).toBe(-1);
    }
  });

  it('counts returns and cancellations negatively in every breakdown', async () => {
    const kept = selectTickets(fx.tickets, input('x'));
    const negatives = kept.filter((t) => t.kind !== 'SALE');
    expect(negatives.length).toBeGreaterThan(10);
    expect(negatives.every((t) => t.totalCents < 0)).toBe(true);
    const hourly = await dataset('RapportVentesHoraire');
    const grossSales = kept.filter((t) => t.kind === 'SALE').reduce((a, t) => a + t.totalCents, 0);
    expect(hourly.totals.netSales).toBe(grossSales + negatives.reduce((a, t) => a + t.totalCents, 0));
    expect(hourly.totals.netSales).toBeLessThan(grossSales);
    const covers = await dataset('RapportVentesCouverts');
    const cancelledCovers = negatives.reduce((a, t) => a + Math.min(0, t.covers ?? 0), 0);
    expect(cancelledCovers).toBeLessThan(0);
    expect(covers.totals.covers).toBe(kept.reduce((a, t) => a + (t.covers ?? 0), 0));
  });

  for (const [what, overrides] of REQUESTS) {
    it(`sums every breakdown to the sales report's total for ${what}`, async () => {
      const sales = await dataset('RapportVentes', overrides);
      expect(sales.totals.netSales).not.toBe(0);
      for (const { className, sumKey } of CLASSES) {
        const d = await dataset(className, overrides);
        const rowsSum = d.rows.reduce((a, r) => a + (r[sumKey] as number), 0);
        expect(rowsSum, className).toBe(sales.totals.netSales);
        expect(d.totals[sumKey], className).toBe(sales.totals.netSales);
      }
      const comparison = await dataset('RapportVentesComparaison', overrides);
      expect(comparison.totals.netSales).toBe(sales.totals.netSales);
      expect(comparison.totals.tickets).toBe(sales.totals.tickets);
    });
  }

  it('names columns, day parts and payment methods in the request language', async () => {
    const de = await dataset('RapportVentesTranche', { language: 'de' });
    expect(de.title).toBe('Umsatz nach Tageszeit');
    expect(de.rows.map((r) => r.dayPart)).toEqual([
      'Morgen',
      'Mittag',
      'Nachmittag',
      'Abendessen',
      'Abend',
      'Nacht',
      'Nachtspitze',
    ]);
    expect(de.columns.find((c) => c.key === 'share')).toEqual({
      key: 'share',
      label: 'Anteil',
      type: 'percent',
    });
    const en = await dataset('RapportVentesPaiement', { language: 'en' });
    expect(en.rows.map((r) => r.paymentMethod)).toEqual(['Cash', 'Card', 'Meal voucher', 'Cheque', 'Other']);
    const family = await dataset('RapportVentesFamille', { language: 'en' });
    expect(family.rows.map((r) => r.family)).toContain('Not set');
  });

  it('shows tickets of an unlisted terminal or without terminal or seller under "not set"', async () => {
    const d = await dataset('RapportVentesCaisse', { sites: [1] });
    expect(d.rows.map((r) => [r.terminalId, r.terminal])).toEqual([
      [1, 'Caisse 1'],
      [2, 'Caisse 2'],
      [3, 'Caisse 3'],
      [4, 'Non renseigné'],
      [null, 'Non renseigné'],
    ]);
    const s = await dataset('RapportVentesVendeur', { sites: [1] });
    expect(s.rows.map((r) => [r.sellerCode, r.seller])).toEqual([
      ['Dupont, Marie', 'Vendeur 3'],
      ['S1', 'Vendeur 1'],
      ['S2', 'Vendeur 2'],
      [null, 'Non renseigné'],
    ]);
  });

  it('reads hours in each site own clock (London one hour behind Paris)', async () => {
    const d = await dataset('RapportVentesHoraire', { sites: [3] });
    const london = selectTickets(fx.tickets, input('x', { sites: [3] }));
    expect(d.rows).toEqual(byHour(london).rows);
    expect(d.currency).toBe('GBP');
  });

  it('leaves corrected lines out of the family quantities, their amounts being zero', async () => {
    const corrected = selectTickets(fx.tickets, input('x')).flatMap((t) =>
      t.lines.filter((l) => l.corrected),
    );
    expect(corrected.length).toBeGreaterThan(0);
    const d = await dataset('RapportVentesFamille');
    const lines = selectTickets(fx.tickets, input('x')).flatMap((t) => t.lines);
    expect(d.totals.quantity).toBe(lines.reduce((a, l) => a + (l.corrected ? 0 : l.quantity), 0));
    expect(d.totals.quantity).not.toBe(lines.reduce((a, l) => a + l.quantity, 0));
  });

  it('refuses cancellation-only or correction-only operations instead of answering sales', async () => {
    await expect(dataset('RapportVentesFamille', { operation: 'ANNULATION' })).rejects.toMatchObject({
      kind: 'invalid',
      code: 'BadRequest',
    });
    const all = await dataset('RapportVentesFamille', { operation: 'TOUTES' });
    expect(all.rows).toEqual((await dataset('RapportVentesFamille')).rows);
  });
});

describe('sales analyses in the registry', () => {
  it('are registered with titles, file names, formats and maximum days', () => {
    const names = REPORT_CLASSES.map((c) => c.className);
    for (const name of [...CLASSES.map((c) => c.className), 'RapportVentesComparaison']) {
      expect(names).toContain(name);
      const cls = REPORT_CLASSES.find((c) => c.className === name)!;
      expect(cls.titleId).toBe(`report.${name}.title`);
      expect(cls.fileNameId).toBe(`report.${name}.filename`);
      expect([...cls.formats]).toEqual(['PDF', 'CSV', 'XLSX', 'JSON']);
      expect(cls.maxDays).toBe(400);
    }
  });

  it('have names no other class of the registry uses, and a bare SQL statement each', () => {
    const names = REPORT_CLASSES.map((c) => c.className);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(SALES_ANALYSIS_QUERIES).sort()).toEqual(SALES_ANALYSES.map((c) => c.className).sort());
  });

  it('run the very statement they publish for benchmarks', async () => {
    const report = await resolveReport(input('RapportVentesFamille'), [1, 2], fx.database);
    const { rows } = await fx.database.pool.query(
      SALES_ANALYSIS_QUERIES.RapportVentesFamille!(report.request),
    );
    const d = await runReport(report, fx.database);
    expect(rows.map((r) => Number(r.net_cents))).toEqual(d.rows.map((r) => r.netSales));
  });

  it('defines day parts that cover each hour of the day exactly once', () => {
    for (let h = 0; h < 24; h++) {
      expect(DAY_PARTS.filter((p) => h >= p.fromHour && h < p.toHour)).toHaveLength(1);
    }
    expect(dayPartOfHour(12)).toBe('LUNCH');
    expect(dayPartOfHour(1)).toBe('PEAK_NIGHT');
    expect(() => dayPartOfHour(24)).toThrow(RangeError);
  });

  it('answers MaxReportDays beyond 400 days', async () => {
    await expect(
      dataset('RapportVentesHoraire', { dateDebut: '2025-01-01', dateFin: '2026-02-05' }),
    ).rejects.toMatchObject({ code: 'MaxReportDays' });
  });
});

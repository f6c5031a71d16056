import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { type RawReportInput, resolveReport } from '../../src/server/reports/request.ts';
import { runReport } from '../../src/server/reports/run.ts';
import { salesReport, usesDailyAggregate } from '../../src/server/reports/sales.ts';
import { localMinute } from '../helpers/chain.ts';
import { setUpFixtureDatabase } from '../helpers/db.ts';
import { SALES_COLUMN_KEYS } from '../helpers/report-datasets.ts';
import {
  type ChainTicket,
  expectedSalesRows,
  expectedSalesTotals,
  FIRST_DATE,
  LAST_DATE,
  loadChain,
  salesInput,
} from './chain.ts';

const fx = setUpFixtureDatabase(async (database) => ({ tickets: await loadChain(database) }));

async function dataset(overrides: Partial<RawReportInput> = {}, scope = [1, 2, 3]): Promise<Dataset> {
  const report = await resolveReport(salesInput(overrides), scope, fx.database, {
    now: new Date('2026-11-21T10:00:00Z'),
  });
  return runReport(report, fx.database);
}

function inPeriod(t: ChainTicket, sites: number[], from = FIRST_DATE, to = LAST_DATE): boolean {
  return sites.includes(t.siteId) && t.fiscalDate >= from && t.fiscalDate <= to;
}

describe('sales report dataset (RapportVentes, Daily)', () => {
  it('gives one row per fiscal date and site with the figures of the tickets, to the cent', async () => {
    const d = await dataset();
    const expected = expectedSalesRows(fx.tickets.filter((t) => inPeriod(t, [1, 2]) && !t.trainingMode));
    expect(d.rows).toEqual(expected);
    expect(d.rows).toHaveLength(20);
    expect(d.totals).toEqual({
      fiscalDate: null,
      siteId: null,
      site: null,
      ...expectedSalesTotals(expected),
    });
  });

  it('names its columns in the request language, with money columns typed money', async () => {
    const fr = await dataset();
    expect(fr.columns.map((c) => c.key)).toEqual(SALES_COLUMN_KEYS);
    expect(fr.columns.find((c) => c.key === 'netSales')).toEqual({
      key: 'netSales',
      label: 'CA TTC',
      type: 'money',
    });
    expect(fr.title).toBe('Ventes');
    const de = await dataset({ language: 'de' });
    expect(de.title).toBe('Umsatz');
    expect(de.columns.find((c) => c.key === 'netSales')?.label).toBe('Umsatz brutto');
    expect(fr.currency).toBe('EUR');
    expect(fr.sites).toEqual([
      { restaurantId: 1, libelle: 'Paris Opéra' },
      { restaurantId: 2, libelle: 'Lyon Part-Dieu' },
    ]);
    expect(fr.generatedAt).toBe('2026-11-21T10:00:00.000Z');
  });

  it('counts returns and cancellations negatively in the amounts but not as tickets', async () => {
    const d = await dataset({ dateDebut: '2026-11-11', dateFin: '2026-11-11', sites: [2] });
    expect(d.rows).toEqual([
      {
        fiscalDate: '2026-11-11',
        siteId: 2,
        site: 'Lyon Part-Dieu',
        tickets: 0,
        netSales: -1999,
        netSalesExclTax: -1817,
        tax: -182,
        averageTicket: 0,
      },
    ]);
    const all = await dataset();
    const negatives = fx.tickets.filter((t) => inPeriod(t, [1, 2]) && !t.trainingMode && t.kind !== 'SALE');
    expect(negatives.length).toBeGreaterThan(10);
    const salesOnly = fx.tickets
      .filter((t) => inPeriod(t, [1, 2]) && !t.trainingMode && t.kind === 'SALE')
      .reduce((a, t) => a + t.totalCents, 0);
    expect(all.totals.netSales).toBe(salesOnly + negatives.reduce((a, t) => a + t.totalCents, 0));
    expect(all.totals.netSales).toBeLessThan(salesOnly);
  });

  it('reads daily_sales without filters and tickets with them, with identical figures', async () => {
    const plain = await resolveReport(salesInput(), [1, 2], fx.database);
    expect(usesDailyAggregate(plain.request)).toBe(true);
    // Every terminal, or the whole day as an hour range, selects every ticket through the tickets table.
    const allTerminals = await resolveReport(salesInput({ tpv: [1, 2, 3] }), [1, 2], fx.database);
    const wholeDay = await resolveReport(
      salesInput({ trancheHoraire: true, heureDebut: '00:00', heureFin: '00:00' }),
      [1, 2],
      fx.database,
    );
    const allSellers = await resolveReport(
      salesInput({ vendeurs: [...new Set(fx.tickets.map((t) => t.sellerCode))] }),
      [1, 2],
      fx.database,
    );
    for (const r of [allTerminals, wholeDay, allSellers]) expect(usesDailyAggregate(r.request)).toBe(false);
    const fromAggregate = await runReport(plain, fx.database);
    for (const r of [allTerminals, wholeDay, allSellers]) {
      const fromTickets = await runReport(r, fx.database);
      expect(fromTickets.rows).toEqual(fromAggregate.rows);
      expect(fromTickets.totals).toEqual(fromAggregate.totals);
    }
  });

  it('leaves training-mode tickets out unless trainingMode=true', async () => {
    const training = fx.tickets.filter((t) => inPeriod(t, [1, 2]) && t.trainingMode);
    expect(training.length).toBeGreaterThan(0);
    const without = await dataset();
    const withTraining = await dataset({ trainingMode: true });
    expect(withTraining.rows).toEqual(expectedSalesRows(fx.tickets.filter((t) => inPeriod(t, [1, 2]))));
    expect(withTraining.totals.netSales).toBe(
      (without.totals.netSales as number) + training.reduce((a, t) => a + t.totalCents, 0),
    );
  });

  it('keeps only tickets opened in the hour range, in site local time, end excluded', async () => {
    const d = await dataset(
      { trancheHoraire: true, heureDebut: '12:00', heureFin: '23:00', sites: [1, 2, 3], language: 'en' },
      [1, 2],
    ).catch((e: unknown) => e);
    // Sites 1 and 2 only: site 3 trades in GBP (tested with the errors).
    expect(d).toBeInstanceOf(Error);
    const ranged = await dataset({ trancheHoraire: true, heureDebut: '12:00', heureFin: '23:00' });
    const kept = fx.tickets.filter(
      (t) => inPeriod(t, [1, 2]) && !t.trainingMode && localMinute(t) >= 720 && localMinute(t) < 1380,
    );
    expect(ranged.rows).toEqual(expectedSalesRows(kept));
    // 11:59 and 23:00 are out, 12:00 is in.
    expect(kept.some((t) => localMinute(t) === 720)).toBe(true);
  });

  it('wraps an hour range that ends before it starts past midnight', async () => {
    const ranged = await dataset({ trancheHoraire: true, heureDebut: '22:00', heureFin: '02:00' });
    const kept = fx.tickets.filter(
      (t) => inPeriod(t, [1, 2]) && !t.trainingMode && (localMinute(t) >= 1320 || localMinute(t) < 120),
    );
    expect(kept.some((t) => t.localHour === 0)).toBe(true);
    expect(ranged.rows).toEqual(expectedSalesRows(kept));
  });

  it('filters by terminals and by sellers, a comma inside a seller code included', async () => {
    const byTerminal = await dataset({ tpv: [2] });
    expect(byTerminal.rows).toEqual(
      expectedSalesRows(
        fx.tickets.filter((t) => inPeriod(t, [1, 2]) && !t.trainingMode && t.terminalId === 2),
      ),
    );
    const bySeller = await dataset({ vendeurs: ['Dupont, Marie', 'S4'] });
    expect(bySeller.rows).toEqual(
      expectedSalesRows(
        fx.tickets.filter(
          (t) =>
            inPeriod(t, [1, 2]) &&
            !t.trainingMode &&
            (t.sellerCode === 'Dupont, Marie' || t.sellerCode === 'S4'),
        ),
      ),
    );
  });

  it('answers explicit fiscal dates (datefiscales[]) instead of a range', async () => {
    const d = await dataset({
      datefiscales: ['2026-11-07', '2026-11-02', '2026-11-07'],
      dateDebut: undefined,
      dateFin: undefined,
    });
    expect(d.dateDebut).toBe('2026-11-02');
    expect(d.dateFin).toBe('2026-11-07');
    expect(d.rows).toEqual(
      expectedSalesRows(
        fx.tickets.filter(
          (t) =>
            [1, 2].includes(t.siteId) &&
            !t.trainingMode &&
            ['2026-11-02', '2026-11-07'].includes(t.fiscalDate),
        ),
      ),
    );
  });

  it('uses every site of the scope when none is chosen', async () => {
    const d = await dataset({ sites: [] }, [2]);
    expect(d.sites).toEqual([{ restaurantId: 2, libelle: 'Lyon Part-Dieu' }]);
    expect(d.rows).toEqual(expectedSalesRows(fx.tickets.filter((t) => inPeriod(t, [2]) && !t.trainingMode)));
  });

  it('answers the GBP site in its own currency', async () => {
    const d = await dataset({ sites: [3] });
    expect(d.currency).toBe('GBP');
    expect(d.totals.netSales).toBe(
      expectedSalesTotals(expectedSalesRows(fx.tickets.filter((t) => inPeriod(t, [3]) && !t.trainingMode)))
        .netSales,
    );
  });

  it('declares a maximum of 400 days and the four formats', () => {
    expect(salesReport.maxDays).toBe(400);
    expect(salesReport.formats).toEqual(['PDF', 'CSV', 'XLSX', 'JSON']);
  });
});

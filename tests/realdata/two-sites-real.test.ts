/**
 * Two real sites in one report: the London takeaway restaurant 1 (whole file, price list) and
 * the sample of restaurant 2 (its first 1,998 lines, March–August 2019, prices in the file,
 * mapping docs/mappings/takeaway-restaurant-2-sample.json), both GBP. Over the months they share,
 * reports asked for both sites at once must give each site's own rows (by fiscal date, then
 * site) and breakdowns adding both up — to the penny against the two raw files (expected.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { importSalesFile } from '../../src/server/import/sales.ts';
import {
  assemble,
  byDate,
  comparison,
  covers,
  cumulative,
  dayParts,
  FILES,
  hourly,
  REPO,
  requireFiles,
  salesByDay,
  span,
  takeaway2Lines,
  takeawayLines,
  vatBreakdown,
  zItems,
} from './expected.ts';
import { EN, reportingApp } from './report-api.ts';
import { expectRows, type ProvenSet } from './families.ts';

let app: Awaited<ReturnType<typeof reportingApp>>;
let one: ProvenSet;
let two: ProvenSet;
let from: string;
let to: string;

beforeAll(async () => {
  requireFiles(FILES.takeaway, FILES.takeawayPrices, FILES.takeaway2);
  app = await reportingApp();
  const pool = app.t.database.pool;
  const a = await importSalesFile(pool, {
    file: FILES.takeaway,
    mapping: path.join(REPO, 'docs/mappings/takeaway-restaurant-1.json'),
    site: 'Takeaway London 1',
    company: 'London Takeaways',
  });
  const b = await importSalesFile(pool, {
    file: FILES.takeaway2,
    mapping: path.join(REPO, 'docs/mappings/takeaway-restaurant-2-sample.json'),
    site: 'Takeaway London 2',
    company: 'London Takeaways',
  });
  expect(b).toMatchObject({ linesRead: 1_998, ticketsInserted: 996 });
  one = {
    site: { id: a.siteId, name: 'Takeaway London 1' },
    currency: 'GBP',
    rate: 0.2,
    ...assemble(await takeawayLines(), { vatPercent: 20n }),
  };
  two = {
    site: { id: b.siteId, name: 'Takeaway London 2' },
    currency: 'GBP',
    rate: 0.2,
    ...assemble(await takeaway2Lines(), { vatPercent: 20n }),
  };
  ({ first: from, last: to } = span(two.tickets));
});
afterAll(async () => {
  await app?.t.close();
});

/** Rows of both sites, ordered by fiscal date then site (the reports' order). */
function merged<T extends { fiscalDate: string; siteId: number }>(a: T[], b: T[]): T[] {
  return [...a, ...b].sort((x, y) =>
    x.fiscalDate !== y.fiscalDate ? (x.fiscalDate < y.fiscalDate ? -1 : 1) : x.siteId - y.siteId,
  );
}

async function both(
  className: string,
  variant = 'Daily',
  period: [string, string] = [from, to],
): Promise<Dataset> {
  return app.report(className, variant, period[0], period[1], one.site.id, `&sites[]=${two.site.id}`);
}

describe('reports of two real sites at once (London takeaways 1 and 2)', () => {
  it("the sample of restaurant 2 spans March to August 2019, within restaurant 1's file", () => {
    expect([from.slice(0, 7), to.slice(0, 7)]).toEqual(['2019-03', '2019-08']);
    expect(span(one.tickets).last >= to).toBe(true);
  });

  it("sales by day (RapportVentes) give each site's row per fiscal date, and totals of both", async () => {
    const d = await both('RapportVentes');
    const rows = (s: ProvenSet) =>
      salesByDay(byDate(s.tickets), from, to).rows.map((r) => ({
        ...r,
        siteId: s.site.id,
        site: s.site.name,
      }));
    const want = merged(rows(one), rows(two));
    expectRows(d.rows, want, 'sales of both sites');
    const net = want.reduce((x, r) => x + r.netSales, 0);
    const tickets = want.reduce((x, r) => x + r.tickets, 0);
    expect(d.totals).toMatchObject({ tickets, netSales: net, averageTicket: Math.round(net / tickets) });
  });

  it('sales by hour and by day part add both sites up', async () => {
    const all = [...one.tickets, ...two.tickets];
    const hours = hourly(all, from, to);
    const h = await both('RapportVentesHoraire');
    expectRows(h.rows, hours.rows, 'hours of both sites');
    expect(h.totals).toEqual(hours.totals);
    const parts = dayParts(all, from, to);
    expectRows(
      (await both('RapportVentesTranche')).rows,
      parts.rows.map(({ key, ...r }) => ({ dayPart: EN[`report.dayPart.${key}`], ...r })),
      'day parts of both sites',
    );
  });

  it("covers, VAT breakdown and comparison give each site's rows; Cumulative adds both sites per date", async () => {
    const perSite = <T extends { fiscalDate: string; siteId: number }>(f: (s: ProvenSet) => T[]) =>
      merged(f(one), f(two));
    expectRows(
      (await both('RapportVentesCouverts')).rows,
      perSite((s) => covers(byDate(s.tickets), from, to, s.site).rows),
      'covers of both sites',
    );
    expectRows(
      (await both('RapportTva')).rows,
      perSite((s) => vatBreakdown(byDate(s.tickets), from, to, s.site, s.rate)),
      'VAT breakdown of both sites',
    );
    const cmp = perSite((s) => comparison(byDate(s.tickets), from, to, s.site).rows);
    expectRows((await both('RapportVentesComparaison')).rows, cmp, 'comparison of both sites');
    // Cumulative: one row per date, both sites' figures together.
    const days = new Map<
      string,
      { fiscalDate: string; previousFiscalDate: string; netSales: number; previousNetSales: number }
    >();
    for (const r of cmp) {
      const d = days.get(r.fiscalDate) ?? {
        fiscalDate: r.fiscalDate,
        previousFiscalDate: r.previousFiscalDate,
        netSales: 0,
        previousNetSales: 0,
      };
      d.netSales += r.netSales;
      d.previousNetSales += r.previousNetSales;
      days.set(r.fiscalDate, d);
    }
    const want = cumulative({ rows: [...days.values()] });
    const got = await both('RapportVentesComparaison', 'Cumulative');
    expectRows(got.rows, want.rows, 'cumulative of both sites');
    expect(got.totals).toEqual(want.totals);
  });

  it("the Z report of a month gives each site's Z per fiscal date", async () => {
    const month: [string, string] = ['2019-07-01', '2019-07-31'];
    const want = merged(
      zItems(byDate(one.tickets), ...month, one.site, 0.2),
      zItems(byDate(two.tickets), ...month, two.site, 0.2),
    );
    // merged() sorts stably: each site's items keep their order within a date.
    expectRows(
      (await both('RapportZ', 'Daily', month)).rows.map(({ item: _l, ...r }) => r),
      want,
      'Z of both sites',
    );
  });
});

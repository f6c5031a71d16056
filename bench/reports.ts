/**
 * Benchmark of the sales report (issue #2 point 9): the JSON dataset of RapportVentes (Daily)
 * for a year and every site, against the bare SQL the report runs, on whatever data the pool's
 * database holds (the bench runner loads the demo chain first). Both are timed in the same run,
 * interleaved, median of several runs after a warm-up, so the ratio does not depend on the
 * machine's speed.
 *
 * "Report" = what bo/getReport?format=JSON does past authentication: check the request and read
 * the sites (resolveReport), run the class query and build the dataset (runReport), serialise
 * it to the UTF-8 bytes the route sends (render/json.ts datasetJsonBytes). "Bare SQL" = the very
 * statement the report sends, through the same pool.
 */
import { subDays } from 'date-fns/subDays';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { parseWireDate, toWireDate } from '../src/contract/dates.ts';
import { SALES_REPORT } from '../src/contract/reports.ts';
import type { Database } from '../src/server/db/connect.ts';
import * as schema from '../src/server/db/schema.ts';
import { reportInput, resolveReport } from '../src/server/reports/request.ts';
import { datasetJsonBytes } from '../src/server/reports/render/json.ts';
import { runReport } from '../src/server/reports/run.ts';
import { salesQuery } from '../src/server/reports/sales.ts';

const RUNS = 21;
const WARM_UP = 3;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Times the sales report's JSON dataset for the 365 fiscal dates ending at the last date with
 * sales, for every site (of the most common currency: one report cannot mix currencies).
 * @returns milliseconds (medians) and `ratio = reportMs / bareSqlMs`.
 * @throws Error when the database holds no sales.
 */
export async function benchSalesReport(pool: pg.Pool): Promise<{
  name: string;
  reportMs: number;
  bareSqlMs: number;
  ratio: number;
  rows: number;
  sites: number;
}> {
  const database: Database = { pool, db: drizzle(pool, { schema }), close: async () => {} };
  const { rows: last } = await pool.query<{ d: string | null }>(
    'SELECT max(fiscal_date) AS d FROM daily_sales',
  );
  const lastDate = last[0]?.d;
  if (!lastDate) throw new Error('benchSalesReport: the database holds no sales (daily_sales is empty)');
  const { rows: siteRows } = await pool.query<{ id: number }>(
    `SELECT id FROM sites WHERE currency = (SELECT currency FROM sites GROUP BY currency ORDER BY count(*) DESC, currency LIMIT 1)
      ORDER BY id`,
  );
  const siteIds = siteRows.map((r) => r.id);
  const input = reportInput({
    rapportClassName: SALES_REPORT,
    format: 'JSON',
    language: 'fr',
    dateDebut: toWireDate(subDays(parseWireDate(lastDate)!, 364)),
    dateFin: lastDate,
    sites: siteIds,
  });

  const report = async () => {
    const resolved = await resolveReport(input, siteIds, database);
    const dataset = await runReport(resolved, database);
    return { json: datasetJsonBytes(dataset), rows: dataset.rows.length };
  };
  const bare = salesQuery((await resolveReport(input, siteIds, database)).request);

  const reportTimes: number[] = [];
  const sqlTimes: number[] = [];
  let rows = 0;
  const timed = async <T>(f: () => Promise<T>) => {
    const t0 = performance.now();
    const value = await f();
    return { ms: performance.now() - t0, value };
  };
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    // Alternate which goes first, so neither always meets a cold or a warm cache.
    const sqlFirst = i % 2 === 1;
    const sql = sqlFirst ? await timed(() => pool.query(bare)) : undefined;
    const rep = await timed(report);
    const sqlMs = (sql ?? (await timed(() => pool.query(bare)))).ms;
    rows = rep.value.rows;
    if (i >= WARM_UP) {
      reportTimes.push(rep.ms);
      sqlTimes.push(sqlMs);
    }
  }
  const reportMs = median(reportTimes);
  const bareSqlMs = median(sqlTimes);
  const result = {
    name: `sales report JSON, ${input.dateDebut}..${input.dateFin}, ${siteIds.length} sites`,
    reportMs: Math.round(reportMs * 100) / 100,
    bareSqlMs: Math.round(bareSqlMs * 100) / 100,
    ratio: Math.round((reportMs / bareSqlMs) * 100) / 100,
    rows,
    sites: siteIds.length,
  };
  console.log(
    `  ${result.name}: ${rows} rows, report ${result.reportMs} ms, bare SQL ${result.bareSqlMs} ms, ratio ${result.ratio}`,
  );
  return result;
}

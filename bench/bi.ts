/**
 * Benchmark of the KPI/BI area (issue #19: "≤ 100 ms for a year of the demo chain"): what GET
 * bo/bi/explore does past authentication (bi/explore.ts: check, read the sites, the two grouped
 * reads and the labels) for a year and every site of the demo chain, for one measure by each
 * aggregate family's dimensions and by two dimensions; GET bo/bi/totalKPI for the same year
 * (no forecast beyond 62 days); bo/bi/tracker for today, sales only. Median of several runs after
 * a warm-up, each against the 100 ms target (the bench's output, never a test's assertion).
 *
 * Run by `npm run bench` on its demo chain; `node bench/bi.ts` alone starts its own embedded
 * PostgreSQL and generates the demo chain first.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { subDays } from 'date-fns/subDays';
import pg from 'pg';
import type { BiDimension, BiMeasure } from '../src/contract/bi.ts';
import { parseWireDate, toWireDate } from '../src/contract/dates.ts';
import { explore } from '../src/server/bi/explore.ts';
import { keyFigures } from '../src/server/bi/key-figures.ts';
import { tracker } from '../src/server/bi/tracker.ts';

const RUNS = 15;
const WARM_UP = 3;
/** The target for a year of the demo chain, in milliseconds. */
const TARGET_MS = 100;

const CASES: ReadonlyArray<[BiMeasure, BiDimension[]]> = [
  ['NET', ['SITE']],
  ['AVERAGE_TICKET', ['GROUP']],
  ['TICKETS', ['WEEKDAY', 'SITE']],
  ['NET', ['HOUR']],
  ['COVERS', ['DAY_PART', 'COMPANY']],
  ['ITEMS', ['FAMILY']],
  ['NET', ['SELLER']],
  ['NET', ['TERMINAL', 'WEEKDAY']],
  ['NET', ['PAYMENT']],
  ['NET', ['VAT', 'SITE']],
  ['DISCOUNTS', ['SITE']],
  ['DISCOUNTS', ['SELLER']],
  ['DISCOUNTS', ['FAMILY', 'WEEKDAY']],
];

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    const t0 = performance.now();
    await f();
    if (i >= WARM_UP) times.push(performance.now() - t0);
  }
  return Math.round(median(times) * 100) / 100;
}

/** One result line: the call, its median, and whether it holds the target. */
export interface BiBenchResult {
  name: string;
  ms: number;
  targetMs: number;
  withinTarget: boolean;
}

/**
 * Times the BI calls on the pool's database for the 365 fiscal dates ending at the last date with
 * sales, every site of the most common currency.
 * @throws Error when the database holds no sales.
 */
export async function benchBi(pool: pg.Pool): Promise<BiBenchResult[]> {
  const { rows: last } = await pool.query<{ d: string | null }>(
    'SELECT max(fiscal_date)::text AS d FROM daily_sales',
  );
  const dateFin = last[0]?.d;
  if (!dateFin) throw new Error('benchBi: the database holds no sales (daily_sales is empty)');
  const dateDebut = toWireDate(subDays(parseWireDate(dateFin)!, 364));
  const { rows: siteRows } = await pool.query<{ id: number }>(
    `SELECT id FROM sites WHERE currency = (SELECT currency FROM sites GROUP BY currency ORDER BY count(*) DESC, currency LIMIT 1)
      ORDER BY id`,
  );
  const scope = siteRows.map((r) => r.id);
  const results: BiBenchResult[] = [];
  const record = (name: string, ms: number) => {
    const r = { name, ms, targetMs: TARGET_MS, withinTarget: ms <= TARGET_MS };
    console.log(`  ${name}: ${ms} ms (target ${TARGET_MS} ms)`);
    results.push(r);
  };
  for (const [measure, [dimension1, dimension2]] of CASES) {
    const ms = await timed(() =>
      explore(pool, {
        sites: [],
        scope,
        dateDebut,
        dateFin,
        measure,
        dimension1,
        dimension2,
        comparison: 'YEAR',
        language: 'fr',
      }),
    );
    record(
      `bi explore ${measure} by ${[dimension1, dimension2].filter(Boolean).join('×')}, ${dateDebut}..${dateFin}, ${scope.length} sites`,
      ms,
    );
  }
  record(
    `bi totalKPI ${dateDebut}..${dateFin}, ${scope.length} sites`,
    await timed(() => keyFigures(pool, { sites: [], scope, dateDebut, dateFin })),
  );
  // The forecast's own cost (a model fitted per site, then kept by the server's cache until a load
  // or an event change) is measured by the forecast's bench: here the tracker reads the sales only.
  const noForecast = async () => null;
  record(
    `bi tracker today (sales only), ${scope.length} sites`,
    await timed(() => tracker(pool, { sites: [], scope, forecast: noForecast })),
  );
  return results;
}

/** Standalone: its own PostgreSQL and demo chain. */
async function main(): Promise<void> {
  const { migrateDatabase } = await import('../src/server/db/connect.ts');
  const { startEmbeddedPostgres } = await import('../src/server/db/embedded.ts');
  const { generateDemoChain } = await import('../src/server/demo/generate.ts');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-bi-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(dir);
  try {
    const pool = new pg.Pool({ ...server.connection, max: 4 });
    pool.on('error', () => {});
    await migrateDatabase(pool);
    const demo = await generateDemoChain(pool, { seed: 20261122, now: new Date() });
    console.log(`demo chain: ${demo.sites} sites, ${demo.tickets} tickets`);
    await pool.query('VACUUM (ANALYZE)');
    console.log('• KPI/BI calls for a year of the demo chain');
    await benchBi(pool);
    await pool.end();
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();

/**
 * What a Citus cluster costs on one machine (issue #33, decision records 0042 and 0046): a
 * year's sales report (RapportVentes Daily, every EUR site) and a month's tickets (RapportTickets,
 * every site, 30 fiscal days) on the demo chain, timed on a coordinator with two workers against
 * plain PostgreSQL — the coordinator's own server (Debian's PostgreSQL 15, same settings) with a
 * database that has no `citus` extension, holding the same demo chain (same seed, same clock).
 * Interleaved runs after a warm-up; median, fastest and slowest of each, and the ratio of the
 * medians (cluster / plain: on one machine the cluster cannot be faster, the point is what it
 * costs). Then EXPLAIN of the statements the sales report sends for one site, on the cluster:
 * each is planned as one task on one shard (the site filter reaches the worker).
 *
 * Optional step of `npm run bench`: runs when `COMPTOIR_BENCH_CITUS_URL` names a running
 * coordinator (its `postgres` database, nodes registered, as scripts/citus.sh prints it), or
 * when Citus is installed and the bench runs as root (it then starts a cluster with
 * scripts/citus.sh on `CITUS_PORT`, default 15433, and stops it); skipped otherwise. Alone:
 * `node bench/citus.ts`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { subDays } from 'date-fns/subDays';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { parseWireDate, toWireDate } from '../src/contract/dates.ts';
import { type Database, migrateDatabase } from '../src/server/db/connect.ts';
import * as schema from '../src/server/db/schema.ts';
import { generateDemoChain } from '../src/server/demo/generate.ts';
import { datasetJsonBytes } from '../src/server/reports/render/json.ts';
import { reportInput, resolveReport } from '../src/server/reports/request.ts';
import { runReport } from '../src/server/reports/run.ts';
import { createCitusDatabase, dropCitusDatabase } from '../tests/helpers/citus.ts';

const root = path.join(import.meta.dirname, '..');
const RUNS = 9;
const WARM_UP = 2;

/** Median, fastest and slowest of a series of timings (ms). */
interface Spread {
  medianMs: number;
  minMs: number;
  maxMs: number;
}

/** One report timed on the cluster and on plain PostgreSQL. */
export interface CitusReportResult {
  name: string;
  cluster: Spread;
  plain: Spread;
  /** cluster median / plain median. */
  ratio: number;
  rows: number;
  runs: number;
}

/** The one-site plans: per statement of the report that reads sales, its task count and shards. */
export interface CitusPlanResult {
  name: 'citus: one-site sales report plans';
  statements: { taskCount: number; shards: string[] }[];
  /** The first plan's text, as EXPLAIN printed it. */
  plan: string[];
}

function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return {
    medianMs: s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2,
    minMs: s[0]!,
    maxMs: s[s.length - 1]!,
  };
}

function database(pool: pg.Pool): Database {
  return { pool, db: drizzle(pool, { schema }), close: async () => {} };
}

/** Where the cluster is, and how to stop it when this bench started it; null to skip. */
function findCluster(): { url: string; stop: () => void } | null {
  const given = process.env.COMPTOIR_BENCH_CITUS_URL;
  if (given) return { url: given, stop: () => {} };
  let installed = false;
  try {
    const lib = execFileSync('/usr/lib/postgresql/15/bin/pg_config', ['--pkglibdir'], { encoding: 'utf8' });
    installed = fs.existsSync(path.join(lib.trim(), 'citus.so'));
  } catch {
    installed = false;
  }
  if (!installed || process.getuid?.() !== 0) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpt-bench-citus-'));
  const script = path.join(root, 'scripts', 'citus.sh');
  const out = execFileSync('bash', [script, 'start', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return {
    url: out.trim().split('\n').pop()!,
    stop: () => {
      execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Runs the bench (see the module comment).
 * @returns the two reports' timings and the one-site plans; [] when skipped (no cluster).
 * @throws the database's error when a step fails (the databases are dropped, the cluster stopped).
 */
export async function benchCitus(): Promise<(CitusReportResult | CitusPlanResult)[]> {
  const cluster = findCluster();
  if (!cluster) {
    console.log('  (skipped: Citus is not installed, or not root; or set COMPTOIR_BENCH_CITUS_URL)');
    return [];
  }
  const admin: pg.PoolConfig = { connectionString: cluster.url };
  const results: (CitusReportResult | CitusPlanResult)[] = [];
  let citusPool: pg.Pool | null = null;
  let plainPool: pg.Pool | null = null;
  try {
    const t0 = performance.now();
    await createCitusDatabase(admin, 'bench_citus', withDatabase(cluster.url, 'bench_citus'));
    const c = new pg.Client(admin);
    await c.connect();
    await c.query('DROP DATABASE IF EXISTS bench_plain');
    await c.query('CREATE DATABASE bench_plain TEMPLATE template1');
    await c.end();
    citusPool = new pg.Pool({ connectionString: withDatabase(cluster.url, 'bench_citus'), max: 4 });
    plainPool = new pg.Pool({ connectionString: withDatabase(cluster.url, 'bench_plain'), max: 4 });
    citusPool.on('error', () => {});
    plainPool.on('error', () => {});
    await migrateDatabase(plainPool);
    const now = new Date();
    const demo = await generateDemoChain(citusPool, { seed: 20261122, now });
    const tCluster = performance.now();
    await generateDemoChain(plainPool, { seed: 20261122, now });
    const tPlain = performance.now();
    console.log(
      `  demo chain (${demo.tickets} tickets, ${demo.lines} lines): cluster ${((tCluster - t0) / 1000).toFixed(1)} s ` +
        `(database created and distributed included), plain ${((tPlain - tCluster) / 1000).toFixed(1)} s`,
    );
    const onCluster = database(citusPool);
    const onPlain = database(plainPool);
    const { rows: last } = await plainPool.query<{ d: string }>(
      'SELECT max(fiscal_date)::text AS d FROM tickets',
    );
    const lastDate = last[0]!.d;
    const { rows: siteRows } = await plainPool.query<{ id: number; currency: string }>(
      'SELECT id, currency FROM sites ORDER BY id',
    );
    const allSites = siteRows.map((r) => r.id);
    const eurSites = siteRows.filter((r) => r.currency === 'EUR').map((r) => r.id);
    const back = (days: number) => toWireDate(subDays(parseWireDate(lastDate)!, days - 1));
    const reports = [
      {
        name: "citus: a year's sales report (RapportVentes Daily, JSON), cluster vs plain",
        input: reportInput({
          rapportClassName: 'RapportVentes',
          format: 'JSON',
          language: 'fr',
          dateDebut: back(365),
          dateFin: lastDate,
          sites: eurSites,
        }),
        sites: eurSites,
      },
      {
        name: "citus: a month's tickets (RapportTickets, JSON), cluster vs plain",
        input: reportInput({
          rapportClassName: 'RapportTickets',
          format: 'JSON',
          language: 'fr',
          dateDebut: back(30),
          dateFin: lastDate,
          sites: allSites,
        }),
        sites: allSites,
      },
    ];
    for (const r of reports) {
      const run = async (db: Database) => {
        const t = performance.now();
        const dataset = await runReport(await resolveReport(r.input, r.sites, db), db);
        datasetJsonBytes(dataset);
        return { ms: performance.now() - t, rows: dataset.rows.length };
      };
      const times = { cluster: [] as number[], plain: [] as number[] };
      let rows = 0;
      for (let i = 0; i < WARM_UP + RUNS; i++) {
        const a = await run(onCluster);
        const b = await run(onPlain);
        if (a.rows !== b.rows)
          throw new Error(`${r.name}: ${a.rows} rows on the cluster, ${b.rows} on plain`);
        rows = a.rows;
        if (i < WARM_UP) continue;
        times.cluster.push(a.ms);
        times.plain.push(b.ms);
      }
      const result: CitusReportResult = {
        name: r.name,
        cluster: spread(times.cluster),
        plain: spread(times.plain),
        ratio: 0,
        rows,
        runs: RUNS,
      };
      result.ratio = result.cluster.medianMs / result.plain.medianMs;
      const f = (s: Spread) => `${s.medianMs.toFixed(1)} ms (${s.minMs.toFixed(1)}–${s.maxMs.toFixed(1)})`;
      console.log(
        `  ${r.name}: cluster ${f(result.cluster)}, plain ${f(result.plain)}, ratio ${result.ratio.toFixed(2)} (${rows} rows, ${RUNS} runs)`,
      );
      results.push(result);
    }
    results.push(await oneSitePlans(citusPool, onCluster, eurSites[0]!, back(365), lastDate));
  } finally {
    await citusPool?.end();
    await plainPool?.end();
    try {
      await dropCitusDatabase(admin, 'bench_citus');
      const c = new pg.Client(admin);
      await c.connect();
      await c.query('DROP DATABASE IF EXISTS bench_plain WITH (FORCE)');
      await c.end();
    } finally {
      cluster.stop();
    }
  }
  return results;
}

/**
 * Captures the statements the sales report sends for site `siteId` over a year (pool.query
 * instrumented: each still goes to PostgreSQL) and EXPLAINs, with their parameters, those that
 * read sales tables: Citus names the tasks and the shards each is planned on.
 */
async function oneSitePlans(
  pool: pg.Pool,
  db: Database,
  siteId: number,
  from: string,
  to: string,
): Promise<CitusPlanResult> {
  const input = reportInput({
    rapportClassName: 'RapportVentes',
    format: 'JSON',
    language: 'fr',
    dateDebut: from,
    dateFin: to,
    sites: [siteId],
  });
  const seen: { text: string; values: unknown[] }[] = [];
  const original = pool.query;
  pool.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text: string; values?: unknown[] };
    const text = typeof first === 'string' ? first : first.text;
    const values = (typeof first === 'string' ? args[1] : first.values) as unknown[] | undefined;
    seen.push({ text, values: values ?? [] });
    return (original as (...a: unknown[]) => unknown).apply(pool, args);
  }) as typeof pool.query;
  try {
    await runReport(await resolveReport(input, [siteId], db), db);
  } finally {
    pool.query = original;
  }
  const statements: CitusPlanResult['statements'] = [];
  let plan: string[] = [];
  for (const s of seen.filter((x) => /\b(daily_\w+|tickets|ticket_lines)\b/.test(x.text))) {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.text}`, s.values);
    const lines = rows.map((r) => r['QUERY PLAN']);
    const count = lines.map((l) => /Task Count: (\d+)/.exec(l)?.[1]).find((n) => n !== undefined);
    const shards = [
      ...new Set(lines.flatMap((l) => [...l.matchAll(/\bon (\w+_\d{6,})\b/g)].map((m) => m[1]!))),
    ];
    statements.push({ taskCount: Number(count ?? Number.NaN), shards });
    if (plan.length === 0) plan = lines;
  }
  console.log(
    `  one-site sales report (site ${siteId}, a year): ${statements.length} statement(s) on sales tables, ` +
      `tasks ${statements.map((s) => s.taskCount).join(', ')}, shards ${statements.map((s) => s.shards.join('+')).join(', ')}`,
  );
  for (const line of plan) console.log(`    ${line}`);
  return { name: 'citus: one-site sales report plans', statements, plan };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(
    "• Citus (issue #33): a year's sales and a month's tickets on the demo chain, cluster vs plain",
  );
  const results = await benchCitus();
  for (const r of results) console.log(JSON.stringify(r));
}

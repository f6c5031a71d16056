/**
 * `npm run bench`: the benchmarks of issue #2, each reported as a ratio against a baseline
 * measured in the same run (never as a timed assertion):
 * - import of the UCI file: lines per second, and the ratio to a bare COPY of the same rows (median
 *   of three imports, each against its own COPY);
 * - the sales report's JSON dataset on the demo chain against its bare SQL;
 * - the login route's initial JavaScript (gzip) against the 150 kB budget;
 * - (issue #4) every report family's JSON dataset and HTTP answer against its bare SQL, and (with
 *   COMPTOIR_BENCH_10M=1) sales by day of a year on a 10 M-line chain against the 1 M-line one;
 * - (issue #3) the outbox replay of 1,000 queued writes against the same writes sent online one by one;
 * - (issue #17) the real server under load, then idle: throughput, p95/p99, errors, RSS (bench/load.ts);
 * - (issue #31) the forecast on the last 3 rolling origins of each real data set (bench/forecast-backtest.ts);
 * - (issue #28) 1,000 report subscriptions due at once through the job queue and the `.eml` outbox
 *   against the same runs in a loop, with the RSS and a month report's HTTP p95 meanwhile;
 * - (issue #33, optional) a year's sales and a month's tickets on a Citus cluster against plain
 *   PostgreSQL, and the one-site plans (bench/citus.ts).
 * Starts its own embedded PostgreSQL in a temporary folder; results also go to bench/results/.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { migrateDatabase } from '../src/server/db/connect.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { generateDemoChain } from '../src/server/demo/generate.ts';
import { benchBi } from './bi.ts';
import { benchBundle } from './bundle.ts';
import { benchCitus } from './citus.ts';
import { benchCsv } from './csv.ts';
import { benchDatabase } from './database.ts';
import { benchForecast } from './forecast.ts';
import { benchForecastBacktest } from './forecast-backtest.ts';
import { benchHomeWarm } from './home.ts';
import { benchImportRuns } from './import.ts';
import { benchLoad } from './load.ts';
import { benchOutboxReplay } from './outbox.ts';
import { benchPdf } from './pdf.ts';
import { benchReportFamilies, benchSalesByDayVolume } from './report-families.ts';
import { benchSalesReport } from './reports.ts';
import { benchSubscriptions } from './subscriptions.ts';

const root = path.join(import.meta.dirname, '..');
/** Imports of the UCI file timed (each against its own bare COPY); the median ratio is reported. */
const IMPORT_RUNS = 3;

async function freshDatabase(admin: pg.PoolConfig, name: string): Promise<pg.Pool> {
  const c = new pg.Client(admin);
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name}`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const pool = new pg.Pool({ ...admin, database: name, max: 4 });
  // When a step fails, the server stops with idle clients connected: their 57P01 must not hide
  // the step's own error as an unhandled 'error' event.
  pool.on('error', () => {});
  await migrateDatabase(pool);
  return pool;
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-'));
await fs.chmod(dir, 0o755);
const server = await startEmbeddedPostgres(dir);
const results: object[] = [];
try {
  console.log(`• import of the UCI Online Retail file vs a bare COPY of the same rows (${IMPORT_RUNS} runs)`);
  results.push(await benchImportRuns(() => freshDatabase(server.connection, 'bench_import'), IMPORT_RUNS));

  console.log('• sales report (JSON) on the demo chain vs its bare SQL');
  const demoPool = await freshDatabase(server.connection, 'bench_demo');
  const t0 = performance.now();
  const demo = await generateDemoChain(demoPool, { seed: 20261122, now: new Date() });
  console.log(
    `  demo chain: ${demo.sites} sites, ${demo.tickets} tickets, ${demo.lines} lines in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // The reports are timed on a settled database, as a chain's is between imports: without this,
  // autovacuum takes up the freshly written ticket lines (seen ~9 s after the generation, for a
  // few seconds) while the first families are being timed. ~0.6 s for the demo chain.
  const tSettle = performance.now();
  await demoPool.query('VACUUM (ANALYZE)');
  await demoPool.query('CHECKPOINT');
  console.log(`  VACUUM (ANALYZE) and CHECKPOINT in ${((performance.now() - tSettle) / 1000).toFixed(1)} s`);
  results.push(await benchSalesReport(demoPool));
  // Issue #4 point 8: every report family, and sales by day on 10× the lines (opt-in: the
  // 10 M-line chain takes minutes to generate and a few GB of disk).
  console.log('• every report family (JSON dataset and HTTP answer) on the demo chain vs its bare SQL');
  results.push(...(await benchReportFamilies(demoPool)));
  console.log(
    '• KPI/BI calls (explore, totalKPI, tracker) for a year of the demo chain vs the 100 ms target',
  );
  results.push(...(await benchBi(demoPool)));
  if (process.env.COMPTOIR_BENCH_10M === '1') {
    console.log('• sales by day of a year on a 10× chain (~10,000,000 lines) vs the demo chain');
    const bigPool = await freshDatabase(server.connection, 'bench_demo_10m');
    const t1 = performance.now();
    const big = await generateDemoChain(bigPool, { seed: 20261122, now: new Date(), ticketsScale: 10 });
    console.log(
      `  10× chain: ${big.tickets} tickets, ${big.lines} lines in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
    );
    results.push(
      await benchSalesByDayVolume({ pool: demoPool, lines: demo.lines }, { pool: bigPool, lines: big.lines }),
    );
    await bigPool.end();
  } else console.log('  (sales by day on a 10,000,000-line chain skipped: set COMPTOIR_BENCH_10M=1)');
  results.push(await benchForecast(demoPool, () => freshDatabase(server.connection, 'bench_london')));
  // Issue #31: the short form of `npm run bench:forecast` (the last 3 origins of each real data set).
  console.log('• sales forecast on rolling origins of the three real data sets (short form: last 3 origins)');
  results.push(
    await benchForecastBacktest((key) => freshDatabase(server.connection, `bench_backtest_${key}`), 3),
  );
  console.log('• home widgets (issue #19) on the demo chain, forecast models warm, vs the 50 ms target');
  for (const r of await benchHomeWarm(demoPool)) {
    console.log(`  ${r.name}: median ${r.medianMs.toFixed(2)} ms, p95 ${r.p95Ms.toFixed(2)} ms`);
    results.push(r);
  }
  console.log(
    '• report subscriptions (issue #28): 1,000 due at once through the queue vs the same in a loop',
  );
  results.push(await benchSubscriptions(demoPool));
  console.log('• database backup and restore (issue #30) of the demo chain vs pg_dump / pg_restore by hand');
  results.push(await benchDatabase(demoPool));
  await demoPool.end();

  console.log('• outbox replay of 1,000 queued writes vs the same writes online one by one');
  results.push(await benchOutboxReplay());

  console.log(
    "• load (issue #17): the real server, 50 clients on a year's JSON, 50 on a month's, 20 on its PDF, idle",
  );
  results.push(await benchLoad());

  // Issue #4 point 8 (PDF): our renderer against headless Chromium printing the same table.
  console.log('• PDF pages per second: our renderer vs headless Chromium printing the same table as HTML');
  results.push(await benchPdf());

  // Issue #4 point 8 (CSV): 1,000,000 lines streamed, peak memory of the app process vs 100,000.
  console.log('• CSV of 1,000,000 lines streamed through bo/getReport: peak memory vs 100,000 lines');
  results.push(await benchCsv(server.connection));

  // Issue #33 (optional: a Citus cluster, started here when Citus is installed, or COMPTOIR_BENCH_CITUS_URL).
  console.log("• Citus: a year's sales and a month's tickets on the demo chain, cluster vs plain PostgreSQL");
  results.push(...(await benchCitus()));

  console.log('• initial JavaScript of the login route');
  const dist = path.join(root, 'dist');
  const built = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('vite build failed');
  results.push(await benchBundle(dist));
  results.push(await (await import('./cold-start.ts')).benchColdStart()); // offline cold start of /home (issue #19)
} finally {
  await server.stop();
  await fs.rm(dir, { recursive: true, force: true });
}

console.log('\nResults');
for (const r of results) console.log(JSON.stringify(r));
await fs.mkdir(path.join(root, 'bench', 'results'), { recursive: true });
await fs.writeFile(
  path.join(root, 'bench', 'results', 'latest.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);

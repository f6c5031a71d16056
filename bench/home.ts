/**
 * Benchmark of the home dashboard's widgets (issue #19: "every widget answers in ≤ 50 ms on the
 * demo chain, from the aggregates"): each widget's domain function (what GET bo/home/{widget}
 * does past authentication, src/server/home/) for every site of the demo chain on its last date
 * with sales, by a user holding every right; median and 95th percentile of 41 runs after a
 * warm-up, and the JSON size of the answer. The forecast's fitted models are cached as the
 * server caches them (forecast/forecast.ts installForecastCache on the change feed, fitted by
 * warmForecasts as the server's warmer does); the first, cold call of `previsions` (every site
 * fitted) is reported apart.
 *
 * Run alone: `npx node bench/home.ts` (starts its own embedded PostgreSQL in a temporary folder).
 * `benchHome(pool)` can be called by bench/run.ts on its demo database.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { RIGHTS } from '../src/contract/rights.ts';
import { HOME_WIDGETS, type HomeWidget } from '../src/contract/home.ts';
import { ChangeFeed } from '../src/server/db/changes.ts';
import { installForecastCache, warmForecasts } from '../src/server/forecast/forecast.ts';
import { homeEvents } from '../src/server/home/home-events.ts';
import { homeForecast } from '../src/server/home/home-forecast.ts';
import { homeSafe } from '../src/server/home/home-safe.ts';
import { homeSales } from '../src/server/home/home-sales.ts';
import type { HomeRequest } from '../src/server/home/widget-context.ts';

const RUNS = 41;
const WARM_UP = 5;
/** The budget per widget, in milliseconds. */
export const HOME_WIDGET_BUDGET_MS = 50;

const WIDGETS: Record<HomeWidget, (db: pg.Pool, r: HomeRequest) => Promise<unknown>> = {
  ventes: homeSales,
  coffre: homeSafe,
  previsions: homeForecast,
  evenements: homeEvents,
};

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/**
 * {@link benchHome} with the forecast models fitted first (as the server's background warmer does
 * after start), on a change feed of its own: what `npm run bench` reports.
 */
export async function benchHomeWarm(pool: pg.Pool) {
  const feed = new ChangeFeed(pool.options, () => {});
  await feed.start();
  try {
    installForecastCache(pool, feed);
    await warmForecasts(pool);
    return await benchHome(pool);
  } finally {
    await feed.close();
  }
}

/** One line per widget: median and p95 in ms, answer bytes, within the budget or not. */
export async function benchHome(pool: pg.Pool) {
  const { rows } = await pool.query<{ d: string | null }>('SELECT max(fiscal_date) AS d FROM daily_sales');
  const fiscalDate = rows[0]?.d;
  if (!fiscalDate) throw new Error('benchHome: the database holds no sales');
  const { rows: sites } = await pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id');
  const request: HomeRequest = {
    siteIds: [],
    scope: sites.map((s) => s.id),
    rights: [...RIGHTS],
    fiscalDate,
    userCurrency: 'EUR',
  };
  const out = [];
  for (const widget of HOME_WIDGETS) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const t0 = performance.now();
      const answer = await WIDGETS[widget](pool, request);
      const ms = performance.now() - t0;
      if (i >= WARM_UP) times.push(ms);
      bytes = JSON.stringify(answer).length;
    }
    const medianMs = quantile(times, 0.5);
    const p95Ms = quantile(times, 0.95);
    out.push({
      name: `home widget ${widget}`,
      sites: sites.length,
      fiscalDate,
      medianMs,
      p95Ms,
      bytes,
      withinBudget: p95Ms <= HOME_WIDGET_BUDGET_MS,
    });
  }
  return out;
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  const { migrateDatabase } = await import('../src/server/db/connect.ts');
  const { startEmbeddedPostgres } = await import('../src/server/db/embedded.ts');
  const { generateDemoChain } = await import('../src/server/demo/generate.ts');
  const pgModule = (await import('pg')).default;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-home-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(dir);
  try {
    const pool = new pgModule.Pool({ ...server.connection, max: 4 });
    pool.on('error', () => {});
    await migrateDatabase(pool);
    const t0 = performance.now();
    const demo = await generateDemoChain(pool, { seed: 20261122, now: new Date() });
    console.log(
      `demo chain: ${demo.sites} sites, ${demo.tickets} tickets in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const feed = new ChangeFeed(pool.options, () => {});
    await feed.start();
    installForecastCache(pool, feed);
    const cold = performance.now();
    await warmForecasts(pool);
    console.log(
      `forecast models of every site fitted (cold, once a day or after a change): ${(performance.now() - cold).toFixed(0)} ms`,
    );
    for (const r of await benchHome(pool)) {
      console.log(
        `${r.name}: median ${r.medianMs.toFixed(2)} ms, p95 ${r.p95Ms.toFixed(2)} ms, ${r.bytes} bytes, ${r.sites} sites, ${r.fiscalDate} — ${r.withinBudget ? 'within' : 'OVER'} ${HOME_WIDGET_BUDGET_MS} ms`,
      );
    }
    await feed.close();
    await pool.end();
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

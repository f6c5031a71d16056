/**
 * `npm run bench:forecast` (issue #31): the sales forecast backtested on rolling origins over the
 * three real data sets of ../shared/data (London takeaway, Maven pizza, Korean bakery), each
 * imported once through the real CSV import into a database of its own on an embedded
 * PostgreSQL. At every origin T (every {@link ORIGIN_STEP_DAYS} days once
 * {@link MIN_HISTORY_DAYS} days of history exist, while 14 days of actuals follow), the engine
 * forecasts days T … T + 13 from the data before T — "today" is the engine's `origin` parameter,
 * the clock is not touched, and the history it is given is cut at T (`historyBefore`;
 * tests/server/forecast-backtest-leakage.test.ts proves data after T changes nothing). Printed
 * per data set, pooled over all origins and horizons 1–14, for the method before issue #31
 * (`legacy`) and the current one, in the same run: daily WAPE, bias, 80 % range coverage, the
 * ratios to the seasonal naive (last same weekday before T) and to the mean of the last 4 same
 * weekdays before T, and the day parts' WAPE against the same split applied to that mean.
 * Below them, on the same origins and horizons, the oracle baselines (forecast-oracles.ts): what
 * forecasts allowed to see the future (never the day scored) reach against that mean, which
 * bounds what any method could; and the current method told each window's closures in advance.
 * Reported as measured, never asserted. Run it with `nice`: it fits a few hundred models.
 *
 * `benchForecastBacktest` is also a short step of `npm run bench` (the last few origins per set).
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import pg from 'pg';
import { DAY_PARTS } from '../src/contract/day-parts.ts';
import { migrateDatabase } from '../src/server/db/connect.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { weekdayOf, wireOf } from '../src/server/forecast/calendar.ts';
import {
  type DayForecast,
  dayPartShares,
  firstSalesDay,
  forecastFrom,
  type SiteHistory,
} from '../src/server/forecast/engine.ts';
import { readSiteHistory } from '../src/server/forecast/history.ts';
import { importSalesFile } from '../src/server/import/sales.ts';
import { ORACLES, type OracleClosures, oracleForecast, withClosuresEntered } from './forecast-oracles.ts';

const ROOT = path.join(import.meta.dirname, '..');
const DATA = path.join(ROOT, '../shared/data');

/** Days between two origins. */
export const ORIGIN_STEP_DAYS = 14;
/** History before the first origin: 8 weeks. */
export const MIN_HISTORY_DAYS = 56;
/** Days forecast from each origin (horizons 1–14). */
export const HORIZON_DAYS = 14;

/** One real data set and how the import reads it. */
export interface DataSet {
  key: string;
  name: string;
  file: string;
  mapping: string;
  site: string;
}

/** The three data sets of issue #31. */
export const DATA_SETS: readonly DataSet[] = [
  {
    key: 'london',
    name: 'London takeaway',
    file: path.join(DATA, 'takeaway-restaurants-london/restaurant-1-orders.csv'),
    mapping: path.join(ROOT, 'docs/mappings/takeaway-restaurant-1.json'),
    site: 'Takeaway London 1',
  },
  {
    key: 'pizza',
    name: 'Maven pizza',
    file: path.join(DATA, 'maven-pizza-sales/order_details.csv'),
    mapping: path.join(ROOT, 'docs/mappings/maven-pizza.json'),
    site: 'Maven Pizza',
  },
  {
    key: 'bakery',
    name: 'Korean bakery',
    file: path.join(DATA, 'korean-bakery-chuncheon/Bakery_sales.csv'),
    mapping: path.join(ROOT, 'docs/mappings/korean-bakery.json'),
    site: 'Bakery Chuncheon',
  },
];

/** The methods compared: before issue #31 and now (engine.ts ForecastOptions). */
export const METHODS = ['legacy', 'current'] as const;
export type Method = (typeof METHODS)[number];

/**
 * `history` as it was known at the start of day `origin`: sales and day parts of the days
 * before it only (events and holidays are known ahead, so they are kept whole).
 */
export function historyBefore(history: SiteHistory, origin: number): SiteHistory {
  const cut = <T>(m: ReadonlyMap<number, T>) => new Map([...m].filter(([day]) => day < origin));
  return {
    totals: cut(history.totals),
    parts: cut(history.parts),
    events: history.events,
    ...(history.holidays ? { holidays: history.holidays } : {}),
  };
}

/** The origins of a history: every {@link ORIGIN_STEP_DAYS} days, as the module comment says. */
export function originsOf(history: SiteHistory): number[] {
  const days = [...history.totals.keys()];
  if (days.length === 0) return [];
  const first = Math.min(...days);
  const last = Math.max(...days);
  const origins: number[] = [];
  for (let t = first + MIN_HISTORY_DAYS; t + HORIZON_DAYS - 1 <= last; t += ORIGIN_STEP_DAYS) origins.push(t);
  return origins;
}

/** The forecasts made at `origin` by `method` from the history before it. */
export function forecastsAt(history: SiteHistory, origin: number, method: Method): DayForecast[] {
  return forecastFrom(historyBefore(history, origin), origin, HORIZON_DAYS, { method });
}

/** Sums of errors: Σ|a − f|, Σ(f − a), Σa, days inside the range, days counted. */
interface Sums {
  abs: number;
  signed: number;
  actual: number;
  inside: number;
  days: number;
}

const sums = (): Sums => ({ abs: 0, signed: 0, actual: 0, inside: 0, days: 0 });

/** The sums of several. */
function total(all: readonly Sums[]): Sums {
  const out = sums();
  for (const s of all) {
    out.abs += s.abs;
    out.signed += s.signed;
    out.actual += s.actual;
    out.inside += s.inside;
    out.days += s.days;
  }
  return out;
}

function add(s: Sums, actual: number, forecast: number, low = forecast, high = forecast): void {
  s.abs += Math.abs(actual - forecast);
  s.signed += forecast - actual;
  s.actual += actual;
  if (actual > 0 || forecast > 0) {
    s.days++;
    if (actual >= low && actual <= high) s.inside++;
  }
}

/** What one data set measured, per method, pooled over origins and horizons 1–14. */
export interface SetResult {
  name: string;
  origins: number;
  firstOrigin: string;
  lastOrigin: string;
  naiveWape: number;
  mean4Wape: number;
  /**
   * The oracle baselines (forecast-oracles.ts: they see the future, never the target day) on the
   * same origins and horizons: WAPE, bias and ratio to the mean of 4, per oracle and closures.
   */
  oracles: { key: string; closures: OracleClosures; wape: number; bias: number; ratioMean4: number }[];
  /**
   * The current method told the closures of each forecast window in advance (forecast-oracles.ts
   * `withClosuresEntered`: what a manager who records planned closures gets): WAPE, bias, 80 %
   * coverage, ratio to the mean of 4.
   */
  closuresEntered: { wape: number; bias: number; coverage80: number; ratioMean4: number };
  methods: Record<
    Method,
    {
      wape: number;
      bias: number;
      coverage80: number | null;
      ratioNaive: number;
      ratioMean4: number;
      /** WAPE of the day parts (Σ over parts), and of the same split of the 4-weekday mean. */
      partsWape: number;
      partsMean4Wape: number;
      partsCoverage80: number | null;
      /** Per day part with sales: its WAPE and its share of the sales. */
      byPart: { key: string; share: number; wape: number; mean4Wape: number; coverage80: number | null }[];
    }
  >;
}

/** The mean of the last 4 same weekdays before `origin` (closed days as 0), for `day`. */
function mean4(history: SiteHistory, origin: number, day: number): number {
  const last = origin - 1 - ((weekdayOf(origin - 1) - weekdayOf(day) + 7) % 7);
  let sum = 0;
  for (let k = 0; k < 4; k++) sum += history.totals.get(last - 7 * k) ?? 0;
  return sum / 4;
}

/** Backtests one site's history over `origins` (default all: {@link originsOf}). */
export function backtestHistory(history: SiteHistory, name: string, origins = originsOf(history)): SetResult {
  const naive = sums();
  const base4 = sums();
  const closureKinds: readonly OracleClosures[] = ['engine', 'known'];
  const oracles = closureKinds.flatMap((closures) =>
    ORACLES.map((oracle) => ({ oracle, closures, s: sums() })),
  );
  const result: Partial<SetResult['methods']> = {};
  for (const method of METHODS) {
    const daily = sums();
    const parts = DAY_PARTS.map(sums);
    const parts4 = DAY_PARTS.map(sums);
    for (const origin of origins) {
      const known = historyBefore(history, origin);
      const forecasts = forecastFrom(known, origin, HORIZON_DAYS, { method });
      const shares = Array.from({ length: 7 }, (_, w) => dayPartShares(known, origin, w));
      for (const f of forecasts) {
        const actual = history.totals.get(f.day) ?? 0;
        const hasRange = method !== 'legacy';
        add(daily, actual, f.total, hasRange ? f.range.low : -1, hasRange ? f.range.high : -1);
        const m4 = mean4(known, origin, f.day);
        const actualParts = history.parts.get(f.day);
        for (let i = 0; i < DAY_PARTS.length; i++) {
          const r = f.partRanges[i]!;
          add(parts[i]!, actualParts?.[i] ?? 0, f.parts[i]!, hasRange ? r.low : -1, hasRange ? r.high : -1);
          add(parts4[i]!, actualParts?.[i] ?? 0, m4 * shares[weekdayOf(f.day)]![i]!);
        }
        if (method === METHODS[0]) {
          const lastSame = origin - 1 - ((weekdayOf(origin - 1) - weekdayOf(f.day) + 7) % 7);
          add(naive, actual, history.totals.get(lastSame) ?? 0);
          add(base4, actual, m4);
          const first = firstSalesDay(known.totals);
          for (const o of oracles)
            add(o.s, actual, oracleForecast(o.oracle, history, known, first, origin, f.day, o.closures, m4));
        }
      }
    }
    const partsAll = total(parts);
    const parts4All = total(parts4);
    result[method] = {
      wape: daily.abs / daily.actual,
      bias: daily.signed / daily.actual,
      coverage80: method === 'legacy' ? null : daily.inside / daily.days,
      ratioNaive: daily.abs / naive.abs,
      ratioMean4: daily.abs / base4.abs,
      partsWape: partsAll.abs / partsAll.actual,
      partsMean4Wape: parts4All.abs / parts4All.actual,
      partsCoverage80: method === 'legacy' ? null : partsAll.inside / partsAll.days,
      byPart: DAY_PARTS.flatMap((p, i) =>
        parts[i]!.actual > 0
          ? [
              {
                key: p.key,
                share: parts[i]!.actual / partsAll.actual,
                wape: parts[i]!.abs / parts[i]!.actual,
                mean4Wape: parts4[i]!.abs / parts4[i]!.actual,
                coverage80: method === 'legacy' ? null : parts[i]!.inside / parts[i]!.days,
              },
            ]
          : [],
      ),
    };
  }
  const entered = sums();
  for (const origin of origins) {
    const known = withClosuresEntered(history, historyBefore(history, origin), origin, HORIZON_DAYS);
    for (const f of forecastFrom(known, origin, HORIZON_DAYS))
      add(entered, history.totals.get(f.day) ?? 0, f.total, f.range.low, f.range.high);
  }
  return {
    name,
    origins: origins.length,
    firstOrigin: origins.length > 0 ? wireOf(origins[0]!) : '',
    lastOrigin: origins.length > 0 ? wireOf(origins.at(-1)!) : '',
    naiveWape: naive.abs / naive.actual,
    mean4Wape: base4.abs / base4.actual,
    oracles: oracles.map((o) => ({
      key: o.oracle.key,
      closures: o.closures,
      wape: o.s.abs / o.s.actual,
      bias: o.s.signed / o.s.actual,
      ratioMean4: o.s.abs / base4.abs,
    })),
    closuresEntered: {
      wape: entered.abs / entered.actual,
      bias: entered.signed / entered.actual,
      coverage80: entered.inside / entered.days,
      ratioMean4: entered.abs / base4.abs,
    },
    methods: result as SetResult['methods'],
  };
}

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)} %`);
const r3 = (x: number) => x.toFixed(3);

/** The lines printed for one data set (a markdown table, as decision 0017 holds it). */
export function formatResult(r: SetResult): string[] {
  const lines = [
    `${r.name}: ${r.origins} origins ${r.firstOrigin} … ${r.lastOrigin}, horizons 1–${HORIZON_DAYS}; seasonal naive WAPE ${pct(r.naiveWape)}, mean of last 4 same weekdays ${pct(r.mean4Wape)}`,
    '| method | WAPE | bias | 80 % coverage | ÷ naive | ÷ mean of 4 | day parts WAPE | 4-mean split | parts coverage |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const method of METHODS) {
    const m = r.methods[method];
    lines.push(
      `| ${method} | ${pct(m.wape)} | ${pct(m.bias)} | ${pct(m.coverage80)} | ${r3(m.ratioNaive)} | ${r3(m.ratioMean4)} | ${pct(m.partsWape)} | ${pct(m.partsMean4Wape)} | ${pct(m.partsCoverage80)} |`,
    );
  }
  const current = r.methods.current;
  lines.push(
    `  parts (current): ${current.byPart
      .map(
        (p) =>
          `${p.key} ${pct(p.share)} of sales: WAPE ${pct(p.wape)} vs ${pct(p.mean4Wape)}, coverage ${pct(p.coverage80)}`,
      )
      .join('; ')}`,
  );
  const e = r.closuresEntered;
  lines.push(
    `  current with the closures of each window entered in advance: WAPE ${pct(e.wape)}, bias ${pct(e.bias)}, 80 % coverage ${pct(e.coverage80)}, ÷ mean of 4 ${r3(e.ratioMean4)}`,
  );
  for (const closures of ['engine', 'known'] as const) {
    const best = r.oracles
      .filter((o) => o.closures === closures)
      .sort((a, b) => a.ratioMean4 - b.ratioMean4)[0];
    lines.push(
      `  oracles (see the future, not the target day; closed days ${closures === 'engine' ? 'as the engine sees them' : 'known'}): ${r.oracles
        .filter((o) => o.closures === closures)
        .map((o) => `${o.key} ${r3(o.ratioMean4)}`)
        .join('; ')}`,
      `    best: ${best?.key} WAPE ${pct(best?.wape ?? null)}, bias ${pct(best?.bias ?? null)}, ÷ mean of 4 ${best ? r3(best.ratioMean4) : '—'}`,
    );
  }
  return lines;
}

/**
 * Imports each data set into a database `database()` gives (migrated, empty; closed here) and
 * backtests it over all its origins, or its last `lastOrigins` when given (the short form).
 * Prints as it goes; answers the results.
 */
export async function benchForecastBacktest(
  database: (key: string) => Promise<pg.Pool>,
  lastOrigins?: number,
): Promise<{ name: string; sets: SetResult[] }> {
  const sets: SetResult[] = [];
  for (const set of DATA_SETS) {
    const pool = await database(set.key);
    try {
      const t0 = performance.now();
      const imported = await importSalesFile(pool, { file: set.file, mapping: set.mapping, site: set.site });
      const history = await readSiteHistory(pool, imported.siteId, Math.max(...(await lastDay(pool))));
      const t1 = performance.now();
      const all = originsOf(history);
      const result = backtestHistory(history, set.name, lastOrigins ? all.slice(-lastOrigins) : all);
      console.log(
        `  (${set.name}: import ${((t1 - t0) / 1000).toFixed(1)} s, backtest ${((performance.now() - t1) / 1000).toFixed(1)} s)`,
      );
      for (const line of formatResult(result)) console.log(`  ${line}`);
      sets.push(result);
    } finally {
      await pool.end();
    }
  }
  return {
    name: `forecast backtest (issue #31), ${lastOrigins ? `last ${lastOrigins} origins` : 'all origins'}`,
    sets,
  };
}

async function lastDay(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ d: number }>(
    "SELECT (max(fiscal_date) - DATE '1970-01-01')::int AS d FROM daily_sales",
  );
  return [rows[0]?.d ?? 0];
}

/** A fresh migrated database `name` on the server of `admin`. */
async function freshDatabase(admin: pg.PoolConfig, name: string): Promise<pg.Pool> {
  const c = new pg.Client(admin);
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name}`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const pool = new pg.Pool({ ...admin, database: name, max: 4 });
  pool.on('error', () => {});
  await migrateDatabase(pool);
  return pool;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-backtest-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(dir);
  try {
    const quick = process.argv.includes('--short') ? 3 : undefined;
    console.log(`• sales forecast backtest on rolling origins (issue #31)${quick ? ', short form' : ''}`);
    const t0 = performance.now();
    await benchForecastBacktest((key) => freshDatabase(server.connection, `backtest_${key}`), quick);
    console.log(`  total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Benchmark of the sales forecast (issue #19), reported as measured, never asserted:
 * - reliability: WAPE of our forecast and of the seasonal-naive one (same weekday last week) on
 *   the same 8 rolling backtest weeks (each forecast from the data before it), pooled over the
 *   demo chain's sites, and on the real London takeaway export (../shared/data, imported through
 *   the CSV import into a database of its own), against the target ours ≤ 0.9 × naive;
 * - the widgets' cost: forecastSites for every demo site over today and the next 7 days, cold
 *   (nothing fitted: the first call after a start or a sales load; with the longest the event
 *   loop was held meanwhile, the fits running on the worker thread) and from the cache the
 *   change feed keeps (median of 21 calls after a warm-up), against the 50 ms target.
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type pg from 'pg';
import { ChangeFeed } from '../src/server/db/changes.ts';
import { compareWithNaive, type Comparison } from '../src/server/forecast/compare.ts';
import { forecastSites, installForecastCache, warmForecasts } from '../src/server/forecast/forecast.ts';
import { importSalesFile } from '../src/server/import/sales.ts';

const ROOT = path.join(import.meta.dirname, '..');
const LONDON = path.join(ROOT, '../shared/data/takeaway-restaurants-london/restaurant-1-orders.csv');
const RUNS = 21;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

function reported(c: Comparison) {
  return {
    wapeOurs: round(c.ours),
    wapeNaive: round(c.naive),
    ratio: round(c.ratio),
    bias: round(c.bias),
    targetMet: c.ratio !== null && c.ratio <= 0.9,
  };
}

/** The wire date after `date`. */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** forecastSites over today + 7 days for `siteIds`: one cold call, then cached calls. */
async function widgetTimes(pool: pg.Pool, siteIds: number[]) {
  const today = new Date().toISOString().slice(0, 10);
  const request = () =>
    forecastSites(pool, {
      siteIds,
      from: today,
      to: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    });
  // How long the event loop was held while the models were fitted (on the worker thread).
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let t = performance.now();
  await request();
  const coldMs = performance.now() - t;
  delay.disable();
  const coldLoopMaxMs = Math.round(delay.max / 1e6);
  const feed = new ChangeFeed(pool.options);
  await feed.start();
  try {
    installForecastCache(pool, feed);
    t = performance.now();
    await warmForecasts(pool);
    const warmUpMs = performance.now() - t;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      await request();
      times.push(performance.now() - t);
    }
    return {
      coldMs: Math.round(coldMs),
      coldLoopMaxMs,
      warmUpMs: Math.round(warmUpMs),
      cachedMedianMs: round(median(times)),
    };
  } finally {
    await feed.close();
  }
}

/**
 * Runs the forecast bench on the demo chain of `demoPool` and on the London export imported into
 * the database `londonDatabase` makes (closed here).
 */
export async function benchForecast(demoPool: pg.Pool, londonDatabase: () => Promise<pg.Pool>) {
  console.log(
    '• sales forecast: WAPE vs seasonal naive on the last 8 weeks (demo chain, London export), widget cost',
  );
  const { rows } = await demoPool.query<{ id: number }>('SELECT id FROM sites ORDER BY id');
  const siteIds = rows.map((r) => r.id);
  const demo = await compareWithNaive(demoPool, siteIds, new Date());
  const widget = await widgetTimes(demoPool, siteIds);

  const london = await londonDatabase();
  try {
    const imported = await importSalesFile(london, {
      file: LONDON,
      mapping: path.join(ROOT, 'docs/mappings/takeaway-restaurant-1.json'),
      site: 'Takeaway London 1',
      company: 'London Takeaways',
    });
    const { rows: last } = await london.query<{ d: string }>(
      'SELECT max(fiscal_date)::text AS d FROM daily_sales WHERE site_id = $1',
      [imported.siteId],
    );
    const now = new Date(`${nextDay(last[0]!.d)}T11:00:00Z`);
    const real = await compareWithNaive(london, [imported.siteId], now);
    const result = {
      name: 'forecast (issue #19): WAPE ours vs seasonal naive, last 8 weeks; widget forecastSites',
      demoChain: { sites: siteIds.length, ...reported(demo.pooled) },
      demoSites: demo.sites.map((s) => ({ siteId: s.siteId, ...reported(s) })),
      londonTakeaway: { backtestBefore: nextDay(last[0]!.d), ...reported(real.pooled) },
      widget: { sites: siteIds.length, days: 8, ...widget, targetMs: 50 },
    };
    console.log(
      `  demo chain: WAPE ours ${result.demoChain.wapeOurs} vs naive ${result.demoChain.wapeNaive} (ratio ${result.demoChain.ratio}); London: ${result.londonTakeaway.wapeOurs} vs ${result.londonTakeaway.wapeNaive} (ratio ${result.londonTakeaway.ratio}); widget cold ${widget.coldMs} ms (event loop held ≤ ${widget.coldLoopMaxMs} ms), cached ${widget.cachedMedianMs} ms`,
    );
    return result;
  } finally {
    await london.end();
  }
}

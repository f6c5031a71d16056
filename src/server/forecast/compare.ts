/**
 * Our forecast against the seasonal-naive one (same weekday last week) on the same rolling
 * backtest weeks, pooled over several sites: what the bench (bench/forecast.ts) and the
 * real-data suite report and what decision 0017's choice of method rests on. Reads each site's
 * history once and runs the very model the previsions route answers from (model.ts).
 */
import type { Queryable } from '../db/queryable.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';
import { dayOf } from './calendar.ts';
import { readSiteHistory } from './history.ts';
import { SiteModel } from './model.ts';

/** WAPE of ours and of the naive forecast on one site or pooled; null without sales. */
export interface Comparison {
  ours: number | null;
  naive: number | null;
  /** Bias of ours: Σ(f − a) ÷ Σa. */
  bias: number | null;
  /** ours ÷ naive (target ≤ 0.9, issue #19). */
  ratio: number | null;
}

/**
 * Backtests sites `siteIds` as seen at instant `now` (each on its own fiscal "today"): per site
 * and pooled (Σ|a − f| ÷ Σa over every site's 8 weeks).
 */
export async function compareWithNaive(
  db: Queryable,
  siteIds: readonly number[],
  now: Date,
): Promise<{ pooled: Comparison; sites: ({ siteId: number } & Comparison)[] }> {
  const { rows } = await db.query<{ id: number; time_zone: string; day_start: string }>(
    'SELECT id, time_zone, day_start FROM sites WHERE id = ANY($1) ORDER BY id',
    [[...siteIds]],
  );
  const total = { ours: 0, naive: 0, signed: 0, actual: 0 };
  const sites: ({ siteId: number } & Comparison)[] = [];
  for (const site of rows) {
    const today = dayOf(currentFiscalDate(now, site.time_zone, site.day_start));
    const { sums } = new SiteModel(await readSiteHistory(db, site.id), today).backtest();
    total.ours += sums.ours.abs;
    total.naive += sums.naive.abs;
    total.signed += sums.ours.signed;
    total.actual += sums.ours.actual;
    sites.push({
      siteId: site.id,
      ...comparison(sums.ours.abs, sums.naive.abs, sums.ours.signed, sums.ours.actual),
    });
  }
  return { pooled: comparison(total.ours, total.naive, total.signed, total.actual), sites };
}

function comparison(ours: number, naive: number, signed: number, actual: number): Comparison {
  if (actual <= 0) return { ours: null, naive: null, bias: null, ratio: null };
  return {
    ours: ours / actual,
    naive: naive / actual,
    bias: signed / actual,
    ratio: naive > 0 ? ours / naive : null,
  };
}

/**
 * The forecast engine, pure (no database): from one site's history of daily net sales, its
 * sales per day part and its local events, the forecast of the days from an origin day on,
 * made from the history strictly before that origin (what the backtest relies on).
 *
 * Steps (decision 0017):
 * 1. the fitting window: at most {@link FIT_WINDOW_DAYS} days before the origin, from the
 *    site's first day of sales;
 * 2. days under an event are de-adjusted (divided by the event's factor) so an event does not
 *    pollute the level; closed days (no sales) and days an event emptied are imputed with the
 *    same weekday one week earlier, so the weekly pattern of the open days is what is fitted;
 * 3. MSTL with a weekly period and an AutoETS trend (mstl.ts) forecasts the daily totals;
 * 4. each forecast day gets its events' factors (Positive r % → ×(1 + r/100), Negative →
 *    ×(1 − r/100)), and 0 when the site is closed that day: a weekday with no sales in each of
 *    the last 3 weeks, or a calendar day with no sales a year earlier while the site traded
 *    around it (25 December, 1 January);
 * 5. the total is split into day parts by the shares of the same weekday's last
 *    {@link SHARE_WEEKS} open days (all open days' shares when that weekday has none).
 */
import { DAY_PARTS } from '../../contract/day-parts.ts';
import { sameDayLastYear, weekdayOf } from './calendar.ts';
import { mstlForecast } from './mstl.ts';

/** Days of history a model is fitted on (one year and a week: the weekly pattern of a year). */
export const FIT_WINDOW_DAYS = 371;
/** Below this many days of history the engine falls back to same-weekday means. */
export const MIN_FIT_DAYS = 28;
/** Same-weekday open days whose day-part shares split a forecast day. */
export const SHARE_WEEKS = 8;
/** Consecutive weeks without sales on a weekday that make it a closed weekday. */
export const CLOSED_WEEKS = 3;
/** Name of the method on the wire (contract/forecast.ts `method`), as in decision 0017. */
export const FORECAST_METHOD = 'MSTL(7)+AutoETS';

/** A local event as the engine applies it to one site. */
export interface SiteEvent {
  uuid: string;
  /** First and last day numbers (calendar.ts), inclusive. */
  startDay: number;
  endDay: number;
  /** Multiplier of the expected sales: 1.2 for Positive 20 %, 0.7 for Negative 30 %, ≥ 0. */
  factor: number;
}

/** One site's history, in day numbers (calendar.ts) and cents incl. VAT. */
export interface SiteHistory {
  /** Net sales per day that had any ticket; a missing day sold nothing (closed). */
  totals: ReadonlyMap<number, number>;
  /** Net sales per day part, in DAY_PARTS order, for the days of `totals`. */
  parts: ReadonlyMap<number, readonly number[]>;
  /** Events affecting the site, any order. */
  events: readonly SiteEvent[];
}

/** The forecast of one day. */
export interface DayForecast {
  day: number;
  /** Forecast net sales incl. VAT, cents (0 on a closed day). */
  total: number;
  /** Per day part, DAY_PARTS order, summing to `total`. */
  parts: number[];
  /** Uuids of the events applied to the day. */
  events: string[];
}

/** The product of the factors of the events covering `day`, and their uuids. */
export function eventsOn(events: readonly SiteEvent[], day: number): { factor: number; uuids: string[] } {
  let factor = 1;
  const uuids: string[] = [];
  for (const e of events) {
    if (day >= e.startDay && day <= e.endDay) {
      factor *= e.factor;
      uuids.push(e.uuid);
    }
  }
  return { factor, uuids };
}

/** The first day with sales in `totals`, or null. */
export function firstSalesDay(totals: ReadonlyMap<number, number>): number | null {
  let first: number | null = null;
  for (const [day, cents] of totals) if (cents > 0 && (first === null || day < first)) first = day;
  return first;
}

/**
 * The series fitted for a forecast made at `origin`: days `start`..origin−1, de-adjusted for
 * events, with closed or event-emptied days imputed (same weekday a week earlier, else a week
 * later, else the mean of the known days).
 */
export function fittingSeries(history: SiteHistory, start: number, origin: number): number[] {
  const y: number[] = [];
  for (let day = start; day < origin; day++) {
    const cents = history.totals.get(day) ?? 0;
    const { factor } = eventsOn(history.events, day);
    y.push(cents > 0 && factor > 0 ? cents / factor : Number.NaN);
  }
  const known = y.filter((v) => !Number.isNaN(v));
  const mean = known.length > 0 ? known.reduce((s, v) => s + v, 0) / known.length : 0;
  for (let i = 0; i < y.length; i++) {
    if (!Number.isNaN(y[i])) continue;
    let j = i + 7;
    while (j < y.length && Number.isNaN(y[j])) j += 7;
    y[i] = i >= 7 ? (y[i - 7] as number) : j < y.length ? (y[j] as number) : mean;
  }
  return y;
}

function sold(history: SiteHistory, day: number): boolean {
  return (history.totals.get(day) ?? 0) > 0;
}

/** Same-weekday means of the known (open) days of `y`, whose first value is day `start`. */
function weekdayMeans(history: SiteHistory, start: number, origin: number): number[] {
  const sums = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  let all = 0;
  let n = 0;
  for (let day = start; day < origin; day++) {
    const cents = history.totals.get(day) ?? 0;
    const { factor } = eventsOn(history.events, day);
    if (cents <= 0 || factor <= 0) continue;
    sums[weekdayOf(day)]! += cents / factor;
    counts[weekdayOf(day)]! += 1;
    all += cents / factor;
    n++;
  }
  const overall = n > 0 ? all / n : 0;
  return sums.map((s, w) => (counts[w]! > 0 ? s / counts[w]! : overall));
}

/**
 * True when the site is closed on `day` as seen from `origin`: its weekday had no sales in
 * each of the last {@link CLOSED_WEEKS} weeks before `origin` (and the site traded before
 * them), or the same calendar day a year earlier had no sales while the site traded within
 * three days of it.
 */
export function isClosed(history: SiteHistory, first: number, origin: number, day: number): boolean {
  const w = weekdayOf(day);
  const lastSame = origin - 1 - ((weekdayOf(origin - 1) - w + 7) % 7);
  if (lastSame - 7 * (CLOSED_WEEKS - 1) > first) {
    let closedWeeks = 0;
    for (let k = 0; k < CLOSED_WEEKS; k++) if (!sold(history, lastSame - 7 * k)) closedWeeks++;
    if (closedWeeks === CLOSED_WEEKS) return true;
  }
  const lastYear = sameDayLastYear(day);
  if (lastYear - 3 < first || lastYear + 3 >= origin || sold(history, lastYear)) return false;
  for (let d = lastYear - 3; d <= lastYear + 3; d++) if (sold(history, d)) return true;
  return false;
}

/**
 * Day-part shares (DAY_PARTS order, summing to 1) for a day of weekday `weekday`, from the last
 * {@link SHARE_WEEKS} open days of that weekday before `origin`; all open days' shares when the
 * weekday has none; the whole day in LUNCH and DINNER halves when the site has no history.
 */
export function dayPartShares(history: SiteHistory, origin: number, weekday: number): number[] {
  const sums = new Array<number>(DAY_PARTS.length).fill(0);
  let found = 0;
  const lastSame = origin - 1 - ((weekdayOf(origin - 1) - weekday + 7) % 7);
  for (let day = lastSame; found < SHARE_WEEKS && day > lastSame - 7 * 53; day -= 7) {
    const parts = history.parts.get(day);
    if (!parts || !sold(history, day)) continue;
    for (let i = 0; i < parts.length; i++) sums[i]! += Math.max(0, parts[i]!);
    found++;
  }
  if (found === 0) {
    for (const [day, parts] of history.parts) {
      if (day >= origin) continue;
      for (let i = 0; i < parts.length; i++) sums[i]! += Math.max(0, parts[i]!);
    }
  }
  const total = sums.reduce((s, v) => s + v, 0);
  if (total <= 0) return DAY_PARTS.map((p) => (p.key === 'LUNCH' || p.key === 'DINNER' ? 0.5 : 0));
  return sums.map((v) => v / total);
}

/** `total` split by `shares` into whole cents summing exactly to `total` (largest remainders). */
export function splitCents(total: number, shares: readonly number[]): number[] {
  const raw = shares.map((s) => s * total);
  const out = raw.map(Math.floor);
  let rest = total - out.reduce((s, v) => s + v, 0);
  const order = raw.map((v, i) => ({ i, r: v - Math.floor(v) })).sort((a, b) => b.r - a.r);
  for (let k = 0; rest > 0 && k < order.length; k++, rest--) out[order[k]!.i]! += 1;
  return out;
}

/**
 * Daily totals (before events and closed days) of the `horizon` days from `origin`: MSTL on
 * the fitting window when it holds at least {@link MIN_FIT_DAYS} days, else same-weekday means
 * of what there is; zeros without any history.
 */
export function baseForecast(history: SiteHistory, origin: number, horizon: number): number[] {
  const first = firstSalesDay(history.totals);
  if (first === null || first >= origin) return new Array<number>(horizon).fill(0);
  const start = Math.max(first, origin - FIT_WINDOW_DAYS);
  if (origin - start < MIN_FIT_DAYS) {
    const means = weekdayMeans(history, start, origin);
    return Array.from({ length: horizon }, (_, h) => means[weekdayOf(origin + h)]!);
  }
  return mstlForecast(fittingSeries(history, start, origin), horizon).map((v) => Math.max(0, v));
}

/**
 * The forecast of the `horizon` days from `origin` (day numbers), from the history strictly
 * before `origin` only; events are those of `history.events` whatever their dates (an event is
 * planned ahead, so it is known at the origin).
 * @throws Error from augurs (mstl.ts) on a series it cannot fit (not expected: the series is
 *   gap-free and finite by construction).
 */
export function forecastFrom(history: SiteHistory, origin: number, horizon: number): DayForecast[] {
  const base = baseForecast(history, origin, horizon);
  const first = firstSalesDay(history.totals);
  const shares = Array.from({ length: 7 }, (_, w) => dayPartShares(history, origin, w));
  return base.map((value, h) => {
    const day = origin + h;
    const { factor, uuids } = eventsOn(history.events, day);
    const closed = first !== null && isClosed(history, first, origin, day);
    const total = closed ? 0 : Math.max(0, Math.round(value * factor));
    return { day, total, parts: splitCents(total, shares[weekdayOf(day)]!), events: uuids };
  });
}

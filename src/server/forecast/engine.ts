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
 *    on the log scale, days further than 5 MADs from their weekday's median are clipped to it;
 * 3. the expected day is the mean of three members (issue #31): MSTL with a weekly period and
 *    an AutoETS trend (mstl.ts) on the logarithm of the daily totals, brought back with Duan's
 *    smearing; the recency-weighted mean of the same weekday; a recency-weighted level of all
 *    days × the weekday's ratio over the last year ({@link weeklyProfile});
 * 4. each forecast day gets its events' factors (Positive r % → ×(1 + r/100), Negative →
 *    ×(1 − r/100)), and 0 when the site is closed that day: a weekday with no sales in each of
 *    the last 3 weeks or on 6 of the last 8 (a weekly closing day opened once: {@link isClosed}),
 *    or a calendar day with no sales a year earlier while its weekday traded the week before and
 *    after (25 December, 1 January);
 * 5. the total is split into day parts by the shares of the same weekday's last
 *    {@link SHARE_WEEKS} open days (all open days' shares when that weekday has none).
 */
import { median, medianAbsoluteDeviation } from 'simple-statistics';
import { DAY_PARTS } from '../../contract/day-parts.ts';
import { SMALL_PART_SHARE } from '../../contract/forecast.ts';
import { sameDayLastYear, weekdayOf } from './calendar.ts';
import { mstlForecast } from './mstl.ts';

/** Days of history a model is fitted on: 26 weeks (as accurate as a year, in half the time: 0017). */
export const FIT_WINDOW_DAYS = 182;
/** Below this many days of history the engine falls back to same-weekday means. */
export const MIN_FIT_DAYS = 28;
/** Same-weekday open days whose day-part shares split a forecast day. */
export const SHARE_WEEKS = 8;
/** Consecutive weeks without sales on a weekday that make it a closed weekday. */
export const CLOSED_WEEKS = 3;
/**
 * A weekly closing day the site opened once (a Christmas Eve) is still one: a weekday without
 * sales on at least {@link HABIT_CLOSED_WEEKS} of the last {@link HABIT_WEEKS} weeks, one of the
 * last two among them, while the site traded on 3 in 4 of the other days, is closed (decision
 * 0017, third revision).
 */
export const HABIT_WEEKS = 8;
/** See {@link HABIT_WEEKS}. */
export const HABIT_CLOSED_WEEKS = 6;
/** Distance from a weekday's median, in scaled MADs (≈ standard deviations), beyond which a day is clipped. */
export const OUTLIER_MADS = 5;
/** Name of the method on the wire (contract/forecast.ts `method`), as in decision 0017. */
export const FORECAST_METHOD = 'log-MSTL(7)+AutoETS+weekday-mean+level-profile';
/** Half-life, in weeks, of the weights of the recency-weighted weekday mean (decision 0017). */
export const RECENCY_HALF_LIFE_WEEKS = 8;
/**
 * Days of history (at most; what exists before the origin) whose weekday means give the weekly
 * profile of the level × profile member: a year, longer than the fitting window, so each
 * weekday's ratio rests on 52 days rather than 26 (decision 0017).
 */
export const PROFILE_WINDOW_DAYS = 364;
/**
 * Half-life, in weeks, of the daily weights of the level × profile member's level (decision
 * 0017: 3–8 weeks measured within 0.004 of each other; 6 keeps the three sets' bias furthest
 * from ±3 %).
 */
export const LEVEL_HALF_LIFE_WEEKS = 6;
/**
 * Widening of the measured range (its log half-widths × this): the ratios are measured against
 * the recency-weighted weekday mean alone, whose errors understate those of the whole forecast
 * 1–14 days ahead on real sales; set so the backtests' coverage is near 80 % (decision 0017).
 */
export const RANGE_WIDENING = 1.15;
/** Weeks of history whose out-of-sample errors give the 80 % range (decision 0017). */
export const RANGE_WEEKS = 16;
/** Nominal coverage of the range: 80 %, the 10th and 90th percentiles of the errors. */
export const RANGE_LEVEL = 0.8;

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
  /**
   * Public holidays of the site's country and region (holidays.ts), day number → name, over
   * the history and the days forecast; none when absent.
   */
  holidays?: ReadonlyMap<number, string>;
}

/** An 80 % range: the 10th and 90th percentiles of the day's sales, cents, low ≤ high. */
export interface Range {
  low: number;
  high: number;
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
  /** The day's 80 % range, cents ({0, 0} on a closed day). */
  range: Range;
  /** Per day part (DAY_PARTS order) its own 80 % range, wider than its share of the day's. */
  partRanges: Range[];
  /** Per day part: true when it is a small share of the day (< {@link SMALL_PART_SHARE}), so uncertain. */
  partUncertain: boolean[];
  /** The public holiday of the day (its name), when there is one. */
  holiday?: string;
}

/** Options of {@link forecastFrom}. */
export interface ForecastOptions {
  /**
   * `legacy`: the method before issue #31 (log-MSTL brought back with expm1, no holidays, no
   * combination), kept so the backtest harness measures before and after in the same run.
   */
  method?: 'current' | 'legacy';
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
 * events, with closed or event-emptied days (and public holidays when `skipHolidays`) imputed
 * (same weekday a week earlier, else a week later, else the mean of the known days): a day the
 * site did not open is not taught as a day of zero sales.
 */
export function fittingSeries(
  history: SiteHistory,
  start: number,
  origin: number,
  skipHolidays = false,
): number[] {
  const y: number[] = [];
  for (let day = start; day < origin; day++) {
    const cents = history.totals.get(day) ?? 0;
    const { factor } = eventsOn(history.events, day);
    const holiday = skipHolidays && history.holidays?.has(day);
    y.push(cents > 0 && factor > 0 && !holiday ? cents / factor : Number.NaN);
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

/** Same-weekday means of the open days `start`…origin−1, de-adjusted for events (short histories). */
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
 * them), or on {@link HABIT_CLOSED_WEEKS} of the last {@link HABIT_WEEKS} with one of the last
 * two while it traded on 3 in 4 of the other days (a weekly closing day the site opened once), or the same calendar day a year earlier had no sales while the same weekday had
 * sales the week before and the week after it (a holiday such as 25 December, not a weekly
 * closing day).
 */
export function isClosed(history: SiteHistory, first: number, origin: number, day: number): boolean {
  const w = weekdayOf(day);
  const lastSame = origin - 1 - ((weekdayOf(origin - 1) - w + 7) % 7);
  // A day an event emptied (Negative 100 %) says nothing of the shop's opening days.
  const shut = (d: number) => !sold(history, d) && eventsOn(history.events, d).factor > 0;
  if (lastSame - 7 * (CLOSED_WEEKS - 1) > first) {
    let closedWeeks = 0;
    for (let k = 0; k < CLOSED_WEEKS; k++) if (shut(lastSame - 7 * k)) closedWeeks++;
    if (closedWeeks === CLOSED_WEEKS) return true;
  }
  if (lastSame - 7 * (HABIT_WEEKS - 1) > first && (shut(lastSame) || shut(lastSame - 7))) {
    let closedWeeks = 0;
    for (let k = 0; k < HABIT_WEEKS; k++) if (shut(lastSame - 7 * k)) closedWeeks++;
    // Only while the other weekdays trade: a site that has just opened is not closed on them all.
    let otherOpen = 0;
    for (let d = origin - 7 * HABIT_WEEKS; d < origin; d++)
      if (weekdayOf(d) !== w && sold(history, d)) otherOpen++;
    if (closedWeeks >= HABIT_CLOSED_WEEKS && otherOpen >= 0.75 * 6 * HABIT_WEEKS) return true;
  }
  // A holiday, not a weekly closing day: the same weekday was open the weeks before and after.
  const lastYear = sameDayLastYear(day);
  if (lastYear - 7 < first || lastYear + 7 >= origin || sold(history, lastYear)) return false;
  if (eventsOn(history.events, lastYear).factor <= 0) return false;
  return sold(history, lastYear - 7) && sold(history, lastYear + 7);
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
 * `y` (one value per day) with each value held within {@link OUTLIER_MADS} scaled median
 * absolute deviations of its weekday's median: a one-off catering order or a mistyped load does
 * not become next week's level, while ordinary weeks are left as they are.
 */
export function clipOutliers(y: readonly number[]): number[] {
  const out = [...y];
  for (let w = 0; w < 7; w++) {
    const values: number[] = [];
    for (let i = w; i < y.length; i += 7) values.push(y[i]!);
    if (values.length < 4) continue;
    const centre = median(values);
    const spread = OUTLIER_MADS * 1.4826 * medianAbsoluteDeviation(values);
    if (spread <= 0) continue;
    for (let i = w; i < y.length; i += 7)
      out[i] = Math.min(centre + spread, Math.max(centre - spread, y[i]!));
  }
  return out;
}

/** Base forecast of a day before its events, holidays and closings: expected total and its 80 % range as ratios. */
export interface BaseDay {
  /** Expected net sales, cents (a mean, not a median). */
  mean: number;
  /** Ratios to `mean` of the 10th and 90th percentiles (≤ 1 ≤ high), 1 and 1 when unknown. */
  lowRatio: number;
  highRatio: number;
}

/**
 * Daily totals (before events and closed days) of the `horizon` days from `origin`, by the
 * method before issue #31: MSTL on the log of the fitting window brought back with expm1 (the
 * median day, not the mean), same-weekday means on a short history; zeros without any history.
 * Kept for the backtest harness (bench/forecast-backtest.ts), which measures before and after.
 */
export function legacyBaseForecast(history: SiteHistory, origin: number, horizon: number): number[] {
  const first = firstSalesDay(history.totals);
  if (first === null || first >= origin) return new Array<number>(horizon).fill(0);
  const start = Math.max(first, origin - FIT_WINDOW_DAYS);
  if (origin - start < MIN_FIT_DAYS) {
    const means = weekdayMeans(history, start, origin);
    return Array.from({ length: horizon }, (_, h) => means[weekdayOf(origin + h)]!);
  }
  const logSeries = clipOutliers(fittingSeries(history, start, origin).map(Math.log1p));
  return mstlForecast(logSeries, horizon).point.map((v) => Math.max(0, Math.expm1(v)));
}

/**
 * The recency-weighted weekday mean of series `y` (gap-free) for index `i` (may be past its end):
 * the same-weekday values at or before index `last` over the fitting window, weighted
 * 0.5^(weeks back ÷ {@link RECENCY_HALF_LIFE_WEEKS}).
 */
function recencyWeekdayMean(y: readonly number[], i: number, last: number): number {
  let sum = 0;
  let weights = 0;
  let k = 0;
  for (let j = last - ((((last - i) % 7) + 7) % 7); j >= 0; j -= 7, k++) {
    const w = 0.5 ** (k / RECENCY_HALF_LIFE_WEEKS);
    sum += w * y[j]!;
    weights += w;
  }
  return weights > 0 ? sum / weights : 0;
}

/** The `q`-quantile (0–1) of `values` (sorted ascending), linear between order statistics. */
function quantileSorted(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * The 80 % range as ratios to the expected value, for forecasts 1–7 days ahead (`band` 0) and
 * 8 days or more (`band` 1): the 10th and 90th percentiles of actual ÷ recency-weighted weekday mean made
 * 7 or 14 days earlier, over the open days of the last {@link RANGE_WEEKS} weeks of `y` (`open`
 * says which days were really open and ordinary), each divided by their mean so the range sits
 * around an unbiased forecast; null with fewer than 20 such days.
 */
function rangeRatios(y: readonly number[], open: readonly boolean[], band: number): [number, number] | null {
  const lag = 7 * (band + 1);
  const ratios: number[] = [];
  for (let t = Math.max(0, y.length - 7 * RANGE_WEEKS); t < y.length; t++) {
    if (!open[t] || t - lag < 7 * 3) continue;
    const reference = recencyWeekdayMean(y, t, t - lag);
    if (reference > 0) ratios.push(y[t]! / reference);
  }
  if (ratios.length < 20) return null;
  ratios.sort((a, b) => a - b);
  const mean = ratios.reduce((s, v) => s + v, 0) / ratios.length;
  const tail = (1 - RANGE_LEVEL) / 2;
  const widen = (q: number) => Math.exp(RANGE_WIDENING * Math.log(quantileSorted(ratios, q) / mean));
  return [widen(tail), widen(1 - tail)];
}

/**
 * The weekly profile of the history before `origin`: per weekday (0 = Monday) the mean of its
 * open days ÷ the mean of the seven weekday means, over the last {@link PROFILE_WINDOW_DAYS}
 * days (from the site's first day `first`), the days cleaned as the fitted ones (events
 * de-adjusted, outliers clipped on the log scale). Only days the site opened, without an event
 * or a public holiday, count: an imputed day would carry a weeks-old value across a long
 * closure. 1 for a weekday without such a day (and for all when none has any).
 */
export function weeklyProfile(history: SiteHistory, first: number, origin: number): number[] {
  const start = Math.max(first, origin - PROFILE_WINDOW_DAYS);
  const y = clipOutliers(fittingSeries(history, start, origin, true).map(Math.log1p)).map(Math.expm1);
  const sums = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  for (let i = 0; i < y.length; i++) {
    const day = start + i;
    if (!sold(history, day) || eventsOn(history.events, day).factor !== 1 || history.holidays?.has(day))
      continue;
    sums[weekdayOf(day)]! += y[i]!;
    counts[weekdayOf(day)]! += 1;
  }
  const means = sums.map((s, w) => (counts[w]! > 0 ? s / counts[w]! : Number.NaN));
  const known = means.filter((m) => !Number.isNaN(m));
  const mean = known.reduce((s, v) => s + v, 0) / Math.max(1, known.length);
  return means.map((m) => (Number.isNaN(m) || mean <= 0 ? 1 : m / mean));
}

/**
 * The level of series `y` (gap-free, cleaned, its last value the day before the origin): the
 * mean of its open ordinary days (`open[i]`) weighted 0.5^(days back ÷ 7 ÷
 * {@link LEVEL_HALF_LIFE_WEEKS}), each day first divided by its weekday's `profile` ratio
 * (`weekdayOfFirst` is the weekday of y[0]), so the level does not depend on which weekdays are
 * the most recent; null without any open day.
 */
function recencyLevel(
  y: readonly number[],
  open: readonly boolean[],
  weekdayOfFirst: number,
  profile: readonly number[],
): number | null {
  let sum = 0;
  let weights = 0;
  for (let i = y.length - 1; i >= 0; i--) {
    const ratio = profile[(weekdayOfFirst + i) % 7]!;
    if (!open[i] || ratio <= 0) continue;
    const w = 0.5 ** ((y.length - 1 - i) / 7 / LEVEL_HALF_LIFE_WEEKS);
    sum += (w * y[i]!) / ratio;
    weights += w;
  }
  return weights > 0 ? sum / weights : null;
}

/** Range ratios when the history is too short to measure any: a wide ±50 %. */
const UNKNOWN_RANGE: [number, number] = [0.5, 1.5];

/**
 * Expected daily totals and their 80 % range (before events, holidays and closed days) of the
 * `horizon` days from `origin` (decision 0017, issue #31): the mean of MSTL on the log of the
 * fitting window brought back with Duan's smearing (the mean of exp of the in-sample residuals,
 * so the mean day rather than the median one), the recency-weighted weekday mean of the same
 * series (half-life {@link RECENCY_HALF_LIFE_WEEKS} weeks) and the level × weekly profile (level
 * of all days, half-life {@link LEVEL_HALF_LIFE_WEEKS} weeks, × the weekday's ratio over the last
 * {@link PROFILE_WINDOW_DAYS} days), in equal thirds; holidays, closed and event-emptied days are
 * imputed, not zeros.
 * Short histories: same-weekday means; none: zeros.
 */
export function baseForecast(history: SiteHistory, origin: number, horizon: number): BaseDay[] {
  const first = firstSalesDay(history.totals);
  if (first === null || first >= origin)
    return Array.from({ length: horizon }, () => ({ mean: 0, lowRatio: 1, highRatio: 1 }));
  const start = Math.max(first, origin - FIT_WINDOW_DAYS);
  if (origin - start < MIN_FIT_DAYS) {
    const means = weekdayMeans(history, start, origin);
    return Array.from({ length: horizon }, (_, h) => ({
      mean: means[weekdayOf(origin + h)]!,
      lowRatio: UNKNOWN_RANGE[0],
      highRatio: UNKNOWN_RANGE[1],
    }));
  }
  const series = fittingSeries(history, start, origin, true);
  const open: boolean[] = series.map((_, i) => {
    const day = start + i;
    return sold(history, day) && eventsOn(history.events, day).factor === 1 && !history.holidays?.has(day);
  });
  // On the log scale the weekly pattern is a ratio (Saturday = 1.5 × Monday) whatever the level,
  // as a shop's week is; decision 0017 has the measured gain over the plain scale.
  const logSeries = clipOutliers(series.map(Math.log1p));
  const fit = mstlForecast(logSeries, horizon);
  // Duan's smearing: E[y] = E[exp(log y)] is exp(fitted) × mean exp(residual), not exp(fitted).
  let smear = 1;
  if (fit.inSample) {
    const recent = Math.max(0, logSeries.length - 7 * RANGE_WEEKS);
    let sum = 0;
    let n = 0;
    for (let i = recent; i < logSeries.length; i++) {
      const r = logSeries[i]! - fit.inSample[i]!;
      if (Number.isFinite(r)) {
        sum += Math.exp(r);
        n++;
      }
    }
    if (n > 0) smear = sum / n;
  }
  const clipped = logSeries.map(Math.expm1);
  const bands = [rangeRatios(series, open, 0), rangeRatios(series, open, 1)];
  const profile = weeklyProfile(history, first, origin);
  const level = recencyLevel(clipped, open, weekdayOf(start), profile);
  return fit.point.map((v, h) => {
    const mstlMean = Math.max(0, (Math.expm1(v) + 1) * smear - 1);
    const weekdayMean = recencyWeekdayMean(clipped, series.length + h, series.length - 1);
    const [lowRatio, highRatio] = bands[h < 7 ? 0 : 1] ?? bands[0] ?? UNKNOWN_RANGE;
    // Without an open ordinary day in the window (all holidays or events), the two other members.
    const mean =
      level === null
        ? (mstlMean + weekdayMean) / 2
        : (mstlMean + weekdayMean + level * profile[weekdayOf(origin + h)]!) / 3;
    return {
      mean,
      lowRatio: Math.min(1, lowRatio),
      highRatio: Math.max(1, highRatio),
    };
  });
}

/**
 * The factor a public holiday applies to the expected sales of `day`, as seen from `origin`:
 * the ratio of sales on the last holiday of the same name before `origin` to the mean of the
 * same weekday 1 and 2 weeks around it (open days before `origin`) within the last two years,
 * else 1 (that holiday not seen yet). 0 when the site stayed closed on it.
 */
export function holidayFactor(history: SiteHistory, origin: number, day: number): number {
  const name = history.holidays?.get(day);
  if (name === undefined || !history.holidays) return 1;
  const ratios: { day: number; name: string; ratio: number }[] = [];
  for (const [d, n] of history.holidays) {
    if (d >= origin || d < origin - 730) continue;
    const around: number[] = [];
    for (const k of [-14, -7, 7, 14]) {
      const other = d + k;
      if (other < origin && sold(history, other) && !history.holidays.has(other))
        around.push(history.totals.get(other)!);
    }
    if (around.length < 2) continue;
    const expected = around.reduce((s, v) => s + v, 0) / around.length;
    ratios.push({ day: d, name: n, ratio: Math.min(3, (history.totals.get(d) ?? 0) / expected) });
  }
  // Only the same holiday says how it sells: the median over other holidays was measured worse
  // than nothing on all three real data sets (decision 0017).
  const same = ratios.filter((r) => r.name === name).sort((a, b) => b.day - a.day)[0];
  return same ? same.ratio : 1;
}

/**
 * Per day part (DAY_PARTS order) the 10th and 90th percentiles of its share of the day on the
 * same weekday's last {@link SHARE_WEEKS} open days before `origin` (a part often empty gets a
 * low share of 0); null when fewer than 3 such days have day parts.
 */
export function dayPartShareRanges(history: SiteHistory, origin: number, weekday: number): Range[] | null {
  const shares: number[][] = [];
  const lastSame = origin - 1 - ((weekdayOf(origin - 1) - weekday + 7) % 7);
  for (let day = lastSame; shares.length < SHARE_WEEKS && day > lastSame - 7 * 53; day -= 7) {
    const parts = history.parts.get(day);
    const total = parts?.reduce((s, v) => s + Math.max(0, v), 0) ?? 0;
    if (!parts || total <= 0) continue;
    shares.push(parts.map((v) => Math.max(0, v) / total));
  }
  if (shares.length < 3) return null;
  const tail = (1 - RANGE_LEVEL) / 2;
  return DAY_PARTS.map((_, i) => {
    const sorted = shares.map((s) => s[i]!).sort((x, y) => x - y);
    return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
  });
}

/**
 * The 80 % range of a day part: the day's range times the part's share range (low × low share,
 * high × high share), never narrower than the part's share of the day's range; without share
 * ranges, the day's range times its share.
 */
function partRange(day: Range, share: number, shares: Range | undefined): Range {
  const low = Math.min(share, shares?.low ?? share);
  const high = Math.max(share, shares?.high ?? share);
  return { low: Math.round(day.low * low), high: Math.round(day.high * high) };
}

/**
 * The forecast of the `horizon` days from `origin` (day numbers), from the history strictly
 * before `origin` only; events are those of `history.events` whatever their dates (an event is
 * planned ahead, so it is known at the origin), holidays those of `history.holidays` (known
 * ahead too). A day under a Negative 100 % event (a known closure) forecasts 0.
 * @throws Error from augurs (mstl.ts) on a series it cannot fit (not expected: the series is
 *   gap-free and finite by construction).
 */
export function forecastFrom(
  history: SiteHistory,
  origin: number,
  horizon: number,
  options: ForecastOptions = {},
): DayForecast[] {
  const legacy = options.method === 'legacy';
  const base: BaseDay[] = legacy
    ? legacyBaseForecast(history, origin, horizon).map((mean) => ({ mean, lowRatio: 1, highRatio: 1 }))
    : baseForecast(history, origin, horizon);
  const first = firstSalesDay(history.totals);
  const shares = Array.from({ length: 7 }, (_, w) => dayPartShares(history, origin, w));
  const shareRanges = Array.from({ length: 7 }, (_, w) => dayPartShareRanges(history, origin, w));
  return base.map((b, h) => {
    const day = origin + h;
    const { factor, uuids } = eventsOn(history.events, day);
    const holiday = legacy ? undefined : history.holidays?.get(day);
    const dayFactor = factor * (holiday === undefined ? 1 : holidayFactor(history, origin, day));
    const closed = first !== null && isClosed(history, first, origin, day);
    const expected = closed ? 0 : Math.max(0, b.mean * dayFactor);
    const total = Math.round(expected);
    const range = { low: Math.round(expected * b.lowRatio), high: Math.round(expected * b.highRatio) };
    const dayShares = shares[weekdayOf(day)]!;
    return {
      day,
      total,
      parts: splitCents(total, dayShares),
      events: uuids,
      range,
      partRanges: dayShares.map((s, i) => partRange(range, s, shareRanges[weekdayOf(day)]?.[i])),
      partUncertain: dayShares.map((s) => s > 0 && s < SMALL_PART_SHARE),
      ...(holiday === undefined ? {} : { holiday }),
    };
  });
}

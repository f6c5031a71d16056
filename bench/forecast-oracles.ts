/**
 * Oracle baselines of the forecast backtest (bench/forecast-backtest.ts, issue #31, decision 0017
 * third revision): "forecasts" that are allowed to see the future, so they bound what any method
 * could reach on a data set. Each one is scored like the engine, on the same origins and horizons
 * 1–14, against the same mean of the last 4 same weekdays; if even they cannot reach a WAPE ratio
 * of 0.90 to that mean, no method that sees only the past can by finding a level and a weekly
 * pattern (another structure — weather, a driver the data do not hold — is not bounded here).
 *
 * An oracle estimates the day's expected sales from the whole history — days after the origin
 * included — but never from the target day itself (leave-one-out), so it is a near-ideal "true
 * level", not the answer. Around that level it does what the engine does with what is known at
 * the origin: a known event's factor, the same holiday's factor a year earlier, 0 when the engine
 * would see the site closed (`closures: 'engine'`); or, stronger still, 0 exactly when the site
 * did not open that day (`closures: 'known'`, the target's open/closed state read from the future).
 *
 * Two families, as decision 0017's third revision asks:
 * - `sameWeekday`: the centred mean of the same weekday ±1…±k weeks around the target (open
 *   ordinary days only: sales, no event, no public holiday);
 * - `levelProfile`: the best decomposition of the whole series into a level and a weekly profile,
 *   fitted in sample: profile = each weekday's mean ÷ the mean of the seven, over the whole
 *   history or ±13 weeks around the target; level = the triangular-kernel weighted mean, over
 *   ±`bandwidth` days around the target, of every open ordinary day divided by its weekday's
 *   ratio; also seen from the evening before the target (the days before it only) and from the
 *   origin (the days before the origin only, the profile still the whole series'). The harness
 *   reports the best bandwidth in hindsight, which only flatters the oracle.
 */
import { weekdayOf } from '../src/server/forecast/calendar.ts';
import {
  eventsOn,
  holidayFactor,
  isClosed,
  type SiteEvent,
  type SiteHistory,
} from '../src/server/forecast/engine.ts';

/** How an oracle knows closed days: as the engine sees them at the origin, or from the future. */
export type OracleClosures = 'engine' | 'known';

/** One oracle: its key (as printed) and its expected sales of `day` (cents, before events and holidays). */
export interface Oracle {
  key: string;
  /**
   * Expected sales of an open ordinary `day`, cents, from `history` without that day, for a
   * forecast made at `origin` (which only the oracles whose level stops there read); null when unknown.
   */
  level: (history: SiteHistory, day: number, origin: number) => number | null;
}

/** True when `day` was an open ordinary day: sales, no event, no public holiday. */
function ordinary(history: SiteHistory, day: number): boolean {
  return (
    (history.totals.get(day) ?? 0) > 0 &&
    eventsOn(history.events, day).factor === 1 &&
    !history.holidays?.has(day)
  );
}

/**
 * Oracle (a): the mean of the open ordinary same weekdays `day` ± 7, ± 14 … ± 7 `weeks`
 * (the target day excluded); null when none is.
 */
export function sameWeekdayOracle(weeks: number): Oracle {
  return {
    key: `same weekday ±${weeks} weeks`,
    level: (history, day) => {
      let sum = 0;
      let n = 0;
      for (let k = 1; k <= weeks; k++) {
        for (const d of [day - 7 * k, day + 7 * k]) {
          if (!ordinary(history, d)) continue;
          sum += history.totals.get(d)!;
          n++;
        }
      }
      return n > 0 ? sum / n : null;
    },
  };
}

/**
 * The weekly profile of the open ordinary days of `history` between `from` and `to` inclusive
 * (`from`/`to` null: all), without `day`: per weekday (0 = Monday) its mean ÷ the mean of the
 * weekday means; 1 for a weekday without a day.
 */
function profileAround(history: SiteHistory, day: number, from: number | null, to: number | null): number[] {
  const sums = new Array<number>(7).fill(0);
  const counts = new Array<number>(7).fill(0);
  for (const [d, cents] of history.totals) {
    if (d === day || (from !== null && d < from) || (to !== null && d > to) || !ordinary(history, d))
      continue;
    sums[weekdayOf(d)]! += cents;
    counts[weekdayOf(d)]! += 1;
  }
  const means = sums.map((s, w) => (counts[w]! > 0 ? s / counts[w]! : Number.NaN));
  const known = means.filter((m) => !Number.isNaN(m));
  const mean = known.reduce((s, v) => s + v, 0) / Math.max(1, known.length);
  return means.map((m) => (Number.isNaN(m) || mean <= 0 ? 1 : m / mean));
}

/** Weeks each side of the target of the local profile of {@link levelProfileOracle}. */
export const LOCAL_PROFILE_WEEKS = 13;

/**
 * Oracle (b): the in-sample level × weekly profile of the whole series at `day` (the target day
 * excluded from both): profile over the whole history (`profile: 'all'`) or ±13 weeks around
 * the target (`'local'`); level the triangular-kernel mean of the open ordinary days each
 * divided by its weekday's ratio, over ±`bandwidth` days (`sides: 'both'`), over the
 * `bandwidth` days before the target only (`'before'`: a forecast made the evening before,
 * which has seen the days after the origin but not those after the target), or over the
 * `bandwidth` days before the origin (`'origin'`: a forecast made at the origin that only knows
 * the weekly profile of the future); null when no such day is near.
 */
export function levelProfileOracle(
  bandwidth: number,
  profile: 'all' | 'local',
  sides: 'both' | 'before' | 'origin',
): Oracle {
  const window =
    sides === 'both'
      ? `±${bandwidth} days`
      : sides === 'before'
        ? `${bandwidth} days before`
        : `${bandwidth} days before the origin`;
  return {
    key: `level ${window} × ${profile === 'all' ? 'whole-series' : `±${LOCAL_PROFILE_WEEKS}-week`} profile`,
    level: (history, day, origin) => {
      const weeks = 7 * LOCAL_PROFILE_WEEKS;
      const ratios =
        profile === 'all'
          ? profileAround(history, day, null, null)
          : profileAround(history, day, day - weeks, day + weeks);
      let sum = 0;
      let weights = 0;
      const centre = sides === 'origin' ? origin : day;
      const last = sides === 'both' ? day + bandwidth : centre - 1;
      for (let d = centre - bandwidth; d <= last; d++) {
        if (d === day || !ordinary(history, d)) continue;
        const w = 1 - Math.abs(d - centre) / (bandwidth + 1);
        sum += (w * history.totals.get(d)!) / ratios[weekdayOf(d)]!;
        weights += w;
      }
      return weights > 0 ? (sum / weights) * ratios[weekdayOf(day)]! : null;
    },
  };
}

/**
 * The oracles the harness scores: (a) at ±2, ±4, ±8 weeks; (b) two-sided at six bandwidths × two
 * profiles, seen from the evening before the target at three, and from the origin at four.
 */
export const ORACLES: readonly Oracle[] = [
  sameWeekdayOracle(2),
  sameWeekdayOracle(4),
  sameWeekdayOracle(8),
  ...[7, 14, 28, 56, 91, 182].flatMap((b) => [
    levelProfileOracle(b, 'all', 'both'),
    levelProfileOracle(b, 'local', 'both'),
  ]),
  ...[28, 91, 182].map((b) => levelProfileOracle(b, 'all', 'before')),
  ...[28, 56, 91, 182].map((b) => levelProfileOracle(b, 'all', 'origin')),
];

/**
 * The oracle's forecast of `day` (cents) for a forecast made at `origin`, scored like the engine's:
 * its level × the day's known event factor × the same holiday's factor (both as the engine reads
 * them from the history before the origin, `known`), 0 when the site is closed — as the engine
 * sees it at the origin (`closures: 'engine'`, from `known`) or as it really was (`'known'`,
 * from `history`). `history` is the whole history, `known` the part before the origin; the
 * level falls back to the mean of 4 same weekdays `fallback` when the oracle has no day to go on.
 */
export function oracleForecast(
  oracle: Oracle,
  history: SiteHistory,
  known: SiteHistory,
  first: number | null,
  origin: number,
  day: number,
  closures: OracleClosures,
  fallback: number,
): number {
  const closed =
    closures === 'known'
      ? (history.totals.get(day) ?? 0) <= 0
      : first !== null && isClosed(known, first, origin, day);
  if (closed) return 0;
  const level = oracle.level(history, day, origin) ?? fallback;
  const holiday = known.holidays?.has(day) ? holidayFactor(known, origin, day) : 1;
  return level * eventsOn(history.events, day).factor * holiday;
}

/**
 * `known` (the history before `origin`) with each day of `origin` … `origin + horizon − 1` on
 * which the site did not open (no sales in `history`) entered as a closure — an event of impact
 * Negative 100 %, as a manager who records planned closures would enter it. Only the closures
 * come from the future; the engine given this still sees no sales after the origin.
 */
export function withClosuresEntered(
  history: SiteHistory,
  known: SiteHistory,
  origin: number,
  horizon: number,
): SiteHistory {
  const closures: SiteEvent[] = [];
  for (let day = origin; day < origin + horizon; day++)
    if ((history.totals.get(day) ?? 0) <= 0)
      closures.push({ uuid: `closure-${day}`, startDay: day, endDay: day, factor: 0 });
  return { ...known, events: [...known.events, ...closures] };
}

/**
 * The oracle baselines of the forecast backtest (bench/forecast-oracles.ts, decision 0017 third
 * revision) see the future but never the day they score: changing that day's sales changes no
 * oracle's value, while changing a day after it does (so the check can fail). On a series of a
 * known level × weekly profile without noise, each oracle finds the day exactly; the closures
 * entered in advance are the days the site did not open in the window, and the engine given them
 * forecasts 0 there.
 */
import { describe, expect, it } from 'vitest';
import {
  levelProfileOracle,
  ORACLES,
  oracleForecast,
  sameWeekdayOracle,
  withClosuresEntered,
} from '../../bench/forecast-oracles.ts';
import { dayOf, weekdayOf } from '../../src/server/forecast/calendar.ts';
import { firstSalesDay, forecastFrom, type SiteHistory } from '../../src/server/forecast/engine.ts';

const WEEK = [0.8, 0.85, 0.9, 1.0, 1.3, 1.5, 0.65];
const FIRST = dayOf('2025-01-06');
const DAYS = 400;

/** A site selling `level(day)` × its weekday's ratio every day, `noise(day)` aside; none on `closed` days. */
function site(noise: (day: number) => number = () => 1, closed: readonly number[] = []): SiteHistory {
  const totals = new Map<number, number>();
  for (let day = FIRST; day < FIRST + DAYS; day++)
    if (!closed.includes(day)) totals.set(day, Math.round(100_000 * WEEK[weekdayOf(day)]! * noise(day)));
  return { totals, parts: new Map(), events: [] };
}

function changed(history: SiteHistory, day: number, cents: number): SiteHistory {
  return { ...history, totals: new Map([...history.totals, [day, cents]]) };
}

describe('forecast oracles', () => {
  const target = FIRST + 200;
  const noisy = site((day) => 0.7 + 0.6 * (((day * 7_919) % 101) / 100));

  it('never read the day they score, but read the days after it', () => {
    const poisoned = changed(noisy, target, 1e12);
    const later = changed(noisy, target + 7, 1e12);
    for (const oracle of ORACLES) {
      expect(oracle.level(poisoned, target, target - 3), oracle.key).toBe(
        oracle.level(noisy, target, target - 3),
      );
      if (!oracle.key.includes('before'))
        expect(oracle.level(later, target, target - 3), oracle.key).not.toBe(
          oracle.level(noisy, target, target - 3),
        );
    }
  });

  it('find the day of a noiseless level × weekly profile exactly', () => {
    const exact = site();
    for (const oracle of [
      sameWeekdayOracle(4),
      levelProfileOracle(28, 'all', 'both'),
      levelProfileOracle(28, 'all', 'origin'),
    ])
      expect(oracle.level(exact, target, target - 5)).toBeCloseTo(exact.totals.get(target)!, 6);
  });

  it('score a day 0 when closed as the engine sees it, or as it really was', () => {
    const shut = [target, target + 1];
    const history = site(() => 1, shut);
    const known: SiteHistory = {
      ...history,
      totals: new Map([...history.totals].filter(([d]) => d < target)),
    };
    const first = firstSalesDay(known.totals);
    const oracle = sameWeekdayOracle(4);
    // The engine cannot know: it forecasts the closed target as an ordinary day.
    expect(oracleForecast(oracle, history, known, first, target, target, 'engine', 1)).toBeGreaterThan(0);
    expect(oracleForecast(oracle, history, known, first, target, target, 'known', 1)).toBe(0);
    expect(oracleForecast(oracle, history, known, first, target, target + 2, 'known', 1)).toBeGreaterThan(0);

    const entered = withClosuresEntered(history, known, target, 14);
    expect(entered.events.map((e) => e.startDay)).toEqual(shut);
    const totals = forecastFrom(entered, target, 14).map((f) => f.total);
    expect(totals.slice(0, 2)).toEqual([0, 0]);
    expect(totals.slice(2).every((t) => t > 0)).toBe(true);
  });
});

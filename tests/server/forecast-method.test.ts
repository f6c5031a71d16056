/**
 * The forecast method of issue #31 on synthetic series with known laws (engine.ts, decision
 * 0017): the forecast is the mean day, not the median one, on log-normal sales; its 80 % range
 * holds 75–85 % of the days on a series with known noise; public holidays are those of the
 * site's country (two countries); closed days are not taught as zero sales, and a known closure
 * (a Negative 100 % event) forecasts 0; the level × profile member takes its weekly profile from
 * the last year before the origin, never from after it nor from longer ago.
 */
import { describe, expect, it } from 'vitest';
import { dayOf, weekdayOf } from '../../src/server/forecast/calendar.ts';
import {
  firstSalesDay,
  forecastFrom,
  PROFILE_WINDOW_DAYS,
  type SiteEvent,
  type SiteHistory,
  weeklyProfile,
} from '../../src/server/forecast/engine.ts';
import { publicHolidays } from '../../src/server/forecast/holidays.ts';

/** Monday … Sunday multipliers of a brasserie's week. */
const WEEK = [0.8, 0.85, 0.9, 1.0, 1.3, 1.5, 0.65];
const LEVEL = 100_000;

/** A seeded generator of uniform (0, 1) and standard normal draws (Box–Muller). */
function draws(seed: number) {
  let s = seed;
  const uniform = () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return (s + 1) / 2_147_483_650;
  };
  return {
    uniform,
    normal: () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()),
  };
}

/** `days` days ending the day before `end`, each `value(day)` cents (none when it answers 0). */
function history(
  end: number,
  days: number,
  value: (day: number) => number,
  extra: Partial<SiteHistory> = {},
): SiteHistory {
  const totals = new Map<number, number>();
  const parts = new Map<number, number[]>();
  for (let day = end - days; day < end; day++) {
    const cents = Math.round(value(day));
    if (cents <= 0) continue;
    totals.set(day, cents);
    const lunch = Math.round(cents * 0.4);
    parts.set(day, [0, lunch, 0, cents - lunch, 0, 0, 0]);
  }
  return { totals, parts, events: [], ...extra };
}

const END = dayOf('2026-06-01');

describe('forecast method (issue #31, synthetic series)', () => {
  it('forecasts the mean of log-normal sales, not their median (bias-corrected back-transform)', () => {
    const sigma = 0.6;
    const { normal } = draws(3);
    const mean = (day: number) => LEVEL * WEEK[weekdayOf(day)]!;
    // Median = mean × exp(−σ²/2) = 0.835 × mean.
    const values = new Map<number, number>();
    for (let day = END - 600; day < END; day++)
      values.set(day, mean(day) * Math.exp(sigma * normal() - (sigma * sigma) / 2));
    const full = history(END, 600, (day) => values.get(day)!);
    let forecast = 0;
    let legacy = 0;
    let expected = 0;
    for (let origin = END - 400; origin < END - 14; origin += 14) {
      const known = history(origin, 600 - (END - origin), (day) => full.totals.get(day) ?? 0);
      for (const f of forecastFrom(known, origin, 14)) forecast += f.total;
      for (const f of forecastFrom(known, origin, 14, { method: 'legacy' })) legacy += f.total;
      for (let day = origin; day < origin + 14; day++) expected += mean(day);
    }
    expect(Math.abs(forecast / expected - 1)).toBeLessThan(0.04);
    // The log model brought back without correction gives the median day (the bias of issue #31).
    expect(legacy / expected).toBeLessThan(0.9);
  });

  it('holds 75–85 % of the days inside the 80 % range on a series with known noise', () => {
    let inside = 0;
    let days = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const { normal } = draws(seed * 7919);
      const values = new Map<number, number>();
      for (let day = END - 500; day < END; day++)
        values.set(day, LEVEL * WEEK[weekdayOf(day)]! * Math.max(0.05, 1 + 0.25 * normal()));
      for (let origin = END - 280; origin <= END - 14; origin += 28) {
        const known = history(origin, 500 - (END - origin), (day) => values.get(day)!);
        for (const f of forecastFrom(known, origin, 14)) {
          const actual = Math.round(values.get(f.day)!);
          days++;
          if (actual >= f.range.low && actual <= f.range.high) inside++;
        }
      }
    }
    expect(days).toBe(6 * 10 * 14);
    expect(inside / days).toBeGreaterThanOrEqual(0.75);
    expect(inside / days).toBeLessThanOrEqual(0.85);
  });

  it('knows the public holidays of the site’s country: 14 July in France, 3 October in Germany', () => {
    const fr = publicHolidays({ country: 'FR' }, 2026, 2026);
    const de = publicHolidays({ country: 'DE' }, 2026, 2026);
    const gb = publicHolidays({ country: 'GB' }, 2026, 2026);
    expect(fr.get(dayOf('2026-07-14'))).toBe('Fête Nationale de la France');
    expect(de.has(dayOf('2026-07-14'))).toBe(false);
    expect(de.get(dayOf('2026-10-03'))).toBe('Tag der Deutschen Einheit');
    expect(fr.has(dayOf('2026-10-03'))).toBe(false);
    expect(gb.get(dayOf('2026-12-26'))).toBe('Boxing Day');
    expect(fr.has(dayOf('2026-12-26'))).toBe(false);
    // Regions: Epiphany is a holiday in Bavaria only.
    expect(publicHolidays({ country: 'DE', region: 'BY' }, 2026, 2026).has(dayOf('2026-01-06'))).toBe(true);
    expect(de.has(dayOf('2026-01-06'))).toBe(false);
  });

  it('forecasts a holiday as that holiday sold a year earlier, by the site’s country', () => {
    // A site selling half its usual on each French public holiday, for two years.
    const end = dayOf('2026-07-13');
    const fr = publicHolidays({ country: 'FR' }, 2024, 2026);
    const de = publicHolidays({ country: 'DE' }, 2024, 2026);
    const sales = (day: number) => LEVEL * WEEK[weekdayOf(day)]! * (fr.has(day) ? 0.5 : 1);
    const french = history(end, 730, sales, { holidays: fr });
    const german = history(end, 730, sales, { holidays: de });
    const julyFourteenth = dayOf('2026-07-14');
    const usual = LEVEL * WEEK[weekdayOf(julyFourteenth)]!;
    const inFrance = forecastFrom(french, end, 3)[1]!;
    expect(inFrance.day).toBe(julyFourteenth);
    expect(inFrance.holiday).toBe('Fête Nationale de la France');
    expect(inFrance.total / usual).toBeCloseTo(0.5, 1);
    // In Germany 14 July is an ordinary day: forecast as one.
    const inGermany = forecastFrom(german, end, 3)[1]!;
    expect(inGermany.holiday).toBeUndefined();
    expect(Math.abs(inGermany.total / usual - 1)).toBeLessThan(0.05);
  });

  it('does not teach days the site did not open as zero sales', () => {
    // Closed on a random 15 % of days (no sales row): the open days' level is what is forecast.
    const { uniform } = draws(42);
    const open = new Map<number, boolean>();
    for (let day = END - 200; day < END; day++) open.set(day, uniform() > 0.15);
    const h = history(END, 200, (day) => (open.get(day) ? LEVEL * WEEK[weekdayOf(day)]! : 0));
    expect(h.totals.size).toBeLessThan(180);
    const f = forecastFrom(h, END, 14);
    const forecast = f.reduce((s, d) => s + d.total, 0);
    const usual = f.reduce((s, d) => s + LEVEL * WEEK[weekdayOf(d.day)]!, 0);
    expect(Math.abs(forecast / usual - 1)).toBeLessThan(0.03);
  });

  it('forecasts 0 with a range of 0 on a known closure (a Negative 100 % event), and the days around as usual', () => {
    const closure: SiteEvent = {
      uuid: 'c1050c1e-0000-4000-8000-000000000001',
      startDay: END + 3,
      endDay: END + 4,
      factor: 0,
    };
    // A closure last month too: those days are not in the sales and must not lower the level.
    const past: SiteEvent = {
      uuid: 'c1050c1e-0000-4000-8000-000000000002',
      startDay: END - 30,
      endDay: END - 24,
      factor: 0,
    };
    const h = history(
      END,
      200,
      (day) => (day >= past.startDay && day <= past.endDay ? 0 : LEVEL * WEEK[weekdayOf(day)]!),
      { events: [closure, past] },
    );
    const f = forecastFrom(h, END, 7);
    for (const d of f) {
      if (d.day === END + 3 || d.day === END + 4) {
        expect(d).toMatchObject({ total: 0, range: { low: 0, high: 0 }, events: [closure.uuid] });
        expect(d.parts.every((p) => p === 0)).toBe(true);
      } else {
        expect(Math.abs(d.total / (LEVEL * WEEK[weekdayOf(d.day)]!) - 1)).toBeLessThan(0.02);
        expect(d.range.low).toBeLessThanOrEqual(d.total);
        expect(d.range.high).toBeGreaterThanOrEqual(d.total);
      }
    }
  });

  it('takes the weekly profile of its level × profile member from the year before the origin only', () => {
    const origin = END - 20;
    const sales = (day: number) => LEVEL * WEEK[weekdayOf(day)]!;
    const h = history(END, 700, sales);
    const first = firstSalesDay(h.totals)!;
    const week = WEEK.reduce((s, v) => s + v, 0) / 7;
    const profile = weeklyProfile(h, first, origin);
    for (let w = 0; w < 7; w++) expect(profile[w]).toBeCloseTo(WEEK[w]! / week, 6);
    const before = forecastFrom(h, origin, 14).map((d) => d.total);
    // Saturdays older than a year ×3 and every day from the origin on ×1000: nothing changes.
    const poisoned = history(END, 700, (day) =>
      day >= origin
        ? sales(day) * 1000
        : day < origin - PROFILE_WINDOW_DAYS && weekdayOf(day) === 5
          ? sales(day) * 3
          : sales(day),
    );
    expect(weeklyProfile(poisoned, first, origin)).toEqual(profile);
    expect(forecastFrom(poisoned, origin, 14).map((d) => d.total)).toEqual(before);
    // Saturdays ×1.4 within the year but before the 26-week fitting window: the profile and the
    // Saturdays forecast rise (the member reads the whole year), the other weekdays' ratios fall.
    const busier = history(END, 700, (day) =>
      day >= origin - PROFILE_WINDOW_DAYS && day < origin - 182 && weekdayOf(day) === 5
        ? sales(day) * 1.4
        : sales(day),
    );
    const changed = weeklyProfile(busier, first, origin);
    expect(changed[5]! / profile[5]!).toBeGreaterThan(1.1);
    expect(changed[0]!).toBeLessThan(profile[0]!);
    const saturday = before.findIndex((_, i) => weekdayOf(origin + i) === 5);
    expect(forecastFrom(busier, origin, 14)[saturday]!.total).toBeGreaterThan(before[saturday]! * 1.03);
  });
});

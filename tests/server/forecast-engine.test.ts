/**
 * The forecast engine on synthetic series (issue #19): the weekly pattern and the trend are
 * recovered, an event's impact is applied (and removed from the history it polluted), closed
 * days forecast 0, day parts follow the site's own shares, and the rolling backtest never reads
 * data on or after the week it forecasts.
 */
import { describe, expect, it } from 'vitest';
import { DAY_PARTS } from '../../src/contract/day-parts.ts';
import { dayOf, sameDayLastYear, weekdayOf, wireOf } from '../../src/server/forecast/calendar.ts';
import {
  forecastFrom,
  type SiteEvent,
  type SiteHistory,
  splitCents,
} from '../../src/server/forecast/engine.ts';
import { fitSiteModel, fitsOnWorker } from '../../src/server/forecast/fitting.ts';
import { SiteModel } from '../../src/server/forecast/model.ts';

/** Monday … Sunday multipliers of a brasserie's week. */
const WEEK = [0.8, 0.85, 0.9, 1.0, 1.3, 1.5, 0.65];
/** Day-part shares of every day (MORNING, LUNCH, AFTERNOON, DINNER, EVENING, NIGHT, PEAK_NIGHT). */
const SHARES = [0.1, 0.4, 0.05, 0.35, 0.1, 0, 0];
const ORIGIN = dayOf('2026-06-01'); // a Monday

/** Level 100,000 cents growing `trend` cents a day, times the weekday multiplier, with ±`noise` %. */
function synthetic(
  days: number,
  trend: number,
  noise = 0,
  seed = 7,
): SiteHistory & { value(day: number): number } {
  let s = seed;
  const random = () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
  const value = (day: number) => (100_000 + trend * (day - ORIGIN)) * WEEK[weekdayOf(day)]!;
  const totals = new Map<number, number>();
  const parts = new Map<number, number[]>();
  for (let day = ORIGIN - days; day < ORIGIN; day++) {
    const cents = Math.round(value(day) * (1 + noise * (random() * 2 - 1)));
    totals.set(day, cents);
    parts.set(day, splitCents(cents, SHARES));
  }
  return { totals, parts, events: [], value };
}

describe('forecast engine (synthetic series)', () => {
  it('recovers the weekly pattern and the trend within 3 %', () => {
    const h = synthetic(364, 50, 0.02);
    const f = forecastFrom(h, ORIGIN, 14);
    expect(f.map((d) => d.day)).toEqual(Array.from({ length: 14 }, (_, i) => ORIGIN + i));
    for (const d of f) expect(Math.abs(d.total / h.value(d.day) - 1)).toBeLessThan(0.03);
    // Saturday above Sunday, as in the history, and the trend carried on: week 2 above week 1.
    expect(f[5]!.total).toBeGreaterThan(f[6]!.total * 2);
    expect(f[12]!.total).toBeGreaterThan(f[5]!.total);
  });

  it('splits each day into day parts by the site’s own shares, summing to the total', () => {
    const f = forecastFrom(synthetic(120, 0), ORIGIN, 7);
    for (const d of f) {
      expect(d.parts.reduce((s, v) => s + v, 0)).toBe(d.total);
      const lunch = DAY_PARTS.findIndex((p) => p.key === 'LUNCH');
      expect(d.parts[lunch]! / d.total).toBeCloseTo(0.4, 3);
    }
  });

  it('raises a day under a Positive 20 % event by 20 % and lowers one under a Negative 30 % event by 30 %', () => {
    const h = synthetic(200, 20, 0.01);
    const plain = forecastFrom(h, ORIGIN, 14);
    const events: SiteEvent[] = [
      { uuid: '00000000-0000-4000-8000-000000000001', startDay: ORIGIN + 4, endDay: ORIGIN + 4, factor: 1.2 },
      {
        uuid: '00000000-0000-4000-8000-000000000002',
        startDay: ORIGIN + 9,
        endDay: ORIGIN + 10,
        factor: 0.7,
      },
    ];
    const withEvents = forecastFrom({ ...h, events }, ORIGIN, 14);
    expect(withEvents[4]!.total / plain[4]!.total).toBeCloseTo(1.2, 3);
    expect(withEvents[4]!.events).toEqual([events[0]!.uuid]);
    expect(withEvents[9]!.total / plain[9]!.total).toBeCloseTo(0.7, 3);
    expect(withEvents[10]!.events).toEqual([events[1]!.uuid]);
    expect(withEvents[3]!.total).toBe(plain[3]!.total);
    expect(withEvents[3]!.events).toEqual([]);
  });

  it('de-adjusts history days under an event, so a past promotion does not raise the level', () => {
    const h = synthetic(200, 0);
    const plain = forecastFrom(h, ORIGIN, 7);
    // The last three Saturdays sold 50 % more under a recorded Positive 50 % event.
    const totals = new Map(h.totals);
    const events: SiteEvent[] = [];
    for (const k of [1, 2, 3]) {
      const saturday = ORIGIN - 7 * k + 5;
      totals.set(saturday, Math.round(totals.get(saturday)! * 1.5));
      events.push({
        uuid: `00000000-0000-4000-8000-00000000010${k}`,
        startDay: saturday,
        endDay: saturday,
        factor: 1.5,
      });
    }
    const adjusted = forecastFrom({ ...h, totals, events }, ORIGIN, 7);
    const unadjusted = forecastFrom({ ...h, totals }, ORIGIN, 7);
    expect(Math.abs(adjusted[5]!.total / plain[5]!.total - 1)).toBeLessThan(0.01);
    expect(unadjusted[5]!.total / plain[5]!.total).toBeGreaterThan(1.05);
  });

  it('does not let a one-off order (20 × a Saturday) raise the next Saturdays', () => {
    const h = synthetic(200, 0, 0.03);
    const plain = forecastFrom(h, ORIGIN, 7);
    const totals = new Map(h.totals);
    const saturday = ORIGIN - 9;
    totals.set(saturday, totals.get(saturday)! * 20);
    const spiked = forecastFrom({ ...h, totals }, ORIGIN, 7);
    expect(Math.abs(spiked[5]!.total / plain[5]!.total - 1)).toBeLessThan(0.03);
  });

  it('forecasts 0 on a weekday closed in each of the last 3 weeks, and only on it', () => {
    const h = synthetic(200, 0);
    const totals = new Map(h.totals);
    for (const k of [1, 2, 3]) totals.delete(ORIGIN - 7 * k + 6); // the last three Sundays
    const f = forecastFrom({ ...h, totals }, ORIGIN, 14);
    for (const d of f) {
      if (weekdayOf(d.day) === 6) expect(d.total).toBe(0);
      else expect(d.total).toBeGreaterThan(50_000);
    }
    // Closed by a recorded Negative 100 % event (roadworks): not a closing day once it ends.
    const emptied: SiteEvent = {
      uuid: '00000000-0000-4000-8000-000000000201',
      startDay: ORIGIN - 21,
      endDay: ORIGIN - 1,
      factor: 0,
    };
    const roadworks = new Map(h.totals);
    for (let day = ORIGIN - 21; day < ORIGIN; day++) roadworks.delete(day);
    const after = forecastFrom({ ...h, totals: roadworks, events: [emptied] }, ORIGIN, 7);
    for (const d of after) expect(d.total / h.value(d.day)).toBeGreaterThan(0.9);
    // Closed only twice: not a closed weekday yet.
    const twice = new Map(h.totals);
    for (const k of [1, 2]) twice.delete(ORIGIN - 7 * k + 6);
    expect(forecastFrom({ ...h, totals: twice }, ORIGIN, 7)[6]!.total).toBeGreaterThan(30_000);
  });

  it('keeps a weekly closing day the site opened once closed, but not the days of a site that has just opened', () => {
    const h = synthetic(200, 0);
    // Closed every Tuesday for 8 weeks but the last one (a Christmas Eve): Tuesdays stay closed.
    const habit = new Map(h.totals);
    for (const k of [2, 3, 4, 5, 6, 7, 8]) habit.delete(ORIGIN - 7 * k + 1);
    const f = forecastFrom({ ...h, totals: habit }, ORIGIN, 14);
    for (const d of f) {
      if (weekdayOf(d.day) === 1) expect(d.total).toBe(0);
      else expect(d.total).toBeGreaterThan(50_000);
    }
    // Closed on 5 Tuesdays of 8 only: not a habit.
    const five = new Map(h.totals);
    for (const k of [2, 3, 4, 5, 6]) five.delete(ORIGIN - 7 * k + 1);
    expect(forecastFrom({ ...h, totals: five }, ORIGIN, 7)[1]!.total).toBeGreaterThan(30_000);
    // A site that traded one week after months shut, then shut 3 days: its weekdays are not all closed.
    const opening = new Map([...h.totals].filter(([day]) => day >= ORIGIN - 8 && day < ORIGIN - 3));
    opening.set(ORIGIN - 150, 100_000);
    const reopened = forecastFrom({ ...h, totals: opening }, ORIGIN, 7);
    expect(reopened.filter((d) => d.total > 0).length).toBeGreaterThanOrEqual(4);
  });

  it('forecasts 0 on a calendar day closed a year earlier (25 December), open days around it', () => {
    const origin = dayOf('2026-12-21');
    const h = synthetic(500, 0);
    const totals = new Map<number, number>();
    for (let day = origin - 500; day < origin; day++) totals.set(day, 100_000);
    totals.delete(dayOf('2025-12-25'));
    const f = forecastFrom({ ...h, totals }, origin, 14);
    const christmas = f.find((d) => wireOf(d.day) === '2026-12-25')!;
    expect(christmas.total).toBe(0);
    expect(christmas.parts.every((p) => p === 0)).toBe(true);
    expect(f.find((d) => wireOf(d.day) === '2026-12-24')!.total).toBeGreaterThan(90_000);
    expect(sameDayLastYear(dayOf('2028-02-29'))).toBe(dayOf('2027-02-28'));
  });

  it('backtests never read data on or after the week they forecast (later data poisoned)', () => {
    const h = synthetic(400, 30, 0.05);
    const clean = new SiteModel(h, ORIGIN);
    for (let k = 1; k <= 8; k++) {
      const origin = ORIGIN - 7 * k;
      const totals = new Map(h.totals);
      const parts = new Map(h.parts);
      for (let day = origin; day < ORIGIN; day++) {
        totals.set(day, 10 * totals.get(day)! + 123_457 * k);
        parts.set(day, [1, 0, 0, 0, 0, 0, 999_999]);
      }
      totals.delete(origin + 6); // and a "closed" day in the forecast week itself
      const poisoned = new SiteModel({ ...h, totals, parts }, ORIGIN);
      expect(poisoned.week(origin)).toEqual(clean.week(origin));
    }
    // A past day shows the forecast of its backtest week; an older one, that of its 28-day block,
    // made from the data before the block only.
    expect(clean.day(ORIGIN - 10)).toEqual(clean.week(ORIGIN - 14)[4]);
    const blockStart = ORIGIN - 56 - 28;
    expect(clean.day(blockStart + 20)).toEqual(clean.block(blockStart)[20]);
    const totals = new Map(h.totals);
    for (let day = blockStart; day < ORIGIN; day++) totals.set(day, 1);
    expect(new SiteModel({ ...h, totals }, ORIGIN).day(blockStart + 20)).toEqual(clean.day(blockStart + 20));
  });

  it('measures WAPE and bias on the last 8 weeks, overall and per day part, and beats the naive forecast on a noisy trend', () => {
    const h = synthetic(400, 30, 0.08);
    // Actuals of the 8 backtest weeks follow the same law.
    const b = new SiteModel(h, ORIGIN - 0).backtest();
    expect(b.ours.weeks).toBe(8);
    expect(b.ours.wape).toBeGreaterThan(0);
    expect(b.ours.wape!).toBeLessThan(0.9 * b.naive.wape!);
    expect(Math.abs(b.ours.bias!)).toBeLessThan(0.05);
    expect(b.ours.byDayPart.map((p) => p.key)).toEqual(DAY_PARTS.map((p) => p.key));
    const night = b.ours.byDayPart.find((p) => p.key === 'NIGHT')!;
    expect(night.wape).toBeNull(); // no sales at night: nothing to measure against
    expect(b.ours.byDayPart.find((p) => p.key === 'LUNCH')!.wape).toBeGreaterThan(0);
  });

  it('answers zeros without history and same-weekday means on a short one', () => {
    const empty = forecastFrom({ totals: new Map(), parts: new Map(), events: [] }, ORIGIN, 7);
    expect(empty.every((d) => d.total === 0)).toBe(true);
    const short = synthetic(14, 0);
    const f = forecastFrom(short, ORIGIN, 7);
    for (const d of f) expect(d.total).toBe(Math.round(short.value(d.day)));
    const b = new SiteModel({ totals: new Map(), parts: new Map(), events: [] }, ORIGIN).backtest();
    expect(b.ours).toMatchObject({ wape: null, bias: null, weeks: 0 });
  });

  it('fits on the worker thread what the calling thread would have fitted', async () => {
    const h = synthetic(300, 25, 0.05);
    const onWorker = await fitSiteModel(h, ORIGIN);
    expect(fitsOnWorker()).toBe(true);
    const here = new SiteModel(h, ORIGIN);
    expect(onWorker.backtest()).toEqual(here.backtest());
    expect(onWorker.day(ORIGIN + 3)).toEqual(here.day(ORIGIN + 3));
    expect(onWorker.day(ORIGIN - 20)).toEqual(here.day(ORIGIN - 20));
  });
});

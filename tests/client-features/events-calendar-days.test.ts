/**
 * What the events calendar computes of its days (features/events/calendar-days.ts): the period of
 * a month or a week (Monday to Sunday), moving by one, a day's events, the forecast of the chosen
 * sites summed for a day, and one reliability for several sites, weighted by their forecast;
 * the same per day part.
 */
import { describe, expect, it } from 'vitest';
import type { LocalEvent } from '../../src/contract/events.ts';
import {
  dayPartsOn,
  daysOf,
  eventsOn,
  type ForecastData,
  forecastOn,
  periodOf,
  reliabilityOf,
  shiftDay,
  tooLittleHistory,
} from '../../src/client/features/events/calendar-days.ts';

const site = (siteId: number, wape: number | null, days: [string, number, number | null][]) => ({
  siteId,
  days: days.map(([fiscalDate, forecastCents, actualCents]) => ({
    fiscalDate,
    forecastCents,
    dayParts: [],
    actualCents,
    events: [],
  })),
  reliability: { wape, bias: null, weeks: wape === null ? 0 : 8, byDayPart: [] },
});

describe('the calendar days', () => {
  it('covers a whole month, or a week from Monday to Sunday, and moves by one of them', () => {
    expect(periodOf('month', '2026-02-14')).toEqual({ dateDebut: '2026-02-01', dateFin: '2026-02-28' });
    // 26/11/2026 is a Thursday.
    expect(periodOf('week', '2026-11-26')).toEqual({ dateDebut: '2026-11-23', dateFin: '2026-11-29' });
    expect(periodOf('week', '2026-11-29')).toEqual({ dateDebut: '2026-11-23', dateFin: '2026-11-29' });
    expect(shiftDay('month', '2026-01-31', 1)).toBe('2026-02-01');
    expect(shiftDay('week', '2026-12-28', 1)).toBe('2027-01-04');
    expect(daysOf({ dateDebut: '2026-02-27', dateFin: '2026-03-02' })).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
  });

  it('finds the events running on a day, first and last days included', () => {
    const event = (uuid: string, dateDebut: string, dateFin: string) =>
      ({ uuid_evt: uuid, dateDebut, dateFin }) as LocalEvent;
    const events = [event('a', '2026-06-10', '2026-06-12'), event('b', '2026-06-12', '2026-06-12')];
    expect(eventsOn(events, '2026-06-12').map((e) => e.uuid_evt)).toEqual(['a', 'b']);
    expect(eventsOn(events, '2026-06-10').map((e) => e.uuid_evt)).toEqual(['a']);
    expect(eventsOn(events, '2026-06-13')).toEqual([]);
  });

  it('sums the sites’ forecast of a day, and their actual sales once any site has some', () => {
    const data: ForecastData = {
      method: 'MSTL',
      currency: 'EUR',
      sites: [
        site(1, 0.1, [
          ['2026-06-12', 100_00, 90_00],
          ['2026-06-13', 120_00, null],
        ]),
        site(2, 0.3, [
          ['2026-06-12', 300_00, null],
          ['2026-06-13', 280_00, null],
        ]),
      ],
    };
    expect(forecastOn(data, '2026-06-12')).toEqual({ forecastCents: 400_00, actualCents: 90_00 });
    expect(forecastOn(data, '2026-06-13')).toEqual({ forecastCents: 400_00, actualCents: null });
    expect(forecastOn(data, '2026-06-14')).toBeNull();
    expect(forecastOn(undefined, '2026-06-12')).toBeNull();
  });

  it('weights each site’s WAPE by its forecast; a site without a backtest does not count', () => {
    const data: ForecastData = {
      method: 'MSTL',
      currency: 'EUR',
      sites: [
        site(1, 0.1, [['2026-06-12', 100_00, null]]),
        site(2, 0.3, [['2026-06-12', 300_00, null]]),
        site(3, null, [['2026-06-12', 500_00, null]]),
      ],
    };
    const r = reliabilityOf(data);
    expect(r?.wape).toBeCloseTo((0.1 * 100 + 0.3 * 300) / 400, 10);
    expect(r?.weeks).toBe(8);
    expect(reliabilityOf({ ...data, sites: [data.sites[2]!] })).toBeNull();
  });

  it('sums each day part over the sites, weights each part’s WAPE, and leaves out the parts at 0', () => {
    const parts = (lunch: number, dinner: number) => [
      { key: 'MORNING' as const, forecastCents: 0 },
      { key: 'LUNCH' as const, forecastCents: lunch },
      { key: 'DINNER' as const, forecastCents: dinner },
    ];
    const reliability = (lunch: number | null, dinner: number | null) => ({
      wape: 0.2,
      bias: null,
      weeks: 8,
      byDayPart: [
        { key: 'LUNCH' as const, wape: lunch, bias: null, weeks: lunch === null ? 0 : 8 },
        { key: 'DINNER' as const, wape: dinner, bias: null, weeks: dinner === null ? 0 : 8 },
      ],
    });
    const day = (fiscalDate: string, lunch: number, dinner: number) => ({
      fiscalDate,
      forecastCents: lunch + dinner,
      dayParts: parts(lunch, dinner),
      actualCents: null,
      events: [],
    });
    const data: ForecastData = {
      method: 'MSTL',
      currency: 'EUR',
      sites: [
        { siteId: 1, days: [day('2026-06-12', 100_00, 0)], reliability: reliability(0.1, null) },
        { siteId: 2, days: [day('2026-06-12', 300_00, 200_00)], reliability: reliability(0.3, 0.25) },
      ],
    };
    const shown = dayPartsOn(data, '2026-06-12');
    expect(shown?.map((p) => [p.key, p.forecastCents])).toEqual([
      ['LUNCH', 400_00],
      ['DINNER', 200_00],
    ]);
    expect(shown?.[0]?.wape).toBeCloseTo((0.1 * 100 + 0.3 * 300) / 400, 10);
    // Only site 2 measured its dinners.
    expect(shown?.[1]?.wape).toBeCloseTo(0.25, 10);
    expect(dayPartsOn(data, '2026-06-13')).toBeNull();
    expect(dayPartsOn(undefined, '2026-06-12')).toBeNull();
  });

  it('adds the sites’ 80 % ranges (root of the summed squares), marks small day parts uncertain, and says when history is too short', () => {
    const day = (
      siteId: number,
      forecastCents: number,
      lowCents: number,
      highCents: number,
      lunchShare: number,
    ) => ({
      siteId,
      days: [
        {
          fiscalDate: '2026-06-12',
          forecastCents,
          lowCents,
          highCents,
          dayParts: [
            {
              key: 'LUNCH' as const,
              forecastCents: forecastCents * lunchShare,
              lowCents: 0,
              highCents: forecastCents,
            },
            {
              key: 'DINNER' as const,
              forecastCents: forecastCents * (1 - lunchShare),
              lowCents: 0,
              highCents: forecastCents,
            },
          ],
          actualCents: null,
          events: [],
        },
      ],
      reliability: { wape: 0.2, bias: 0, weeks: 8, horizonDays: 7, byDayPart: [] },
    });
    const one: ForecastData = {
      method: 'M',
      currency: 'EUR',
      sites: [day(1, 1000_00, 700_00, 1400_00, 0.1)],
    };
    expect(forecastOn(one, '2026-06-12')?.range).toEqual({ lowCents: 700_00, highCents: 1400_00 });
    const two: ForecastData = { ...one, sites: [...one.sites, day(2, 1000_00, 700_00, 1400_00, 0.1)] };
    // 2,000 − √(300² + 300²) = 1,575.74; 2,000 + √(400² + 400²) = 2,565.69.
    expect(forecastOn(two, '2026-06-12')?.range).toEqual({ lowCents: 1575_74, highCents: 2565_69 });
    const parts = dayPartsOn(one, '2026-06-12');
    expect(parts?.map((p) => [p.key, p.uncertain])).toEqual([
      ['LUNCH', true],
      ['DINNER', false],
    ]);
    expect(parts?.[0]?.range).toEqual({ lowCents: 0, highCents: 1000_00 });
    expect(reliabilityOf(one)).toEqual({ wape: 0.2, weeks: 8, horizonDays: 7 });
    expect(tooLittleHistory(one)).toBeNull();
    const short: ForecastData = {
      ...one,
      sites: one.sites.map((s) => ({ ...s, reliability: { ...s.reliability, weeks: 3 } })),
    };
    expect(tooLittleHistory(short)).toBe(3);
    // An answer saved before issue #31 (no horizonDays) is shown as it was.
    const old: ForecastData = {
      ...one,
      sites: short.sites.map((s) => ({ ...s, reliability: { wape: 0.2, bias: 0, weeks: 3, byDayPart: [] } })),
    };
    expect(tooLittleHistory(old)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import {
  comparisonTotals,
  dailyComparison,
  salesBars,
  topBars,
} from '../../src/client/features/graphs/graph-series.ts';
import { tickLabel } from '../../src/client/ui/bar-chart.tsx';

function dataset(partial: Partial<Dataset>): Dataset {
  return {
    className: 'X',
    variant: 'Daily',
    title: 'X',
    currency: 'EUR',
    dateDebut: '2026-11-02',
    dateFin: '2026-11-05',
    sites: [{ restaurantId: 1, libelle: 'Lyon' }],
    generatedAt: '2026-11-22T10:00:00Z',
    columns: [],
    rows: [],
    totals: {},
    ...partial,
  };
}

describe('sales over time with the year-earlier line', () => {
  it('gives every date of the period, closed days at 0, each facing the same weekday 364 days earlier', () => {
    const points = dailyComparison(
      dataset({
        rows: [
          { fiscalDate: '2026-11-02', netSales: 10_000, previousNetSales: 9_000 },
          { fiscalDate: '2026-11-04', netSales: 0, previousNetSales: 4_000 },
        ],
      }),
    );
    expect(points).toEqual([
      { date: '2026-11-02', previousDate: '2025-11-03', net: 10_000, previousNet: 9_000 },
      { date: '2026-11-03', previousDate: '2025-11-04', net: 0, previousNet: 0 },
      { date: '2026-11-04', previousDate: '2025-11-05', net: 0, previousNet: 4_000 },
      { date: '2026-11-05', previousDate: '2025-11-06', net: 0, previousNet: 0 },
    ]);
    // 2 November 2026 and 3 November 2025 are both Mondays.
    expect(new Date('2026-11-02T12:00:00Z').getUTCDay()).toBe(new Date('2025-11-03T12:00:00Z').getUTCDay());
  });

  it('adds up the rows of several sites on the same date', () => {
    const points = dailyComparison(
      dataset({
        dateFin: '2026-11-02',
        rows: [
          { fiscalDate: '2026-11-02', siteId: 1, netSales: 1_000, previousNetSales: 500 },
          { fiscalDate: '2026-11-02', siteId: 2, netSales: 2_500, previousNetSales: null },
        ],
      }),
    );
    expect(points).toEqual([
      { date: '2026-11-02', previousDate: '2025-11-03', net: 3_500, previousNet: 500 },
    ]);
  });

  it('crosses a leap day and a month end without losing or doubling a date', () => {
    const points = dailyComparison(dataset({ dateDebut: '2028-02-27', dateFin: '2028-03-01' }));
    expect(points.map((p) => p.date)).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(points.map((p) => p.previousDate)).toEqual([
      '2027-02-28',
      '2027-03-01',
      '2027-03-02',
      '2027-03-03',
    ]);
    const weekday = (d: string) => new Date(`${d}T12:00:00Z`).getUTCDay();
    expect(points.map((p) => weekday(p.previousDate))).toEqual(points.map((p) => weekday(p.date)));
  });

  it('totals both lines and gives the variance as a fraction of last year, none when last year sold nothing', () => {
    expect(
      comparisonTotals([
        { date: 'a', previousDate: 'b', net: 11_000, previousNet: 8_000 },
        { date: 'c', previousDate: 'd', net: 1_000, previousNet: 2_000 },
      ]),
    ).toEqual({ net: 12_000, previousNet: 10_000, coverage: 'full', variance: 0.2 });
    expect(comparisonTotals([{ date: 'a', previousDate: 'b', net: 500, previousNet: 0 }])).toMatchObject({
      coverage: 'none',
      variance: null,
    });
  });

  it('gives no variance when a year earlier sold on fewer days than the period (issue #20 item 13)', () => {
    // A site opened late last year: one day of sales then against a full week now is no "+400 %".
    const week = ['01', '02', '03', '04', '05', '06', '07'].map((d, i) => ({
      date: `2026-11-${d}`,
      previousDate: `2025-11-${d}`,
      net: 100_000,
      previousNet: i === 6 ? 140_000 : 0,
    }));
    expect(comparisonTotals(week)).toEqual({
      net: 700_000,
      previousNet: 140_000,
      coverage: 'partial',
      variance: null,
    });
  });

  it('refuses a dataset whose period is not made of wire dates', () => {
    expect(() => dailyComparison(dataset({ dateDebut: '02/11/2026' }))).toThrow(RangeError);
  });
});

describe('bars by family, day part and seller', () => {
  it('labels each bar from the chosen column, in the server order, a missing label read as not set', () => {
    const bars = salesBars(
      dataset({
        rows: [
          { dayPart: 'Matin', netSales: 1_200 },
          { dayPart: 'Midi', netSales: 5_400 },
          { dayPart: null, netSales: 100 },
        ],
      }),
      'dayPart',
      { notSet: '—' },
    );
    expect(bars.map((b) => [b.label, b.value])).toEqual([
      ['Matin', 1_200],
      ['Midi', 5_400],
      ['—', 100],
    ]);
  });

  it('gives the site of each seller as the bar detail only when several sites are shown', () => {
    const rows = [
      { seller: 'Alice', site: 'Lyon', netSales: 3_000 },
      { seller: 'Alice', site: 'Nantes', netSales: 2_000 },
    ];
    const one = salesBars(dataset({ rows }), 'seller', { notSet: '?', siteKey: 'site' });
    expect(one.map((b) => [b.label, b.detail])).toEqual([
      ['Alice', undefined],
      ['Alice', undefined],
    ]);
    const two = salesBars(
      dataset({
        rows,
        sites: [
          { restaurantId: 1, libelle: 'Lyon' },
          { restaurantId: 2, libelle: 'Nantes' },
        ],
      }),
      'seller',
      { notSet: '?', siteKey: 'site' },
    );
    expect(two.map((b) => [b.label, b.detail])).toEqual([
      ['Alice', 'Lyon'],
      ['Alice', 'Nantes'],
    ]);
  });

  it('keeps the largest bars and adds the rest up into one last bar', () => {
    const bars = [5, 50, 20, 1, 30].map((v, i) => ({ key: `${i}`, label: `L${v}`, value: v }));
    expect(topBars(bars, 3, 'Autres').map((b) => [b.label, b.value])).toEqual([
      ['L50', 50],
      ['L30', 30],
      ['L20', 20],
      ['Autres', 6],
    ]);
    expect(topBars(bars, 5, 'Autres')).toHaveLength(5);
  });

  it('cuts long axis labels to 15 characters with an ellipsis and leaves short ones whole', () => {
    expect(tickLabel('Plats')).toBe('Plats');
    expect(tickLabel('Boissons sans alcool')).toBe('Boissons sans…');
    expect(tickLabel('Boissons sans alcool')).toHaveLength(14);
    expect(tickLabel('Exactement 15 c')).toBe('Exactement 15 c');
  });
});

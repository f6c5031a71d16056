/**
 * The `ventes` widget's like-for-like comparison (decision 0028): with a fixed "now" given to the
 * domain function, today so far meets last year's same weekday up to the same hour of each
 * site's own clock — across an hour boundary, a business day starting at 05:30 (its night hours
 * after midnight), sites in two time zones — and a past or future datePerso answers null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeSales } from '../../src/server/home/home-sales.ts';
import { hoursSoFar } from '../../src/server/reference/fiscal-hours.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { type Chain, seedChain } from './fixtures.ts';

const TODAY = '2026-03-02';
const LAST_YEAR = '2025-03-03'; // 364 days before: a Monday too

describe('home ventes: today so far against last year up to the same hour', () => {
  let database: TestDatabase;
  let chain: Chain;

  /** Hour rows of `site`: [fiscal date, hour, tickets, covers, net cents]. */
  async function hours(site: number, rows: [string, number, number, number, number][]) {
    for (const [date, hour, tickets, covers, net] of rows) {
      await database.pool.query(
        `INSERT INTO daily_hour_sales (site_id, fiscal_date, hour, tickets, covers, net_cents, net_excl_cents, tax_cents)
         VALUES ($1, $2, $3, $4, $5, $6, $6, 0)`,
        [site, date, hour, tickets, covers, net],
      );
    }
  }

  /** The widget's `soFar` for `sites` on `fiscalDate` at instant `now` (ISO, UTC). */
  async function soFar(sites: number[], fiscalDate: string, now: string) {
    const answer = await homeSales(database.pool, {
      siteIds: sites,
      scope: Object.values(chain.sites),
      rights: ['RAPPORTS'],
      fiscalDate,
      userCurrency: 'EUR',
      now: new Date(now),
    });
    return answer.data.soFar;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    chain = await seedChain(database.pool);
    const { paris, lyon, nantes } = chain.sites;
    // Paris: midnight start, Europe/Paris (UTC+1 in March). Lyon: a bar whose day starts at 05:30.
    // Nantes: moved to New York (UTC−5 until 8 March 2026) to meet a second clock.
    await database.pool.query(`UPDATE sites SET day_start = '05:30' WHERE id = $1`, [lyon]);
    await database.pool.query(`UPDATE sites SET time_zone = 'America/New_York' WHERE id = $1`, [nantes]);
    await hours(paris, [
      [TODAY, 10, 2, 1, 1000],
      [TODAY, 11, 3, 2, 2000],
      [LAST_YEAR, 10, 1, 1, 1500],
      [LAST_YEAR, 11, 4, 3, 4000],
      [LAST_YEAR, 12, 9, 6, 9000],
      [LAST_YEAR, 16, 1, 0, 100],
      [LAST_YEAR, 17, 2, 0, 200],
    ]);
    await hours(lyon, [
      [TODAY, 5, 1, 0, 700], // 05:30–06:00 on the 2nd (and 05:00–05:30 on the 3rd)
      [TODAY, 23, 4, 0, 4000],
      [TODAY, 1, 5, 0, 5000], // 01:00–02:00 on the 3rd, still the 2nd's business day
      [LAST_YEAR, 5, 1, 0, 300],
      [LAST_YEAR, 23, 2, 0, 2500],
      [LAST_YEAR, 1, 3, 0, 3500],
      [LAST_YEAR, 2, 6, 0, 6000], // 02:00–03:00: under way today, so on neither side
    ]);
    await hours(nantes, [
      [LAST_YEAR, 10, 1, 0, 50],
      [LAST_YEAR, 11, 1, 0, 70],
      [LAST_YEAR, 16, 1, 0, 300],
    ]);
  });
  afterAll(async () => {
    await database.close();
  });

  it('counts the hours fully elapsed, the same on both sides, and moves at the hour', async () => {
    const { paris } = chain.sites;
    // 11:59:59 in Paris: hours up to 10 are over, 11 is under way (on neither side).
    expect(await soFar([paris], TODAY, '2026-03-02T10:59:59Z')).toEqual({
      until: '11:00',
      today: { fiscalDate: TODAY, tickets: 2, covers: 1, netSales: 1000, averageTicket: 500 },
      lastYear: { fiscalDate: LAST_YEAR, tickets: 1, covers: 1, netSales: 1500, averageTicket: 1500 },
    });
    // 12:00:00 in Paris: hour 11 is over, on both sides; last year's 12:00 is not counted yet.
    expect(await soFar([paris], TODAY, '2026-03-02T11:00:00Z')).toEqual({
      until: '12:00',
      today: { fiscalDate: TODAY, tickets: 5, covers: 3, netSales: 3000, averageTicket: 600 },
      lastYear: { fiscalDate: LAST_YEAR, tickets: 5, covers: 4, netSales: 5500, averageTicket: 1100 },
    });
  });

  it('follows a business day that starts at 05:30 through midnight', async () => {
    const { lyon } = chain.sites;
    // 02:30 on the 3rd in Lyon is still the 2nd's business day: 05:30 to 02:00 is over.
    expect(await soFar([lyon], TODAY, '2026-03-03T01:30:00Z')).toEqual({
      until: '02:00',
      today: { fiscalDate: TODAY, tickets: 10, covers: 0, netSales: 9700, averageTicket: 970 },
      lastYear: { fiscalDate: LAST_YEAR, tickets: 6, covers: 0, netSales: 6300, averageTicket: 1050 },
    });
    // 05:45 on the 2nd: the day began 15 minutes ago, no hour of it is over.
    expect(await soFar([lyon], TODAY, '2026-03-02T04:45:00Z')).toMatchObject({
      until: '05:30',
      today: { netSales: 0, tickets: 0 },
      lastYear: { netSales: 0, tickets: 0 },
    });
    // 06:00 on the 2nd: its first (half) hour is over.
    expect(await soFar([lyon], TODAY, '2026-03-02T05:00:00Z')).toMatchObject({
      until: '06:00',
      today: { netSales: 700 },
      lastYear: { netSales: 300 },
    });
  });

  it('counts each site up to its own clock’s hour', async () => {
    const { paris, nantes } = chain.sites;
    // 17:30 in Paris, 11:30 in New York: Paris up to 17:00, Nantes up to 11:00.
    expect(await soFar([paris, nantes], TODAY, '2026-03-02T16:30:00Z')).toMatchObject({
      until: null,
      today: { netSales: 3000 },
      lastYear: { netSales: 1500 + 4000 + 9000 + 100 + 50 },
    });
  });

  it('compares a day already over at one site whole, while the other is under way', async () => {
    const { paris, lyon } = chain.sites;
    // 02:30 on the 3rd: Paris's 2nd is over (all of it), Lyon's still runs until 05:30.
    expect(await soFar([paris, lyon], TODAY, '2026-03-03T01:30:00Z')).toMatchObject({
      until: '02:00',
      today: { netSales: 1000 + 2000 + 9700 },
      lastYear: { netSales: 1500 + 4000 + 9000 + 100 + 200 + 6300 },
    });
  });

  it('answers null for a past day, and for a day not begun anywhere', async () => {
    const { paris, lyon } = chain.sites;
    expect(await soFar([paris, lyon], '2026-03-01', '2026-03-02T10:00:00Z')).toBeNull();
    expect(await soFar([paris, lyon], '2026-03-03', '2026-03-02T10:00:00Z')).toBeNull();
  });

  it('counts the hour holding a 05:30 start as the day’s first', () => {
    const bar = { timeZone: 'Europe/Paris', dayStart: '05:30' };
    // 05:15 on the 3rd: the 2nd's last quarter of an hour; every hour counts, until 05:00.
    const last = hoursSoFar(new Date('2026-03-03T04:15:00Z'), bar, TODAY);
    expect(last).toEqual({ hours: Array.from({ length: 24 }, (_, h) => h), until: '05:00' });
  });
});

/**
 * The backtest harness (bench/forecast-backtest.ts, issue #31) never lets a forecast made at
 * origin T read data of T or later: on a synthetic site in the test database, the sales of the
 * days from T on are then changed to absurd values (×1000, some days deleted, day parts moved
 * to the night) and the history read again; the forecasts made at T — by the harness, and by
 * the engine handed the whole poisoned history — are the same to the cent. Also: a site's public
 * holidays come from its country (extras.country, else its time zone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtestHistory, forecastsAt, HORIZON_DAYS } from '../../bench/forecast-backtest.ts';
import { weekdayOf, wireOf } from '../../src/server/forecast/calendar.ts';
import { forecastFrom } from '../../src/server/forecast/engine.ts';
import { readSiteHistory } from '../../src/server/forecast/history.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const WEEK = [0.8, 0.85, 0.9, 1.0, 1.3, 1.5, 0.65];
/** Last day of the synthetic history (a Sunday) and the origin tested, 5 weeks before its end. */
const LAST = 20_457; // 2026-01-04
const ORIGIN = LAST - 34;
const DAYS = 300;

describe('forecast backtest harness: no leakage', () => {
  let db: TestDatabase;
  let siteId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { rows: company } = await db.pool.query<{ id: number }>(
      `INSERT INTO companies (raison_sociale) VALUES ('Synthetic') RETURNING id`,
    );
    const { rows: site } = await db.pool.query<{ id: number }>(
      `INSERT INTO sites (libelle, company_id, time_zone) VALUES ('Synthetic', $1, 'Europe/Paris') RETURNING id`,
      [company[0]!.id],
    );
    siteId = site[0]!.id;
    let s = 11;
    const random = () => {
      s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
      return s / 2_147_483_648;
    };
    const rows: string[] = [];
    const hours: string[] = [];
    for (let day = LAST - DAYS + 1; day <= LAST; day++) {
      const net = Math.round(100_000 * WEEK[weekdayOf(day)]! * (0.8 + 0.4 * random()));
      const lunch = Math.round(net * (0.3 + 0.2 * random()));
      rows.push(`(${siteId}, '${wireOf(day)}', 50, ${net}, ${net}, 0)`);
      hours.push(`(${siteId}, '${wireOf(day)}', 12, 20, 20, ${lunch}, ${lunch}, 0)`);
      hours.push(`(${siteId}, '${wireOf(day)}', 19, 30, 30, ${net - lunch}, ${net - lunch}, 0)`);
    }
    await db.pool.query(
      `INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents) VALUES ${rows.join(',')}`,
    );
    await db.pool.query(
      `INSERT INTO daily_hour_sales (site_id, fiscal_date, hour, tickets, covers, net_cents, net_excl_cents, tax_cents)
       VALUES ${hours.join(',')}`,
    );
  });
  afterAll(async () => {
    await db?.close();
  });

  it('forecasts made at T are the same after every day from T on is changed to absurd values', async () => {
    const clean = await readSiteHistory(db.pool, siteId, LAST);
    const harnessBefore = forecastsAt(clean, ORIGIN, 'current');
    const engineBefore = forecastFrom(clean, ORIGIN, HORIZON_DAYS);
    const legacyBefore = forecastsAt(clean, ORIGIN, 'legacy');
    const scoreBefore = backtestHistory(clean, 'synthetic', [ORIGIN - 14, ORIGIN]);

    const from = wireOf(ORIGIN);
    await db.pool.query(
      'UPDATE daily_sales SET net_cents = net_cents * 1000 WHERE site_id = $1 AND fiscal_date >= $2',
      [siteId, from],
    );
    await db.pool.query(
      `DELETE FROM daily_sales WHERE site_id = $1 AND fiscal_date >= $2 AND extract(isodow FROM fiscal_date) = 2`,
      [siteId, from],
    );
    await db.pool.query(
      'UPDATE daily_hour_sales SET hour = hour + 10 WHERE site_id = $1 AND fiscal_date >= $2',
      [siteId, from],
    );
    const poisoned = await readSiteHistory(db.pool, siteId, LAST);
    // The poisoning did reach the history read (so the comparison below can fail).
    expect(poisoned.totals.get(ORIGIN)).toBe(1000 * clean.totals.get(ORIGIN)!);
    expect(poisoned.totals.size).toBeLessThan(clean.totals.size);

    expect(forecastsAt(poisoned, ORIGIN, 'current')).toEqual(harnessBefore);
    expect(forecastsAt(poisoned, ORIGIN, 'legacy')).toEqual(legacyBefore);
    expect(forecastFrom(poisoned, ORIGIN, HORIZON_DAYS)).toEqual(engineBefore);
    // The harness's scores do read the actuals after T: there the poisoning shows.
    const scoreAfter = backtestHistory(poisoned, 'synthetic', [ORIGIN - 14, ORIGIN]);
    expect(scoreAfter.methods.current.wape).not.toBe(scoreBefore.methods.current.wape);
    expect(harnessBefore.every((d) => d.total > 0 && d.range.low <= d.total && d.total <= d.range.high)).toBe(
      true,
    );
  });

  it('reads the public holidays of the site’s country: extras.country first, else its time zone', async () => {
    const paris = await readSiteHistory(db.pool, siteId, LAST);
    // 2025-07-14 (Fête nationale) is a French holiday, 2025-10-03 (German Unity Day) is not.
    expect(paris.holidays?.get(20_283)).toBe('Fête Nationale de la France');
    expect(paris.holidays?.has(20_364)).toBe(false);
    await db.pool.query(`UPDATE sites SET extras = '{"country": "DE", "region": "BY"}' WHERE id = $1`, [
      siteId,
    ]);
    const bavaria = await readSiteHistory(db.pool, siteId, LAST);
    expect(bavaria.holidays?.get(20_364)).toBe('Tag der Deutschen Einheit');
    expect(bavaria.holidays?.has(20_283)).toBe(false);
    await db.pool.query(`UPDATE sites SET extras = '{}', time_zone = 'Europe/London' WHERE id = $1`, [
      siteId,
    ]);
    const london = await readSiteHistory(db.pool, siteId, LAST);
    expect(london.holidays?.get(20_448)).toBe('Boxing Day'); // 2025-12-26
  });
});

/**
 * GET withCredentials/collab/previsions on a real PostgreSQL (issue #19): the answer's shape,
 * the caller's scope (403 / 400 as bo/home), the rights, the 62-day limit, actual sales beside
 * the forecast, and an event saved behind the server's back reaching the cached models through
 * the change feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/api.ts';
import { DAY_PARTS } from '../../src/contract/day-parts.ts';
import { ForecastAnswerSchema } from '../../src/contract/forecast.ts';
import { dayOf, weekdayOf, wireOf } from '../../src/server/forecast/calendar.ts';
import { forecastSites, installForecastCache, warmForecasts } from '../../src/server/forecast/forecast.ts';
import { currentFiscalDate } from '../../src/server/reference/fiscal-date.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';
const WEEK = [0.8, 0.85, 0.9, 1.0, 1.3, 1.5, 0.65];
const HISTORY_DAYS = 140;

describe('GET withCredentials/collab/previsions', () => {
  let t: TestApp;
  let chain: Chain;
  let today: number;
  let managerId: number;
  let manager: Record<string, string>;

  const previsions = (params: Record<string, string | number>, headers = manager) =>
    t.app.inject({
      method: 'GET',
      url: `/api/withCredentials/collab/previsions?${new URLSearchParams(
        Object.entries(params).map(([k, v]) => [k, String(v)]),
      )}`,
      headers,
    });

  /** Paris sells 1,000.00 × the weekday's multiplier a day: 40 % at 12:00, 60 % at 19:00. */
  async function seedHistory(siteId: number): Promise<void> {
    const rows: string[] = [];
    const hours: string[] = [];
    for (let day = today - HISTORY_DAYS; day < today; day++) {
      const net = Math.round(100_000 * WEEK[weekdayOf(day)]!);
      const lunch = Math.round(net * 0.4);
      rows.push(`(${siteId}, '${wireOf(day)}', 50, ${net}, ${net}, 0)`);
      hours.push(`(${siteId}, '${wireOf(day)}', 12, 20, 20, ${lunch}, ${lunch}, 0)`);
      hours.push(`(${siteId}, '${wireOf(day)}', 19, 30, 30, ${net - lunch}, ${net - lunch}, 0)`);
    }
    await t.database.pool.query(
      `INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents) VALUES ${rows.join(',')}`,
    );
    await t.database.pool.query(
      `INSERT INTO daily_hour_sales (site_id, fiscal_date, hour, tickets, covers, net_cents, net_excl_cents, tax_cents)
       VALUES ${hours.join(',')}`,
    );
    // A sales load records its data_loads row: the forecast cache hears of it (migration 0010).
    await t.database.pool.query(
      `INSERT INTO data_loads (site_id, source, first_fiscal_date, last_fiscal_date, tickets) VALUES ($1, 'test', $2, $3, 1)`,
      [siteId, wireOf(today - HISTORY_DAYS), wireOf(today - 1)],
    );
    await t.app.changes.settled();
  }

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    today = dayOf(currentFiscalDate(new Date(), 'Europe/Paris', '00:00'));
    await seedHistory(chain.sites.paris);
    managerId = await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris, chain.sites.lyon],
    });
    manager = await t.signIn('gerant', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the forecast per site, day and day part, with actual sales and the reliability', async () => {
    const res = await previsions({ id: managerId, dateDebut: wireOf(today - 2), dateFin: wireOf(today + 6) });
    expect(res.statusCode).toBe(200);
    const { data } = ForecastAnswerSchema.parse(res.json());
    expect(data.method).toBe('log-MSTL(7)+AutoETS+weekday-mean+level-profile');
    expect(data.currency).toBe('EUR');
    expect(data.sites.map((s) => s.siteId)).toEqual([chain.sites.paris, chain.sites.lyon]);
    const paris = data.sites[0]!;
    expect(paris.days.map((d) => d.fiscalDate)).toEqual(
      Array.from({ length: 9 }, (_, i) => wireOf(today - 2 + i)),
    );
    for (const d of paris.days) {
      const expected = 100_000 * WEEK[weekdayOf(dayOf(d.fiscalDate))]!;
      expect(Math.abs(d.forecastCents / expected - 1)).toBeLessThan(0.02);
      expect(d.dayParts.map((p) => p.key)).toEqual(DAY_PARTS.map((p) => p.key));
      expect(d.dayParts.reduce((s, p) => s + p.forecastCents, 0)).toBe(d.forecastCents);
      expect(d.dayParts.find((p) => p.key === 'LUNCH')!.forecastCents / d.forecastCents).toBeCloseTo(0.4, 2);
      // Issue #31: the 80 % range, around the forecast, the day's and each part's.
      expect(d.lowCents!).toBeLessThanOrEqual(d.forecastCents);
      expect(d.highCents!).toBeGreaterThanOrEqual(d.forecastCents);
      for (const p of d.dayParts) {
        expect(p.lowCents!).toBeLessThanOrEqual(p.forecastCents);
        expect(p.highCents!).toBeGreaterThanOrEqual(p.forecastCents);
        expect(p.uncertain).toBe(false); // 40 % and 60 % of the day, or nothing
      }
    }
    expect(paris.reliability.horizonDays).toBe(7);
    expect(paris.reliability.byHorizon!.map((b) => [b.fromDay, b.toDay, b.weeks])).toEqual([
      [1, 7, 8],
      [8, 14, 7],
    ]);
    expect(paris.days[0]!.actualCents).toBe(Math.round(100_000 * WEEK[weekdayOf(today - 2)]!));
    expect(paris.days[2]!.actualCents).toBe(0); // today, nothing sold yet
    expect(paris.days[3]!.actualCents).toBeNull();
    expect(paris.reliability.weeks).toBe(8);
    expect(paris.reliability.wape!).toBeLessThan(0.02);
    // Lyon has a single day of sales, in March: zeros, no reliability to claim.
    const lyon = data.sites[1]!;
    expect(lyon.days.every((d) => d.forecastCents === 0)).toBe(true);
    expect(lyon.reliability).toMatchObject({ wape: null, weeks: 0 });
  });

  it('keeps only the chosen sites of the scope, refuses a choice outside it (403) and an empty scope (400)', async () => {
    const period = { dateDebut: wireOf(today), dateFin: wireOf(today) };
    const mixed = await previsions({
      id: managerId,
      sites: `${chain.sites.lyon},${chain.sites.nantes}`,
      ...period,
    });
    expect(mixed.statusCode).toBe(200);
    expect(ForecastAnswerSchema.parse(mixed.json()).data.sites.map((s) => s.siteId)).toEqual([
      chain.sites.lyon,
    ]);
    const outside = await previsions({ id: managerId, sites: chain.sites.nantes, ...period });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'Forbidden' });

    const nobodyId = await t.createUser({ login: 'sans-site', password: PASSWORD, droits: ['BI'] });
    const nobody = await t.signIn('sans-site', PASSWORD);
    const none = await previsions({ id: nobodyId, ...period }, nobody);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'NoSites' });
    // Another user's id: 403.
    expect((await previsions({ id: nobodyId, ...period })).statusCode).toBe(403);
  });

  it('needs RAPPORTS or BI', async () => {
    const id = await t.createUser({
      login: 'caissier',
      password: PASSWORD,
      droits: ['COMPTAGE_CAISSES'],
      allSites: true,
    });
    const headers = await t.signIn('caissier', PASSWORD);
    const res = await previsions({ id, dateDebut: wireOf(today), dateFin: wireOf(today) }, headers);
    expect(res.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/withCredentials/collab/previsions?id=${id}&dateDebut=${wireOf(today)}&dateFin=${wireOf(today)}`,
      headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers at most 62 days, and refuses reversed or malformed dates', async () => {
    const ok = await previsions({
      id: managerId,
      sites: chain.sites.paris,
      dateDebut: wireOf(today - 30),
      dateFin: wireOf(today + 31),
    });
    expect(ok.statusCode).toBe(200);
    expect(ForecastAnswerSchema.parse(ok.json()).data.sites[0]!.days).toHaveLength(62);
    const tooLong = await previsions({
      id: managerId,
      dateDebut: wireOf(today - 31),
      dateFin: wireOf(today + 31),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: 'MaxReportDays', details: { maxDays: 62 } });
    const reversed = await previsions({
      id: managerId,
      dateDebut: wireOf(today + 1),
      dateFin: wireOf(today),
    });
    expect(reversed.statusCode).toBe(400);
    const malformed = await previsions({ id: managerId, dateDebut: '2026-02-30', dateFin: wireOf(today) });
    expect(malformed.statusCode).toBe(400);
    const badSite = await previsions({
      id: managerId,
      sites: '2147483648',
      dateDebut: wireOf(today),
      dateFin: wireOf(today),
    });
    expect(badSite.statusCode).toBe(400);
  });

  it('applies an event saved behind the server’s back at once (change feed), and lists it on its days', async () => {
    const ask = async () =>
      ForecastAnswerSchema.parse(
        (
          await previsions({
            id: managerId,
            sites: chain.sites.paris,
            dateDebut: wireOf(today + 1),
            dateFin: wireOf(today + 3),
          })
        ).json(),
      ).data.sites[0]!.days;
    const before = await ask();
    const { rows } = await t.database.pool.query<{ uuid: string }>(
      `INSERT INTO local_events (event_type, designation, sales_channel, start_date, end_date, impact_type, impact_rate)
       VALUES ('Concert', 'Fête de la musique', 'ALL', $1, $1, 'Positive', 20) RETURNING uuid`,
      [wireOf(today + 2)],
    );
    await t.database.pool.query('INSERT INTO local_event_sites (site_id, event_uuid) VALUES ($1, $2)', [
      chain.sites.paris,
      rows[0]!.uuid,
    ]);
    await t.app.changes.settled();
    const after = await ask();
    expect(after[1]!.events).toEqual([rows[0]!.uuid]);
    expect(after[1]!.forecastCents / before[1]!.forecastCents).toBeCloseTo(1.2, 3);
    expect(after[0]!).toEqual(before[0]!);
    expect(after[2]!).toEqual(before[2]!);
  });

  it('forecastSites answers the same as the route, for other modules (home, tracker, KPI)', async () => {
    const sites = await forecastSites(t.database.pool, {
      siteIds: [chain.sites.paris],
      from: wireOf(today),
      to: wireOf(today + 1),
    });
    const res = await previsions({
      id: managerId,
      sites: chain.sites.paris,
      dateDebut: wireOf(today),
      dateFin: wireOf(today + 1),
    });
    expect(sites).toEqual(ForecastAnswerSchema.parse(res.json()).data.sites);
    await expect(
      forecastSites(t.database.pool, { siteIds: [chain.sites.paris], from: '2026-01-01', to: '2027-12-31' }),
    ).rejects.toMatchObject({ code: 'MaxReportDays' });
  });

  it('keeps fitted models per site: after a warm-up a call reads only the sites and the actual sales', async () => {
    const statements: string[] = [];
    const counted = {
      query: ((text: string, values?: unknown[]) => {
        statements.push(text);
        return t.database.pool.query(text, values);
      }) as typeof t.database.pool.query,
    };
    installForecastCache(counted, t.app.changes);
    await warmForecasts(counted);
    expect(statements.some((q) => q.includes('daily_hour_sales'))).toBe(true);
    statements.length = 0;
    const sites = await forecastSites(counted, {
      siteIds: [chain.sites.paris],
      from: wireOf(today),
      to: wireOf(today + 6),
    });
    expect(sites[0]!.days).toHaveLength(7);
    expect(statements).toHaveLength(2);
    expect(statements.some((q) => q.includes('daily_hour_sales') || q.includes('local_events'))).toBe(false);
    // A sales load empties the cache (data_loads NOTIFY): the next call reads the history again.
    await t.database.pool.query(
      `INSERT INTO data_loads (site_id, source, first_fiscal_date, last_fiscal_date, tickets) VALUES ($1, 'test', $2, $2, 1)`,
      [chain.sites.paris, wireOf(today)],
    );
    await t.app.changes.settled();
    statements.length = 0;
    await forecastSites(counted, { siteIds: [chain.sites.paris], from: wireOf(today), to: wireOf(today) });
    expect(statements.some((q) => q.includes('daily_hour_sales'))).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BiExploreAnswerSchema, BiKpiAnswerSchema, BiTrackerAnswerSchema } from '../../src/contract/bi.ts';
import { tracker } from '../../src/server/bi/tracker.ts';
import { forecastSites } from '../../src/server/forecast/forecast.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { LONDON, LYON, PARIS, seedBiChain } from './bi-fixture.ts';

const PASSWORD = 'Correct-Horse1';
const PERIOD = 'dateDebut=2026-03-02&dateFin=2026-03-03';

describe('KPI/BI area (bo/bi/explore, totalKPI, tracker)', () => {
  let t: TestApp;
  let id: number;
  let headers: Record<string, string>;
  const call = (path: string, query: string, h = headers, userId = id) =>
    t.app.inject({ method: 'GET', url: `/api/bo/bi/${path}?id=${userId}&${query}`, headers: h });
  const explore = async (query: string) => {
    const res = await call('explore', `sites=${PARIS},${LYON}&${PERIOD}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return BiExploreAnswerSchema.parse(res.json()).data;
  };

  beforeAll(async () => {
    t = await createTestApp();
    await seedBiChain(t.database);
    id = await t.createUser({ login: 'analyst', password: PASSWORD, droits: ['BI'], allSites: true });
    headers = await t.signIn('analyst', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers net sales by site to the cent, against the same weekdays 364 days earlier', async () => {
    const data = await explore('measure=NET&dimension1=SITE');
    expect(data.comparison).toEqual({ dateDebut: '2025-03-03', dateFin: '2025-03-04', kind: 'YEAR' });
    expect(data.currency).toBe('EUR');
    // Highest first; the training ticket of Paris (99.99) counts for nothing.
    expect(data.rows).toEqual([
      { keys: [String(LYON)], labels: ['Lyon'], value: 6200, comparisonValue: 2000 },
      { keys: [String(PARIS)], labels: ['Paris'], value: 5800, comparisonValue: 1500 },
    ]);
    expect(data.total).toEqual({ value: 12000, comparisonValue: 3500 });
  });

  it('reads tickets by weekday and the average ticket, in the language asked', async () => {
    const byDay = await explore('measure=TICKETS&dimension1=WEEKDAY&language=en');
    expect(byDay.rows.map((r) => [r.labels[0], r.value, r.comparisonValue])).toEqual([
      ['Monday', 3, 1],
      ['Tuesday', 2, 1],
    ]);
    const average = await explore('measure=AVERAGE_TICKET');
    expect(average.total).toEqual({ value: 2400, comparisonValue: 1750 });
  });

  it('breaks down by day part, payment method, group and two dimensions at once', async () => {
    const parts = await explore('measure=NET&dimension1=DAY_PART');
    expect(parts.rows.map((r) => [r.keys[0], r.value, r.comparisonValue])).toEqual([
      ['LUNCH', 9000, 1500],
      ['DINNER', 3000, 2000],
    ]);
    const payments = await explore('measure=NET&dimension1=PAYMENT');
    expect(payments.rows.map((r) => [r.keys[0], r.labels[0], r.value])).toEqual([
      ['CASH', 'Espèces', 7000],
      ['CARD', 'Carte bancaire', 5000],
    ]);
    const groups = await explore('measure=NET&dimension1=GROUP');
    expect(groups.rows.map((r) => [r.labels[0], r.value])).toEqual([
      ['Sud', 6200],
      ['(aucun)', 5800],
    ]);
    const both = await explore('measure=COVERS&dimension1=SITE&dimension2=DAY_PART');
    // Lyon's dinner sold only a year earlier: a row with no value in the period, not a 0.
    expect(both.rows.map((r) => [...r.labels, r.value, r.comparisonValue])).toEqual([
      ['Lyon', 'Déjeuner', 6, null],
      ['Lyon', 'Dîner', null, 2],
      ['Paris', 'Déjeuner', 3, 2],
      ['Paris', 'Dîner', 3, null],
    ]);
  });

  it('names sellers and terminals with their site', async () => {
    const sellers = await explore('measure=NET&dimension1=SELLER');
    expect(sellers.rows.map((r) => [r.labels[0], r.value])).toEqual([
      ['Alice (Lyon)', 4000],
      ['Bruno (Paris)', 3000],
      ['Alice (Paris)', 2800],
      ['Bruno (Lyon)', 2200],
    ]);
    const terminals = await explore('measure=TICKETS&dimension1=TERMINAL');
    expect(terminals.rows.map((r) => [r.keys[0], r.labels[0], r.value])).toEqual([
      [`${PARIS}:1`, 'Paris — Caisse 1', 2],
      [`${LYON}:1`, 'Lyon — Caisse 1', 1],
      [`${LYON}:2`, 'Lyon — Caisse 2', 1],
      [`${PARIS}:2`, 'Paris — Caisse 2', 1],
    ]);
  });

  it('counts items by family without the voided lines', async () => {
    const data = await explore('measure=ITEMS&dimension1=FAMILY');
    const byFamily = Object.fromEntries(data.rows.map((r) => [r.keys[0], r.value]));
    expect(byFamily.PLAT).toBe(5);
    expect(byFamily.BOISSON).toBe(3);
    expect(byFamily.DESSERT ?? 0).toBe(0);
  });

  it('compares with the previous period, and says null where it has no data', async () => {
    const data = await explore('measure=NET&dimension1=SITE&comparison=PREVIOUS');
    expect(data.comparison).toMatchObject({ dateDebut: '2026-02-28', dateFin: '2026-03-01' });
    expect(data.rows.every((r) => r.comparisonValue === null)).toBe(true);
  });

  it('refuses a measure no aggregate holds by a dimension, and a period too long', async () => {
    const covers = await call('explore', `${PERIOD}&measure=COVERS&dimension1=FAMILY`);
    expect(covers.statusCode).toBe(400);
    expect(covers.json()).toMatchObject({
      code: 'BadRequest',
      details: { unsupported: { measure: 'COVERS', dimensions: ['FAMILY'] } },
    });
    const mixed = await call('explore', `${PERIOD}&measure=NET&dimension1=TERMINAL&dimension2=FAMILY`);
    expect(mixed.statusCode).toBe(400);
    const long = await call('explore', 'dateDebut=2020-01-01&dateFin=2026-03-03&measure=NET');
    expect(long.json()).toMatchObject({ code: 'MaxReportDays' });
  });

  it('keeps to the scope and refuses sites trading in several currencies', async () => {
    const limitedId = await t.createUser({
      login: 'paris',
      password: PASSWORD,
      droits: ['BI'],
      restaurantIds: [PARIS],
    });
    const limited = await t.signIn('paris', PASSWORD);
    const own = await call('explore', `${PERIOD}&measure=NET&dimension1=SITE`, limited, limitedId);
    expect(BiExploreAnswerSchema.parse(own.json()).data.rows.map((r) => r.labels[0])).toEqual(['Paris']);
    const outside = await call('explore', `sites=${LYON}&${PERIOD}&measure=NET`, limited, limitedId);
    expect(outside.statusCode).toBe(403);
    const mixed = await call('explore', `sites=${PARIS},${LONDON}&${PERIOD}&measure=NET`);
    expect(mixed.json()).toMatchObject({ code: 'mixedCurrencies' });
  });

  it('exports the rows as CSV and XLSX through the report writers', async () => {
    const csv = await call(
      'explore',
      `sites=${PARIS},${LYON}&${PERIOD}&measure=NET&dimension1=SITE&format=CSV`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('exploration_2026-03-02_2026-03-03.csv');
    expect(csv.body).toContain('Site;');
    expect(csv.body).toContain('Lyon;62,00');
    const xlsx = await call(
      'explore',
      `sites=${PARIS},${LYON}&${PERIOD}&measure=NET&dimension1=SITE&format=XLSX`,
    );
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('gives the key figures by chain, company, group and site, with the year before', async () => {
    const res = await call('totalKPI', `sites=${PARIS},${LYON}&${PERIOD}`);
    expect(res.statusCode, res.body).toBe(200);
    const { lines, yearBefore } = BiKpiAnswerSchema.parse(res.json()).data;
    expect(yearBefore).toEqual({ dateDebut: '2025-03-03', dateFin: '2025-03-04' });
    expect(lines.map((l) => [l.level, l.label])).toEqual([
      ['CHAIN', ''],
      ['COMPANY', 'Brasserie du Nord SAS'],
      ['GROUP', 'Sud'],
      ['SITE', 'Paris'],
      ['SITE', 'Lyon'],
    ]);
    const chain = lines[0]!;
    expect(chain.current).toEqual({
      netCents: 12000,
      tickets: 5,
      averageTicketCents: 2400,
      covers: 12,
      itemsPerTicket: 1.6,
      cancellationRate: 0,
      correctionRate: 1 / 7,
      cashVarianceCents: -50,
    });
    expect(chain.yearBefore).toMatchObject({ netCents: 3500, tickets: 2, cashVarianceCents: null });
    expect(chain.sparkline).toEqual([8000, 4000]);
    // Paris sold on one day of two a year earlier: no percentage on that base.
    expect(chain.yearBeforeCoverage).toBe('PARTIAL');
    expect(lines[2]!.yearBeforeCoverage).toBe('PARTIAL');
    // The forecast is the chain's own (forecast/forecast.ts), summed over the period per line.
    const forecast = await forecastSites(t.database.pool, {
      siteIds: [PARIS, LYON],
      from: '2026-03-02',
      to: '2026-03-03',
    });
    const sum = (siteId: number) =>
      forecast.find((f) => f.siteId === siteId)!.days.reduce((total, d) => total + d.forecastCents, 0);
    expect(lines[3]!.forecastCents).toBe(sum(PARIS));
    expect(chain.forecastCents).toBe(sum(PARIS) + sum(LYON));
    // Issue #31: the period's 80 % range, around the forecast (one site: the root of its days'
    // squared distances to their range ends).
    const paris = forecast.find((f) => f.siteId === PARIS)!.days;
    const spread = (end: 'lowCents' | 'highCents') =>
      Math.sqrt(paris.reduce((t, d) => t + (d.forecastCents - d[end]!) ** 2, 0));
    expect(lines[3]!.forecastLowCents).toBe(Math.max(0, Math.round(sum(PARIS) - spread('lowCents'))));
    expect(lines[3]!.forecastHighCents).toBe(Math.round(sum(PARIS) + spread('highCents')));
    expect(chain.forecastLowCents!).toBeLessThanOrEqual(chain.forecastCents!);
    expect(chain.forecastHighCents!).toBeGreaterThanOrEqual(chain.forecastCents!);
    const none = await call('totalKPI', `sites=${PARIS}&dateDebut=2026-03-03&dateFin=2026-03-03`);
    expect(BiKpiAnswerSchema.parse(none.json()).data.lines[0]!.yearBeforeCoverage).toBe('NONE');
  });

  it('tracks today hour by hour against the same weekday a year earlier, sites ranked', async () => {
    const now = new Date('2026-03-02T13:30:00Z'); // 14:30 in Paris
    const answer = await tracker(t.database.pool, { sites: [PARIS, LYON], scope: [PARIS, LYON], now });
    const [first, second] = answer.data.sites;
    expect(first).toMatchObject({ siteId: PARIS, rank: 1, netCents: 4000, lastYearSameTimeCents: 1500 });
    expect(first!.hours[12]).toEqual({ hour: 12, netCents: 1000, tickets: 1, lastYearCents: 1500 });
    // Like for like (decision 0028): the hours over at 14:30 in Paris, 00:00 to 14:00, on both sides.
    const sumOf = (hours: readonly { hour: number; netCents: number }[]) =>
      hours.filter((h) => h.hour < 14).reduce((t, h) => t + h.netCents, 0);
    expect(first).toMatchObject({ until: '14:00', netSoFarCents: sumOf(first!.hours) });
    // At 12:30 the 12:00 hour is still under way: it counts on neither side.
    const early = await tracker(t.database.pool, {
      sites: [PARIS],
      scope: [PARIS, LYON],
      now: new Date('2026-03-02T11:30:00Z'),
    });
    const paris = early.data.sites[0]!;
    expect(paris).toMatchObject({ until: '12:00', lastYearSameTimeCents: 0 });
    expect(paris.netSoFarCents).toBe(
      paris.hours.filter((h) => h.hour < 12).reduce((t, h) => t + h.netCents, 0),
    );
    expect(second).toMatchObject({ siteId: LYON, rank: 2, netCents: 4000, lastYearDayCents: 0 });
    const res = await call('tracker', `sites=${PARIS}`);
    expect(res.statusCode).toBe(200);
    expect(BiTrackerAnswerSchema.parse(res.json()).data.sites).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HOME_WIDGETS,
  HomeEventsAnswerSchema,
  HomeForecastAnswerSchema,
  HomeSafeAnswerSchema,
  HomeSalesAnswerSchema,
} from '../../src/contract/home.ts';
import { currentFiscalDate } from '../../src/server/reference/fiscal-date.ts';
import { FORECAST_METHOD } from '../../src/server/forecast/engine.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';
import { type HomeEvents, seedHome } from './home-fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('home dashboard widgets (bo/home/{widget})', () => {
  let t: TestApp;
  let chain: Chain;
  let events: HomeEvents;
  const users = new Map<string, { id: number; headers: Record<string, string> }>();

  /** A user holding `droits` on `sites` (every site when absent), created once. */
  async function user(droits: string[], sites?: number[]) {
    const login = `u-${droits.join('-') || 'none'}-${sites?.join('-') ?? 'all'}`;
    let u = users.get(login);
    if (!u) {
      const id = await t.createUser({
        login,
        password: PASSWORD,
        droits,
        ...(sites ? { restaurantIds: sites } : { allSites: true }),
      });
      u = { id, headers: await t.signIn(login, PASSWORD) };
      users.set(login, u);
    }
    return u;
  }

  async function widget(name: string, query: string, droits = ['RAPPORTS'], sites?: number[]) {
    const u = await user(droits, sites);
    return t.app.inject({
      method: 'GET',
      url: `/api/bo/home/${name}?id=${u.id}&${query}`,
      headers: u.headers,
    });
  }

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    events = await seedHome(t.database.pool, chain);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('ventes', () => {
    it('answers yesterday, today and the same weekday a year earlier, with covers, in cents', async () => {
      const res = await widget(
        'ventes',
        `sites=${chain.sites.paris},${chain.sites.lyon}&datePerso=2026-03-02`,
      );
      expect(res.statusCode).toBe(200);
      const { data } = HomeSalesAnswerSchema.parse(res.json());
      expect(data.currency).toBe('EUR');
      expect(data.days).toEqual([
        { fiscalDate: '2026-03-01', tickets: 10, netSales: 15000, averageTicket: 1500, covers: 5 },
        { fiscalDate: '2026-03-02', tickets: 25, netSales: 35050, averageTicket: 1402, covers: 9 },
      ]);
      expect(data.lastYear).toEqual({
        fiscalDate: '2025-03-03',
        tickets: 8,
        netSales: 5500,
        averageTicket: 688,
        covers: 1,
      });
      // A past day compares whole days (decision 0028).
      expect(data.soFar).toBeNull();
    });

    it('splits today and last year by day part, in SPEC §9 order', async () => {
      const res = await widget('ventes', `sites=${chain.sites.paris}&datePerso=2026-03-02`);
      const { dayParts } = HomeSalesAnswerSchema.parse(res.json()).data;
      expect(dayParts.map((p) => [p.key, p.netSales, p.lastYearNetSales])).toEqual([
        ['MORNING', 1000, 0],
        ['LUNCH', 8000, 4000],
        ['AFTERNOON', 0, 0],
        ['DINNER', 2000, 1500],
        ['EVENING', 0, 0],
        ['NIGHT', 0, 0],
        ['PEAK_NIGHT', 0, 0],
      ]);
    });

    it('uses every site of the scope when sites is empty, and drops the chosen sites outside it', async () => {
      const all = HomeSalesAnswerSchema.parse((await widget('ventes', 'sites=&datePerso=2026-03-02')).json());
      expect(all.data.days[1]).toMatchObject({ tickets: 26, netSales: 36049 });
      const nantes = [chain.sites.nantes];
      const mixed = await widget(
        'ventes',
        `sites=${chain.sites.paris},${chain.sites.nantes}&datePerso=2026-03-02`,
        ['RAPPORTS'],
        nantes,
      );
      expect(HomeSalesAnswerSchema.parse(mixed.json()).data.days[1]).toMatchObject({
        tickets: 1,
        netSales: 999,
      });
      const outside = await widget(
        'ventes',
        `sites=${chain.sites.paris}&datePerso=2026-03-02`,
        ['RAPPORTS'],
        nantes,
      );
      expect(outside.statusCode).toBe(403);
      expect(outside.json()).toMatchObject({ code: 'Forbidden' });
    });

    it('answers zero for days without sales, and defaults to the first site’s today', async () => {
      const res = await widget('ventes', `sites=${chain.sites.lille}`);
      const { days, soFar } = HomeSalesAnswerSchema.parse(res.json()).data;
      expect(days.map((d) => d.tickets)).toEqual([0, 0]);
      expect(days[1]!.fiscalDate).toBe(currentFiscalDate(new Date(), 'Europe/Paris', '00:00'));
      // Today is under way: it also meets last year up to the same hour (decision 0028).
      expect(soFar).toMatchObject({ until: expect.stringMatching(/^\d\d:00$/), today: { tickets: 0 } });
    });
  });

  describe('coffre', () => {
    const query = 'sites=&datePerso=2026-03-02';

    it('gives the last safe count per site, the counts awaiting a countersignature and yesterday’s gaps', async () => {
      const res = await widget('coffre', query, ['COFFRE', 'COMPTAGE', 'RECUS']);
      expect(res.statusCode).toBe(200);
      const { data } = HomeSafeAnswerSchema.parse(res.json());
      const { paris, nantes } = chain.sites;
      expect(data).toMatchObject({ fiscalDate: '2026-03-02', yesterday: '2026-03-01' });
      const parisLast = data.safe!.lastCounts.find((s) => s.restaurantId === paris)!.count;
      expect(parisLast).toMatchObject({ dateFiscale: '2026-03-01', countedCents: 5000, varianceCents: 200 });
      expect(parisLast!.countersigned).toBe(false);
      expect(data.safe!.lastCounts.filter((s) => s.count === null)).toHaveLength(3);
      expect(
        data.safe!.awaitingSignature.map((c) => [c.restaurantId, c.dateFiscale, c.countedCents]),
      ).toEqual([[paris, '2026-03-01', 5000]]);
      expect(data.safe!.missingYesterday).toEqual([{ restaurantId: nantes, libelle: 'Nantes' }]);
      expect(data.cashCounts!.missingYesterday).toEqual([
        { restaurantId: paris, libelle: 'Paris', caisses: [2] },
        { restaurantId: nantes, libelle: 'Nantes', caisses: [1] },
      ]);
      expect(data.receipts).toEqual({ count: 2, totalCents: 2000 });
    });

    it('shows only the parts the user’s rights allow', async () => {
      const recus = HomeSafeAnswerSchema.parse((await widget('coffre', query, ['RECUS'])).json()).data;
      expect([recus.safe, recus.cashCounts, recus.receipts]).toEqual([
        null,
        null,
        { count: 2, totalCents: 2000 },
      ]);
      const comptage = HomeSafeAnswerSchema.parse((await widget('coffre', query, ['COMPTAGE'])).json()).data;
      expect(comptage.safe).toBeNull();
      expect(comptage.receipts).toBeNull();
      expect(comptage.cashCounts!.missingYesterday).toHaveLength(2);
    });

    it('keeps to the scope: a Nantes user sees neither Paris’s safe nor its receipts', async () => {
      const res = await widget('coffre', query, ['COFFRE', 'COMPTAGE', 'RECUS'], [chain.sites.nantes]);
      const { data } = HomeSafeAnswerSchema.parse(res.json());
      expect(data.safe!.lastCounts).toEqual([
        { restaurantId: chain.sites.nantes, libelle: 'Nantes', count: null },
      ]);
      expect(data.safe!.awaitingSignature).toEqual([]);
      expect(data.safe!.awaitingSignatureCount).toBe(0);
      expect(data.receipts).toEqual({ count: 0, totalCents: 0 });
    });
  });

  describe('coffre, many counts waiting', () => {
    it('lists the 5 newest counts waiting for a countersignature and says how many wait in all', async () => {
      const { lille } = chain.sites;
      for (const day of [
        '2026-02-20',
        '2026-02-21',
        '2026-02-22',
        '2026-02-23',
        '2026-02-24',
        '2026-02-25',
      ]) {
        await t.database.pool.query(
          `INSERT INTO safe_counts (site_id, fiscal_date, version, opening_cents, deposits_cents, withdrawals_cents,
             contents, counted_cents, counted_by, counted_by_login, counted_at)
           VALUES ($1, $2, 1, 0, 0, 0, '[]', 100, 1, 'someone', now())`,
          [lille, day],
        );
      }
      const res = await widget('coffre', `sites=${lille}&datePerso=2026-03-02`, ['COFFRE'], [lille]);
      const safe = HomeSafeAnswerSchema.parse(res.json()).data.safe!;
      expect(safe.awaitingSignatureCount).toBe(6);
      expect(safe.awaitingSignature.map((c) => c.dateFiscale)).toEqual([
        '2026-02-25',
        '2026-02-24',
        '2026-02-23',
        '2026-02-22',
        '2026-02-21',
      ]);
    });
  });

  describe('previsions', () => {
    it('forecasts datePerso and the 7 days after it per chosen site, with the reliability of the method', async () => {
      const { paris, lyon } = chain.sites;
      const res = await widget('previsions', `sites=${lyon},${paris}&datePerso=2026-03-02`, ['BI']);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = HomeForecastAnswerSchema.parse(res.json());
      expect(data.method).toBe(FORECAST_METHOD);
      expect(data.sites.map((s) => [s.restaurantId, s.libelle])).toEqual([
        [paris, 'Paris'],
        [lyon, 'Lyon'],
      ]);
      const days = data.sites[0]!.days;
      expect(days.map((d) => d.fiscalDate)).toEqual([
        '2026-03-02',
        '2026-03-03',
        '2026-03-04',
        '2026-03-05',
        '2026-03-06',
        '2026-03-07',
        '2026-03-08',
        '2026-03-09',
      ]);
      // Days before the site's today are past: their actual sales come with the forecast.
      expect(days[0]!.actualCents).toBe(30050);
      expect(days.every((d) => Number.isInteger(d.forecastCents) && d.forecastCents >= 0)).toBe(true);
      expect(data.sites[0]!.reliability.weeks).toBeGreaterThanOrEqual(0);
      // Issue #31: each day's 80 % range around its forecast, the reliability's horizon and bands.
      expect(days.every((d) => d.lowCents! <= d.forecastCents && d.forecastCents <= d.highCents!)).toBe(true);
      expect(data.sites[0]!.reliability.horizonDays).toBe(7);
      expect(data.sites[0]!.reliability.byHorizon?.map((b) => [b.fromDay, b.toDay])).toEqual([
        [1, 7],
        [8, 14],
      ]);
    });

    it('gives ventes the same forecast of datePerso, summed over the chosen sites and split by day part', async () => {
      const sites = `sites=${chain.sites.paris},${chain.sites.lyon}&datePerso=2026-03-02`;
      const forecast = HomeForecastAnswerSchema.parse((await widget('previsions', sites)).json()).data;
      const sales = HomeSalesAnswerSchema.parse((await widget('ventes', sites)).json()).data;
      const expected = forecast.sites.reduce((sum, s) => sum + s.days[0]!.forecastCents, 0);
      expect(sales.forecastCents).toBe(expected);
      expect(sales.dayParts.reduce((sum, p) => sum + (p.forecastCents ?? 0), 0)).toBe(expected);
    });
  });

  describe('evenements', () => {
    it('lists the events of the next 14 days on the chosen sites, by start', async () => {
      const res = await widget('evenements', 'sites=&datePerso=2026-03-02', ['EVENEMENTS']);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = HomeEventsAnswerSchema.parse(res.json());
      expect(data).toMatchObject({ dateDebut: '2026-03-02', dateFin: '2026-03-15' });
      expect(data.evenements.map((e) => e.uuid_evt)).toEqual([events.roadworks, events.concert, events.fair]);
      expect(data.evenements[1]).toMatchObject({
        typeEvenement: 'CONCERT',
        designation: 'Concert au parc',
        typeImpact: 'Positive',
        tauxImpact: 12.5,
        dateDebut: '2026-03-05',
        dateFin: '2026-03-06',
        perim_affects: [chain.sites.paris],
      });
    });

    it('shows a user only the sites of their scope in an event', async () => {
      const res = await widget('evenements', 'datePerso=2026-03-02', ['BI'], [chain.sites.paris]);
      const { evenements } = HomeEventsAnswerSchema.parse(res.json()).data;
      expect(evenements.map((e) => e.uuid_evt)).toEqual([events.concert, events.fair]);
      expect(evenements[1]!.perim_affects).toEqual([chain.sites.paris]);
    });
  });

  describe('rights per widget (issue #17 item 8)', () => {
    it.each(HOME_WIDGETS)('refuses %s to a signed-in user with no right with 403 Forbidden', async (name) => {
      const res = await widget(name, 'datePerso=2026-03-02', []);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'Forbidden' });
    });

    it('answers each widget to the rights of its data only', async () => {
      const status = async (name: string, droits: string[]) =>
        (await widget(name, 'datePerso=2026-03-02', droits)).statusCode;
      expect(await status('ventes', ['BI'])).toBe(200);
      expect(await status('ventes', ['COFFRE', 'EVENEMENTS', 'TICKETS'])).toBe(403);
      expect(await status('coffre', ['RAPPORTS', 'BI'])).toBe(403);
      expect(await status('evenements', ['COFFRE'])).toBe(403);
      expect(await status('previsions', ['EVENEMENTS'])).toBe(403);
    });
  });

  it('rejects a malformed date or site list with 400 BadRequest, and an unknown widget with 404', async () => {
    expect((await widget('ventes', 'datePerso=2026-02-30')).json()).toMatchObject({ code: 'BadRequest' });
    expect((await widget('ventes', 'sites=1;2')).json()).toMatchObject({ code: 'BadRequest' });
    expect((await widget('ventes', 'sites=2147483648')).json()).toMatchObject({ code: 'BadRequest' });
    const unknown = await widget('meteo', 'datePerso=2026-03-02');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NotFound' });
  });

  it("computes a site's fiscal date in its time zone from its business-day start", () => {
    const at = new Date('2026-03-02T01:30:00Z'); // 02:30 in Paris, 20:30 the day before in New York
    expect(currentFiscalDate(at, 'Europe/Paris', '00:00')).toBe('2026-03-02');
    expect(currentFiscalDate(at, 'Europe/Paris', '05:00')).toBe('2026-03-01');
    expect(currentFiscalDate(at, 'America/New_York', '00:00')).toBe('2026-03-01');
  });
});

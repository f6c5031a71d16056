import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeSalesAnswerSchema } from '../../src/contract/api.ts';
import { currentFiscalDate } from '../../src/server/reference/fiscal-date.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('home sales widget (bo/home/ventes)', () => {
  let t: TestApp;
  let chain: Chain;
  let id: number;
  let headers: Record<string, string>;
  const ventes = (query: string, h = headers) =>
    t.app.inject({ method: 'GET', url: `/api/bo/home/ventes?id=${id}&${query}`, headers: h });

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    id = await t.createUser({ login: 'boss', password: PASSWORD, droits: [], allSites: true });
    headers = await t.signIn('boss', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the day before and the chosen fiscal date for the chosen sites, in cents', async () => {
    const res = await ventes(`sites=${chain.sites.paris},${chain.sites.lyon}&datePerso=2026-03-02`);
    expect(res.statusCode).toBe(200);
    expect(HomeSalesAnswerSchema.parse(res.json())).toEqual({
      data: {
        currency: 'EUR',
        days: [
          { fiscalDate: '2026-03-01', tickets: 10, netSales: 15000, averageTicket: 1500 },
          { fiscalDate: '2026-03-02', tickets: 25, netSales: 35050, averageTicket: 1402 },
        ],
      },
    });
  });

  it('uses every site of the scope when sites is empty', async () => {
    const res = await ventes('sites=&datePerso=2026-03-02');
    const days = HomeSalesAnswerSchema.parse(res.json()).data.days;
    expect(days[1]).toEqual({ fiscalDate: '2026-03-02', tickets: 26, netSales: 36049, averageTicket: 1387 });
  });

  it('ignores sites outside the scope, and answers NoSites when none is left', async () => {
    const limitedId = await t.createUser({
      login: 'nantes',
      password: PASSWORD,
      droits: [],
      restaurantIds: [chain.sites.nantes],
    });
    const limited = await t.signIn('nantes', PASSWORD);
    const url = (sites: string) => `/api/bo/home/ventes?id=${limitedId}&sites=${sites}&datePerso=2026-03-02`;
    const mixed = await t.app.inject({
      method: 'GET',
      url: url(`${chain.sites.paris},${chain.sites.nantes}`),
      headers: limited,
    });
    expect(HomeSalesAnswerSchema.parse(mixed.json()).data.days[1]).toMatchObject({
      tickets: 1,
      netSales: 999,
    });
    const outside = await t.app.inject({
      method: 'GET',
      url: url(String(chain.sites.paris)),
      headers: limited,
    });
    // Only sites outside the scope: refused, not answered as an empty selection (issue #18).
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'Forbidden' });
  });

  it('answers zero for days without sales, and defaults to today', async () => {
    const res = await ventes(`sites=${chain.sites.lille}`);
    const { days } = HomeSalesAnswerSchema.parse(res.json()).data;
    expect(days.map((d) => d.tickets)).toEqual([0, 0]);
    expect(days[1]!.fiscalDate).toBe(currentFiscalDate(new Date(), 'Europe/Paris', '00:00'));
  });

  it('rejects a malformed date or site list with 400 BadRequest, and an unknown widget with 404', async () => {
    expect((await ventes('datePerso=2026-02-30')).json()).toMatchObject({ code: 'BadRequest' });
    expect((await ventes('sites=1;2')).json()).toMatchObject({ code: 'BadRequest' });
    const unknown = await t.app.inject({ method: 'GET', url: `/api/bo/home/meteo?id=${id}`, headers });
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

/**
 * GET bo/bi/anomalies on a real PostgreSQL, on the chain of anomalies-fixture.ts: the planted
 * cases are found with their figures, the decoys and ordinary sellers and terminals are not,
 * the scope, the period checks and the default period hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnomalyAnswer, AnomalyAnswerSchema } from '../../src/contract/anomalies.ts';
import { toWireDate } from '../../src/contract/dates.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { HISTORY_DEBUT, loadAnomalyChain, PERIOD, PLANTED } from './anomalies-fixture.ts';

const PASSWORD = 'Correct-Horse1';

describe('anomalies (GET bo/bi/anomalies)', () => {
  let t: TestApp;
  let areaId: number;
  let area: Record<string, string>;
  let lyonId: number;
  let lyon: Record<string, string>;

  const ask = (query: Record<string, string | number>, headers = area) =>
    t.app.inject({
      method: 'GET',
      url: `/api/bo/bi/anomalies?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
      headers,
    });
  const answer = async (query: Record<string, string | number>): Promise<AnomalyAnswer> => {
    const res = await ask(query);
    expect(res.statusCode, res.body).toBe(200);
    return AnomalyAnswerSchema.parse(res.json());
  };

  beforeAll(async () => {
    t = await createTestApp();
    await loadAnomalyChain(t.database);
    areaId = await t.createUser({
      login: 'area',
      password: PASSWORD,
      droits: ['RAPPORTS_ANOMALIES'],
      allSites: true,
    });
    area = await t.signIn('area', PASSWORD);
    lyonId = await t.createUser({
      login: 'lyon',
      password: PASSWORD,
      droits: ['RAPPORTS_ANOMALIES'],
      restaurantIds: [2],
    });
    lyon = await t.signIn('lyon', PASSWORD);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('finds the four planted cases, and nothing else, most severe first', async () => {
    const a = await answer({ id: areaId, ...PERIOD });
    expect(a).toMatchObject({
      ...PERIOD,
      historyDebut: HISTORY_DEBUT,
      historyFin: '2026-03-01',
      threshold: 3.5,
    });
    const found = a.anomalies.map((x) => `${x.siteId}|${x.kind}|${x.key}|${x.measure}`);
    // The discount seller may stand out by count and by share of sales: both are the planted case.
    const planted = found.map((f) => f.replace('discountShare', 'discounts'));
    expect(new Set(planted)).toEqual(
      new Set(PLANTED.map((p) => `${p.siteId}|${p.kind}|${p.key}|${p.measure}`)),
    );
    const severities = a.anomalies.map((x) => x.severity);
    expect(severities).toEqual([...severities].sort((x, y) => y - x));
    for (const x of a.anomalies) {
      expect(x.zPeer).toBeGreaterThanOrEqual(3.5);
      expect(x.zHistory).toBeGreaterThanOrEqual(3.5);
      expect(x.severity).toBe(Math.min(x.zPeer, x.zHistory));
    }
  });

  it('answers each case with its names, rates, medians and counts', async () => {
    const a = await answer({ id: areaId, ...PERIOD, sites: '1,2' });
    const seller = a.anomalies.find((x) => x.key === 'V03' && x.measure === 'cancellations')!;
    expect(seller).toMatchObject({
      site: 'Paris Bastille',
      currency: 'EUR',
      kind: 'seller',
      name: 'Chloé Durand',
      peerScope: 'site',
      peers: 5,
      historyWeeks: 8,
      tickets: 560,
    });
    expect(seller.value).toBeCloseTo((100 * seller.events) / seller.tickets, 6);
    expect(seller.value).toBeGreaterThan(3);
    expect(seller.peerMedian).toBeLessThan(2);
    expect(seller.historyMedian).toBeLessThan(2);

    const cash = a.anomalies.find((x) => x.measure === 'cashVariance')!;
    expect(cash).toMatchObject({
      kind: 'terminal',
      key: '3',
      name: 'Caisse 3',
      peerScope: 'chain',
      peers: 5,
      tickets: 28,
    });
    expect(cash.value).toBeGreaterThan(2000);
    expect(cash.peerMedian).toBeLessThan(300);
  });

  it('looks only at the chosen sites of the scope: Lyon alone has no anomaly', async () => {
    expect((await answer({ id: areaId, ...PERIOD, sites: '2' })).anomalies).toEqual([]);
    const own = await ask({ id: lyonId, ...PERIOD }, lyon);
    expect(own.statusCode).toBe(200);
    expect(AnomalyAnswerSchema.parse(own.json()).anomalies).toEqual([]);
    const outside = await ask({ id: lyonId, ...PERIOD, sites: '1' }, lyon);
    expect(outside.statusCode).toBe(403);
    expect(outside.json().code).toBe('Forbidden');
  });

  it('refuses a bad period, a period too long, malformed sites and another user’s id', async () => {
    const inverted = await ask({ id: areaId, dateDebut: '2026-03-29', dateFin: '2026-03-02' });
    expect([inverted.statusCode, inverted.json().code]).toEqual([400, 'BadRequest']);
    const long = await ask({ id: areaId, dateDebut: '2025-01-01', dateFin: '2026-03-29' });
    expect([long.statusCode, long.json().code, long.json().details.maxDays]).toEqual([
      400,
      'MaxReportDays',
      93,
    ]);
    const bad = await ask({ id: areaId, dateDebut: '2026-02-30', dateFin: '2026-03-02' });
    expect(bad.statusCode).toBe(400);
    for (const sites of ['2147483648', '1,x', '-1']) {
      expect((await ask({ id: areaId, ...PERIOD, sites })).statusCode, sites).toBe(400);
    }
    const other = await ask({ id: lyonId, ...PERIOD });
    expect(other.statusCode).toBe(403);
  });

  it('defaults to the 4 weeks ending yesterday', async () => {
    const a = await answer({ id: areaId });
    const yesterday = new Date();
    yesterday.setDate(yesterday.getDate() - 1);
    const start = new Date(yesterday);
    start.setDate(start.getDate() - 27);
    expect([a.dateDebut, a.dateFin]).toEqual([toWireDate(start), toWireDate(yesterday)]);
  });
});

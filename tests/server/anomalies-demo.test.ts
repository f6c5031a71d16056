/**
 * The anomalies of the generated demo chain (src/server/demo, anomalies.ts PLANTED_ANOMALIES):
 * over the weeks the planted behaviours last (up to yesterday), every planted seller and
 * terminal is found for its measure and no ordinary seller or terminal is flagged for anything.
 * The chain is generated as at `npm start` on the planted weeks plus the 8 weeks of history and
 * a week more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_WEEKS } from '../../src/contract/anomalies.ts';
import { RIGHTS } from '../../src/contract/rights.ts';
import { findAnomalies } from '../../src/server/anomalies/anomalies.ts';
import { readAnomalySeries } from '../../src/server/anomalies/anomaly-reads.ts';
import { MEASURE_RULES, rateOf } from '../../src/server/anomalies/detect.ts';
import { robustZ } from '../../src/server/anomalies/robust-z.ts';
import { PLANTED_ANOMALIES, PLANTED_WEEKS } from '../../src/server/demo/anomalies.ts';
import { SITES } from '../../src/server/demo/catalogue.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const NOW = new Date('2026-03-18T14:37:00Z');
const DAY_MS = 86_400_000;
const dateOf = (n: number) => new Date(Date.parse('2026-03-18') + n * DAY_MS).toISOString().slice(0, 10);
/** The planted weeks, ending yesterday (today is still being rung up). */
const PERIOD = { dateDebut: dateOf(-PLANTED_WEEKS * 7 + 1), dateFin: dateOf(-1) };

let t: TestApp;
/** Database id of each demo site, in catalogue order (PLANTED_ANOMALIES' siteId). */
let siteIds: number[];
let scope: number[];

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ login: 'admin', password: 'Admin-Passw0rd!', droits: [...RIGHTS], allSites: true });
  await generateDemoChain(t.database.pool, {
    seed: 20261122,
    now: NOW,
    days: (PLANTED_WEEKS + HISTORY_WEEKS + 1) * 7,
  });
  const { rows } = await t.database.pool.query<{ id: number; code_implant: string }>(
    'SELECT id, code_implant FROM sites',
  );
  siteIds = SITES.map((s) => rows.find((r) => r.code_implant === s.codeImplant)!.id);
  scope = rows.map((r) => r.id);
}, 240_000);
afterAll(async () => {
  await t.close();
});

/** `site|kind|key|measure` of a planted case, with the database's site id; discountShare counts as discounts. */
const plantedIds = () => PLANTED_ANOMALIES.map((p) => `${siteIds[p.siteId]}|${p.kind}|${p.key}|${p.measure}`);

describe('anomalies of the demo chain', () => {
  it('finds the planted sellers and terminals, and flags no ordinary one', async () => {
    const answer = await findAnomalies(t.database, scope, { siteIds: [], ...PERIOD });
    const found = answer.anomalies.map((a) =>
      `${a.siteId}|${a.kind}|${a.key}|${a.measure}`.replace('discountShare', 'discounts'),
    );
    // Every flag is a planted case: no ordinary seller or terminal, no other measure.
    expect(found.filter((f) => !plantedIds().includes(f))).toEqual([]);
    const missing = plantedIds().filter((p) => !found.includes(p));
    // A planted case can only be missed for lack of its own history: the demo keeps fewer days
    // of cash counts than the planted weeks and the 8 weeks before them (reported to the lead).
    // Then it must still stand out against its peers, by the same robust z.
    const series = await readAnomalySeries(t.database.pool, {
      siteIds: scope,
      ...PERIOD,
      historyDebut: dateOf(-(PLANTED_WEEKS + HISTORY_WEEKS) * 7 + 1),
    });
    for (const id of missing) {
      const [site, kind, key, measure] = id.split('|') as [
        string,
        string,
        string,
        keyof typeof MEASURE_RULES,
      ];
      const rule = MEASURE_RULES[measure];
      const own = series.find((s) => `${s.siteId}|${s.kind}|${s.key}|${s.measure}` === id)!;
      const weeks = own.history.filter((w) => w.volume >= rule.minWeekVolume);
      expect(weeks.length, `${id} was missed although it has its history`).toBeLessThan(3);
      const peers = series.filter(
        (s) => s !== own && s.kind === kind && s.measure === measure && s.period.volume >= rule.minVolume,
      );
      const z = robustZ(
        rateOf(own.period, rule),
        peers.map((p) => rateOf(p.period, rule)),
        rule.minSpread,
      ).z;
      expect(z, `${id} against its peers (site ${site}, ${key})`).toBeGreaterThan(3.5);
    }
    expect(missing.length).toBeLessThanOrEqual(
      PLANTED_ANOMALIES.filter((p) => p.measure === 'cashVariance').length,
    );
  }, 60_000);

  it('answers a whole chain in well under a second', async () => {
    const start = performance.now();
    await findAnomalies(t.database, scope, { siteIds: [], ...PERIOD });
    expect(performance.now() - start).toBeLessThan(1_500);
  });
});

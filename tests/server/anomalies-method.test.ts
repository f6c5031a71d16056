/**
 * The anomaly method (src/server/anomalies/detect.ts, robust-z.ts) on synthetic chains whose
 * counts are drawn at random from known rates: planted outliers are found, ordinary entities are
 * not, a low-volume entity is not, and each of the two comparisons alone is not enough.
 */
import { describe, expect, it } from 'vitest';
import type { AnomalyMeasure } from '../../src/contract/anomalies.ts';
import {
  detectAnomalies,
  type EntitySeries,
  MEASURE_RULES,
  rateOf,
} from '../../src/server/anomalies/detect.ts';
import { robustZ } from '../../src/server/anomalies/robust-z.ts';

/** mulberry32: a small seeded generator, so every run draws the same chains. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Binomial draw: how many of `n` trials succeed with probability `p`. */
function binomial(random: () => number, n: number, p: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (random() < p) k++;
  return k;
}

interface Entity {
  siteId: number;
  key: string;
  /** SALE tickets per week. */
  weekly: number;
  /** Cancellation probability per ticket, in the period and in the history. */
  periodRate: number;
  historyRate: number;
}

/** Cancellation series of `entities`: a 4-week period and 8 weeks of history, drawn with `random`. */
function cancellationSeries(random: () => number, entities: readonly Entity[]): EntitySeries[] {
  return entities.map((e) => {
    const tickets = e.weekly * 4;
    return {
      siteId: e.siteId,
      kind: 'seller',
      key: e.key,
      measure: 'cancellations',
      period: { events: binomial(random, tickets, e.periodRate), base: tickets, volume: tickets },
      history: Array.from({ length: 8 }, () => ({
        events: binomial(random, e.weekly, e.historyRate),
        base: e.weekly,
        volume: e.weekly,
      })),
      tickets,
    };
  });
}

/** Two sites of eight ordinary sellers each: 100–250 tickets a week, 0.9–1.2 % cancelled. */
function ordinaryChain(random: () => number): Entity[] {
  const entities: Entity[] = [];
  for (const siteId of [1, 2]) {
    for (let i = 1; i <= 8; i++) {
      const rate = 0.009 + random() * 0.003;
      entities.push({
        siteId,
        key: `V0${i}`,
        weekly: 100 + Math.floor(random() * 150),
        periodRate: rate,
        historyRate: rate,
      });
    }
  }
  return entities;
}

describe('robust z-score', () => {
  it('is 0.6745·(x − median)/MAD, and an outlier in the sample does not widen the spread', () => {
    const sample = [1, 2, 3, 4, 100];
    const score = robustZ(10, sample, 0.01);
    // median 3, MAD = median(|2,1,0,1,97|) = 1
    expect(score.median).toBe(3);
    expect(score.z).toBeCloseTo((0.6745 * (10 - 3)) / 1, 6);
  });

  it('falls back to 1.253314 × mean absolute deviation when the MAD is 0, and never below the floor', () => {
    const score = robustZ(5, [1, 1, 1, 1, 3], 0.01);
    // MAD 0; mean |deviation| = 2/5 = 0.4 → spread 0.5013256
    expect(score.spread).toBeCloseTo(0.4 * 1.253314, 6);
    expect(robustZ(1.1, [1, 1, 1, 1], 0.5).z).toBeCloseTo(0.2, 6);
  });
});

describe('detectAnomalies', () => {
  it('finds a seller cancelling about 5× as often as usual, and no ordinary seller, on 30 random chains', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = rng(seed);
      const chain = ordinaryChain(random);
      const planted = chain[3]!;
      planted.periodRate = 0.05;
      const findings = detectAnomalies(cancellationSeries(random, chain));
      expect(
        findings.map((f) => `${f.series.siteId}:${f.series.key}`),
        `seed ${seed}`,
      ).toEqual([`${planted.siteId}:${planted.key}`]);
      const f = findings[0]!;
      expect(f.peer.scope).toBe('site');
      expect(f.peer.count).toBe(7);
      expect(f.history.weeks).toBe(8);
      expect(f.severity).toBe(Math.min(f.peer.z, f.history.z));
      expect(f.severity).toBeGreaterThanOrEqual(3.5);
    }
  });

  it('does not flag a seller with too few tickets, however high its rate', () => {
    const random = rng(7);
    const chain = ordinaryChain(random);
    chain.push({ siteId: 1, key: 'V99', weekly: 10, periodRate: 0.3, historyRate: 0.01 });
    const series = cancellationSeries(random, chain);
    const small = series.find((s) => s.key === 'V99')!;
    expect(small.period.volume).toBeLessThan(MEASURE_RULES.cancellations.minVolume);
    expect(rateOf(small.period, MEASURE_RULES.cancellations)).toBeGreaterThan(10);
    expect(detectAnomalies(series)).toEqual([]);
  });

  it('needs both comparisons: a seller always high, or a whole site up together, is not flagged', () => {
    const random = rng(11);
    const chain = ordinaryChain(random);
    // Always cancelled this often: stands out against peers, not against its own history.
    Object.assign(chain[2]!, { periodRate: 0.05, historyRate: 0.05 });
    // Site 2's sellers all doubled this month: each stands out against its history, not its peers.
    for (const e of chain.filter((x) => x.siteId === 2)) e.periodRate = e.historyRate * 2;
    const findings = detectAnomalies(cancellationSeries(random, chain));
    expect(findings).toEqual([]);
    // The same chain with the first seller's history ordinary: now it is flagged.
    const random2 = rng(11);
    const chain2 = ordinaryChain(random2);
    Object.assign(chain2[2]!, { periodRate: 0.05 });
    expect(detectAnomalies(cancellationSeries(random2, chain2)).map((f) => f.series.key)).toEqual([
      chain2[2]!.key,
    ]);
  });

  it('compares terminals with the chosen sites’ terminals when their site has too few, and ranks by severity', () => {
    const random = rng(5);
    const measure: AnomalyMeasure = 'cashVariance';
    const series: EntitySeries[] = [];
    for (let siteId = 1; siteId <= 4; siteId++) {
      for (let terminal = 1; terminal <= 3; terminal++) {
        const big = siteId === 2 && terminal === 1 ? 6000 : siteId === 3 && terminal === 2 ? 3000 : 0;
        const draw = (n: number, extra: number) => {
          let cents = 0;
          for (let i = 0; i < n; i++) cents += Math.round(random() * 400) + extra;
          return { events: cents, base: n, volume: n };
        };
        series.push({
          siteId,
          kind: 'terminal',
          key: String(terminal),
          measure,
          period: draw(28, big),
          history: Array.from({ length: 8 }, () => draw(7, 0)),
          tickets: 28,
        });
      }
    }
    const findings = detectAnomalies(series);
    expect(findings.map((f) => `${f.series.siteId}:${f.series.key}`)).toEqual(['2:1', '3:2']);
    expect(findings[0]!.peer.scope).toBe('chain');
    expect(findings[0]!.peer.count).toBe(11);
  });
});

/**
 * The anomaly test itself, on counts already read (anomaly-reads.ts), so the tests can run it on
 * synthetic data: an entity (seller or terminal) is flagged for a measure when its rate over the
 * period stands out BOTH against its peers' rates over the same period AND against its own weekly
 * rates over the weeks before, each by a robust z-score (robust-z.ts) of at least the threshold,
 * and only when it has enough volume for its rate to mean something. Decision 0019 says why.
 *
 * Peers: the other entities of the same kind and site that have the volume; when the site has
 * fewer than {@link MIN_PEERS} such, the other entities of the same kind on every chosen site
 * (a site has two to four terminals: too few to say what is normal). The entity itself is never
 * its own peer, so an outlier cannot widen the spread it is measured against.
 * Only values ABOVE normal are flagged: fewer cancellations or discounts than peers is no alarm.
 *
 * Own history: the entity's weekly rates (weeks with the volume only); their median is "usual",
 * and their robust spread, scaled by √(median week volume ÷ period volume), is how far the
 * period's rate could stray by chance (a rate's sampling noise shrinks as 1/√volume).
 */
import { ANOMALY_THRESHOLD, type AnomalyEntityKind, type AnomalyMeasure } from '../../contract/anomalies.ts';
import { median } from 'simple-statistics';
import { type RobustScore, robustZ } from './robust-z.ts';

/** What a rate is made of over one span (the period, or one week of history). */
export interface RateCounts {
  /** What is counted (cancellations, corrected lines, discount lines or cents, |variance| cents). */
  events: number;
  /** What it is divided by (tickets, lines, gross sales cents, cash counts). */
  base: number;
  /** How much activity backs the rate (tickets, lines or counts), checked against the minimums. */
  volume: number;
}

/** One entity's counts for one measure: over the period and per week of its own history. */
export interface EntitySeries {
  siteId: number;
  kind: AnomalyEntityKind;
  /** Seller code, or terminal number as text. */
  key: string;
  measure: AnomalyMeasure;
  period: RateCounts;
  /** One entry per week before the period (any order); weeks without activity may be absent. */
  history: readonly RateCounts[];
  /** SALE tickets of the entity over the period (cash counts for cashVariance), for the answer. */
  tickets: number;
}

/** How a measure is read and how much is enough. */
export interface MeasureRule {
  /** Rate = scale × events ÷ base (100 for "per 100", 1 for a mean in cents). */
  scale: number;
  /** Volume the period needs before the entity is judged, or counted as a peer. */
  minVolume: number;
  /** Volume a week of history needs to count as one of the history's values. */
  minWeekVolume: number;
  /** Smallest spread (σ estimate, in the rate's unit) a comparison may use (robust-z.ts). */
  minSpread: number;
  /**
   * The events are counted occurrences (cancellations, lines): a rate over `base` then has at
   * least Poisson noise, scale × √(p ÷ base) at the usual rate p, and no spread is taken below it.
   */
  counted: boolean;
}

/** Per measure: scale, minimum volumes, smallest meaningful spread (decision 0019). */
export const MEASURE_RULES: Readonly<Record<AnomalyMeasure, MeasureRule>> = {
  cancellations: { scale: 100, minVolume: 100, minWeekVolume: 20, minSpread: 0.25, counted: true },
  corrections: { scale: 100, minVolume: 300, minWeekVolume: 60, minSpread: 0.25, counted: true },
  discounts: { scale: 100, minVolume: 100, minWeekVolume: 20, minSpread: 0.5, counted: true },
  discountShare: { scale: 100, minVolume: 100, minWeekVolume: 20, minSpread: 0.25, counted: false },
  cashVariance: { scale: 1, minVolume: 8, minWeekVolume: 3, minSpread: 200, counted: false },
};

/** Fewest peers of the site before the chosen sites' are used instead. */
export const MIN_PEERS = 5;
/** Fewest weeks of own history (with the week's volume) before an entity can be judged. */
export const MIN_HISTORY_WEEKS = 3;

/** A flagged entity and measure, with both comparisons. */
export interface Finding {
  series: EntitySeries;
  /** The period's rate. */
  value: number;
  peer: RobustScore & { scope: 'site' | 'chain'; count: number };
  history: RobustScore & { weeks: number };
  /** min(peer z, history z). */
  severity: number;
}

/** scale × events ÷ base; 0 when base is 0. */
export function rateOf(counts: RateCounts, rule: MeasureRule): number {
  return counts.base > 0 ? (rule.scale * counts.events) / counts.base : 0;
}

/**
 * The smallest spread of a comparison: the measure's `minSpread`, and for counted events the
 * Poisson noise of a rate over `base` at the midpoint of the usual rate and the observed `value`
 * (in the rate's unit). Small counts are skewed: at the usual rate alone, 19 events where 9 were
 * expected would read as 3.5σ although it happens about once in 500; at the midpoint, the test
 * is about as strict as one on square roots of counts (the variance-stabilising transform).
 */
function floorOf(rule: MeasureRule, usual: number, value: number, base: number): number {
  if (!rule.counted || base <= 0) return rule.minSpread;
  const midpoint = Math.max((usual + value) / 2, 0);
  return Math.max(rule.minSpread, rule.scale * Math.sqrt(midpoint / rule.scale / base));
}

/** The peers' rates of `s` among `judged` (same measure and kind, volume enough), and their scope. */
function peerRates(
  s: EntitySeries,
  judged: readonly EntitySeries[],
  rule: MeasureRule,
): { rates: number[]; scope: 'site' | 'chain' } {
  const others = judged.filter((o) => o !== s && o.kind === s.kind && o.measure === s.measure);
  const site = others.filter((o) => o.siteId === s.siteId);
  const chosen = site.length >= MIN_PEERS ? site : others;
  return {
    rates: chosen.map((o) => rateOf(o.period, rule)),
    scope: site.length >= MIN_PEERS ? 'site' : 'chain',
  };
}

/** `s` judged against `judged` (see the module's header); null when it is not flagged. */
function judge(s: EntitySeries, judged: readonly EntitySeries[], threshold: number): Finding | null {
  const rule = MEASURE_RULES[s.measure];
  const value = rateOf(s.period, rule);
  const peers = peerRates(s, judged, rule);
  if (peers.rates.length < MIN_PEERS) return null;
  const weeks = s.history.filter((w) => w.volume >= rule.minWeekVolume);
  if (weeks.length < MIN_HISTORY_WEEKS) return null;
  const peer = robustZ(value, peers.rates, floorOf(rule, median(peers.rates), value, s.period.base));
  if (peer.z < threshold) return null;
  // A week's rate is noisier than the period's (less volume): its spread, brought to the
  // period's volume, is what the period's rate would show if nothing had changed.
  const weekVolume = median(weeks.map((w) => w.volume));
  const weekRates = weeks.map((w) => rateOf(w, rule));
  const history = robustZ(
    value,
    weekRates,
    floorOf(rule, median(weekRates), value, s.period.base),
    Math.sqrt(weekVolume / s.period.volume),
  );
  if (history.z < threshold) return null;
  return {
    series: s,
    value,
    peer: { ...peer, scope: peers.scope, count: peers.rates.length },
    history: { ...history, weeks: weeks.length },
    severity: Math.min(peer.z, history.z),
  };
}

/**
 * The findings among `series`, most severe first (then site, kind, key and measure, so the order
 * is stable). Entities below their measure's minimum volume are neither judged nor peers.
 */
export function detectAnomalies(
  series: readonly EntitySeries[],
  threshold: number = ANOMALY_THRESHOLD,
): Finding[] {
  const judged = series.filter((s) => s.period.volume >= MEASURE_RULES[s.measure].minVolume);
  const findings: Finding[] = [];
  for (const s of judged) {
    const f = judge(s, judged, threshold);
    if (f) findings.push(f);
  }
  return findings.sort(
    (a, b) =>
      b.severity - a.severity ||
      a.series.siteId - b.series.siteId ||
      a.series.kind.localeCompare(b.series.kind) ||
      a.series.key.localeCompare(b.series.key) ||
      a.series.measure.localeCompare(b.series.measure),
  );
}

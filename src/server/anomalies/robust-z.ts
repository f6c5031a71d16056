/**
 * The robust z-score of Iglewicz & Hoaglin ("How to Detect and Handle Outliers", 1993): how far a
 * value lies from the median of a sample, in units of the sample's spread measured by the median
 * absolute deviation (MAD), which a few outliers in the sample cannot inflate the way they
 * inflate a standard deviation. Decision 0019 says why the anomalies use it.
 *
 *   z = 0.6745 · (x − median) / MAD   (0.6745 · 1.4826 = 1: MAD / 0.6745 estimates σ)
 *
 * When more than half the sample is one value the MAD is 0; the spread then falls back to
 * 1.253314 · mean absolute deviation from the median (also an estimate of σ, used the same way by
 * IBM SPSS's modified z), and never below `minSpread`, the smallest difference the caller deems
 * meaningful, so a value a hair above identical peers is not "infinitely" far.
 *
 * `scale` compares a value with a sample of a different volume: a rate over 4 weeks against weekly
 * rates, whose sampling noise is twice as large (noise of a rate ∝ 1/√volume). The caller passes
 * √(sample's volume ÷ value's volume) so the spread is the one the value itself would have.
 */
import { mean, median, medianAbsoluteDeviation } from 'simple-statistics';

/** Where a value stands against a sample. */
export interface RobustScore {
  /** Median of the sample. */
  median: number;
  /** Estimate of the sample's σ used (≥ minSpread): MAD / 0.6745, or its fallback. */
  spread: number;
  /** (value − median) / spread; positive when the value is above the median. */
  z: number;
}

/** MAD / 0.6745 ≈ σ for normal data (Iglewicz & Hoaglin). */
const MAD_TO_SIGMA = 1 / 0.6745;
/** Mean absolute deviation × 1.253314 ≈ σ for normal data (√(π/2)). */
const MEAN_AD_TO_SIGMA = 1.253314;

/**
 * The robust z-score of `value` against `sample` (not empty), with the sample's spread times
 * `scale` (default 1) and at least `minSpread` (> 0, in the value's unit).
 * @throws Error when `sample` is empty or `minSpread` is not positive (a caller's bug).
 */
export function robustZ(value: number, sample: readonly number[], minSpread: number, scale = 1): RobustScore {
  if (sample.length === 0) throw new Error('robustZ needs a sample');
  if (!(minSpread > 0)) throw new Error('robustZ needs a positive minSpread');
  const values = [...sample];
  const centre = median(values);
  let spread = medianAbsoluteDeviation(values) * MAD_TO_SIGMA;
  if (spread === 0) spread = mean(values.map((v) => Math.abs(v - centre))) * MEAN_AD_TO_SIGMA;
  spread = Math.max(spread * scale, minSpread);
  return { median: centre, spread, z: (value - centre) / spread };
}

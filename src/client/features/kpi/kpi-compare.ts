/**
 * How a key figure compares with the year before or the forecast (issue #20 item 13): a change in
 * percent only when the base is complete; "partial data" or "no data" otherwise, never a
 * percentage computed on part of a period.
 */
import type { BiKpiLine } from '../../../contract/bi.ts';

/** A comparison to show: a change (fraction) or why there is none. */
export type Comparison = { kind: 'change'; change: number } | { kind: 'partial' } | { kind: 'none' };

/** `now` against `before`, given how complete `before` is. */
export function compareWith(
  now: number | null,
  before: number | null,
  coverage: BiKpiLine['yearBeforeCoverage'],
): Comparison {
  if (coverage === 'NONE' || before === null || now === null || before === 0) return { kind: 'none' };
  if (coverage === 'PARTIAL') return { kind: 'partial' };
  return { kind: 'change', change: (now - before) / before };
}

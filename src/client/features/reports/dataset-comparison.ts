/**
 * Whether a year-on-year dataset (the comparison report, RapportVentesComparaison: columns
 * `netSales` and `previousNetSales`, one row per date, or per date and site) can honestly give a
 * percentage (issue #20 item 13): a year earlier with no sales, or with sales on fewer days than
 * the period (a site opened during the year), would read "+400 %" against a few days.
 */
import type { Dataset } from '../../../contract/reports.ts';

/** `none`: no sales a year earlier; `partial`: fewer days with sales then; `full`: comparable. */
export type ComparisonCoverage = 'full' | 'partial' | 'none';

/** The percentage columns that compare with a year earlier. */
const COMPARISON_PERCENT_KEYS = new Set(['variancePercent']);

/** True when `key` is a column holding a year-on-year percentage. */
export function isComparisonPercent(key: string): boolean {
  return COMPARISON_PERCENT_KEYS.has(key);
}

/**
 * Coverage of the year-earlier side of `dataset`, counting days (the `fiscalDate` cell, else each
 * row) with non-zero net sales on each side; `full` for a dataset without both columns.
 */
export function datasetComparisonCoverage(dataset: Dataset): ComparisonCoverage {
  const keys = new Set(dataset.columns.map((c) => c.key));
  if (!keys.has('netSales') || !keys.has('previousNetSales')) return 'full';
  const current = new Set<string>();
  const previous = new Set<string>();
  dataset.rows.forEach((row, i) => {
    const day = typeof row.fiscalDate === 'string' ? row.fiscalDate : String(i);
    if (typeof row.netSales === 'number' && row.netSales !== 0) current.add(day);
    if (typeof row.previousNetSales === 'number' && row.previousNetSales !== 0) previous.add(day);
  });
  if (previous.size === 0) return 'none';
  return previous.size < current.size ? 'partial' : 'full';
}

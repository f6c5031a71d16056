/**
 * /graphs: turns report datasets (bo/getReport format=JSON, contract/reports.ts) into chart
 * series. Pure, so the tests pin the alignment with last year and the bars without a browser.
 *
 * Year-earlier alignment follows the server's comparison report (RapportVentesComparaison,
 * src/server/reports/sales-analyses/comparison.ts): a date is compared with the date
 * {@link YEAR_SHIFT_DAYS} = 364 days (52 weeks) earlier, so a Saturday faces a Saturday.
 */
import { addDays } from 'date-fns/addDays';
import { subDays } from 'date-fns/subDays';
import { parseWireDate, toWireDate } from '../../../contract/dates.ts';
import type { Dataset } from '../../../contract/reports.ts';

/** Days between a date and the one it is compared with (as the comparison report). */
export const YEAR_SHIFT_DAYS = 364;

/** One point of the sales-over-time chart: a fiscal date and its counterpart a year earlier. */
export interface DailyPoint {
  /** Wire date YYYY-MM-DD. */
  date: string;
  /** Wire date compared with, {@link YEAR_SHIFT_DAYS} earlier. */
  previousDate: string;
  /** Net sales incl. VAT of the date, integer cents. */
  net: number;
  /** Net sales incl. VAT of the date a year earlier, integer cents. */
  previousNet: number;
}

function cellNumber(v: string | number | null | undefined): number {
  return typeof v === 'number' ? v : 0;
}

function cellText(v: string | number | null | undefined): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

/**
 * Every date of the dataset's period, in order, with its net sales and those of its counterpart,
 * from a RapportVentesComparaison dataset (Daily: one row per date and site, added up here;
 * Cumulative: one row per date). The server only answers dates where either side sold; the
 * missing dates read 0 so the line does not jump over closed days. Throws RangeError when the
 * dataset's dates are not wire dates.
 */
export function dailyComparison(dataset: Dataset): DailyPoint[] {
  const start = parseWireDate(dataset.dateDebut);
  const end = parseWireDate(dataset.dateFin);
  if (!start || !end) throw new RangeError(`not a wire period: ${dataset.dateDebut}–${dataset.dateFin}`);
  const byDate = new Map<string, { net: number; previousNet: number }>();
  for (const row of dataset.rows) {
    const date = cellText(row.fiscalDate);
    if (!date) continue;
    const acc = byDate.get(date) ?? { net: 0, previousNet: 0 };
    acc.net += cellNumber(row.netSales);
    acc.previousNet += cellNumber(row.previousNetSales);
    byDate.set(date, acc);
  }
  const points: DailyPoint[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) {
    const date = toWireDate(d);
    const figures = byDate.get(date) ?? { net: 0, previousNet: 0 };
    points.push({ date, previousDate: toWireDate(subDays(d, YEAR_SHIFT_DAYS)), ...figures });
  }
  return points;
}

/**
 * How much of the period the year-earlier side covers: `none` when it sold nothing, `partial` when
 * it sold on fewer days than the period did (a site opened during the year: a percentage against
 * those few days would read "+400 %" and mean nothing), else `full`.
 */
export type ComparisonCoverage = 'full' | 'partial' | 'none';

/** {@link ComparisonCoverage} from the number of days with sales on each side. */
export function coverageOf(daysWithSales: number, previousDaysWithSales: number): ComparisonCoverage {
  if (previousDaysWithSales === 0) return 'none';
  return previousDaysWithSales < daysWithSales ? 'partial' : 'full';
}

/**
 * Totals of a comparison (integer cents), its coverage, and the variance as a fraction of last
 * year — null unless the coverage is `full`, so no screen shows a percentage that compares a
 * period with a few days of it.
 */
export function comparisonTotals(points: readonly DailyPoint[]): {
  net: number;
  previousNet: number;
  coverage: ComparisonCoverage;
  variance: number | null;
} {
  const net = points.reduce((s, p) => s + p.net, 0);
  const previousNet = points.reduce((s, p) => s + p.previousNet, 0);
  const coverage = coverageOf(
    points.filter((p) => p.net !== 0).length,
    points.filter((p) => p.previousNet !== 0).length,
  );
  const variance = coverage === 'full' && previousNet !== 0 ? (net - previousNet) / previousNet : null;
  return { net, previousNet, coverage, variance };
}

/** One bar: a category and its net sales incl. VAT in integer cents. */
export interface SalesBar {
  key: string;
  label: string;
  /** What tells two bars of the same label apart (the site of a seller), shown in the table. */
  detail?: string;
  /** Integer cents. */
  value: number;
}

/**
 * Bars of a dataset: one per row, labelled by the `labelKey` column and valued by `netSales`.
 * With `siteKey` and more than one site in the dataset, the site's name is the bar's `detail` (a
 * seller works at one site; two sellers of the same name at two sites stay apart in the table).
 * Rows keep the server's order. A row without a label reads `notSet`.
 */
export function salesBars(
  dataset: Dataset,
  labelKey: string,
  options: { notSet: string; siteKey?: string },
): SalesBar[] {
  const withSite = options.siteKey !== undefined && dataset.sites.length > 1;
  return dataset.rows.map((row, i) => {
    const label = cellText(row[labelKey]) ?? options.notSet;
    const site = options.siteKey ? cellText(row[options.siteKey]) : null;
    const bar: SalesBar = { key: `${i}`, label, value: cellNumber(row.netSales) };
    if (withSite && site) bar.detail = site;
    return bar;
  });
}

/**
 * The `max` largest bars by value, largest first, and the rest added up into one last bar
 * labelled `othersLabel` (only when more than `max` bars), so a chart stays readable on a phone
 * whatever the number of sellers or families.
 */
export function topBars(bars: readonly SalesBar[], max: number, othersLabel: string): SalesBar[] {
  const sorted = [...bars].sort((a, b) => b.value - a.value);
  if (sorted.length <= max) return sorted;
  const kept = sorted.slice(0, max);
  const rest = sorted.slice(max).reduce((s, b) => s + b.value, 0);
  return [...kept, { key: 'others', label: othersLabel, value: rest }];
}

/**
 * The chart of a report's Graph variant (SPEC.md §9 variants, issue #4 "the Graph variant puts a
 * chart in the PDF and on screen"), derived from the dataset alone so that the PDF (server,
 * src/server/reports/render/chart.ts) and the /rapports screen (client) draw the same chart.
 *
 * Rule: the x axis is the dataset's first date or text column that is not an identifier (fiscal
 * date, day part, family, seller…); the y axis is its first money column (else its first
 * quantity column), summed over the rows sharing an x value (every site together). Dates give a
 * line in date order; other categories give bars in the dataset's own order (day parts in clock
 * order…), the {@link MAX_BARS} largest when there are more.
 */
import type { ColumnType, Dataset } from './reports.ts';

/** Most bars a chart shows (the largest); the table below keeps every row. */
export const MAX_BARS = 24;

/** One point: the x value (wire date or category text) and the summed y value. */
export interface ReportChartPoint {
  x: string;
  /** Money in integer cents, or a quantity. */
  y: number;
}

/** What to draw for a Graph dataset. */
export interface ReportChart {
  kind: 'line' | 'bar';
  /** Key and label of the x column. */
  xKey: string;
  xLabel: string;
  /** `date`: x values are wire dates `YYYY-MM-DD`. */
  xType: 'date' | 'text';
  /** Key, label and type of the y column (`money` values are integer cents). */
  yKey: string;
  yLabel: string;
  yType: Extract<ColumnType, 'money' | 'qty'>;
  points: ReportChartPoint[];
}

/** The chart of `dataset`, or null when it has no column to draw (no category or no figure). */
export function reportChart(dataset: Pick<Dataset, 'columns' | 'rows'>): ReportChart | null {
  const x = dataset.columns.find(
    (c) => (c.type === 'date' || c.type === 'text') && !c.key.endsWith('Id') && c.key !== 'time',
  );
  const y =
    dataset.columns.find((c) => c.type === 'money') ??
    dataset.columns.find((c) => c.type === 'qty' && !c.key.endsWith('Id'));
  if (!x || !y || (y.type !== 'money' && y.type !== 'qty')) return null;
  const yColumn = { key: y.key, label: y.label, type: y.type };
  const sums = new Map<string, number>();
  for (const row of dataset.rows) {
    const key = row[x.key];
    const value = row[y.key];
    if (key === null || key === undefined || typeof value !== 'number') continue;
    sums.set(String(key), (sums.get(String(key)) ?? 0) + value);
  }
  if (sums.size === 0) return null;
  const xType = x.type === 'date' ? 'date' : 'text';
  const points = [...sums].map(([px, py]) => ({ x: px, y: py }));
  if (xType === 'date') points.sort((a, b) => (a.x < b.x ? -1 : a.x > b.x ? 1 : 0));
  else if (points.length > MAX_BARS) {
    const kept = new Set([...points].sort((a, b) => b.y - a.y).slice(0, MAX_BARS));
    return { ...chartOf(x, yColumn, xType), points: points.filter((p) => kept.has(p)) };
  }
  return {
    ...chartOf(x, yColumn, xType),
    kind: xType === 'date' && points.length > 1 ? 'line' : 'bar',
    points,
  };
}

function chartOf(
  x: { key: string; label: string },
  y: { key: string; label: string; type: 'money' | 'qty' },
  xType: 'date' | 'text',
): Omit<ReportChart, 'points'> {
  return { kind: 'bar', xKey: x.key, xLabel: x.label, xType, yKey: y.key, yLabel: y.label, yType: y.type };
}

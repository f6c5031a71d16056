/**
 * Bar charts (recharts) shared by /graphs, /analyses/repartitions, /bi and /tracker, sized to
 * their container so they read on a phone:
 * - {@link CategoryChart}: one or more series over categories — as horizontal bars (one row per
 *   category, long labels allowed; the BI explorer's period beside its comparison) or as columns
 *   over ordered categories (the tracker's hours), a series may be a dashed line instead of bars;
 * - {@link HorizontalBarChart}: the single-series case, one bar per category.
 *
 * The chart is drawn for the eye only: the SVG sits in an `aria-hidden` box with nothing
 * focusable inside (no accessibility layer, so no keyboard tooltip), and the figure's caption
 * names it. The caller puts the figures beside it as a table or text, the screen readers' view.
 * Screens that do not always show a chart load this module on demand (React.lazy), so recharts
 * stays out of the entry chunk.
 */
import type { ReactElement } from 'react';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import './chart-screen.css';

/** One series of a chart. */
export interface ChartSeries {
  /** Key of the series' value in each category's `values`. */
  key: string;
  /** Name in the legend and the tooltip. */
  label: string;
  /** Bars (default) or a dashed line, for a comparison over ordered categories (hours). */
  mark?: 'bar' | 'line';
  /** `current` (default): the period shown; `comparison`: what it is compared with, greyed. */
  tone?: 'current' | 'comparison';
}

/** One category (a site, a family, an hour…) and its value in each series. */
export interface ChartCategory {
  key: string;
  label: string;
  /** Shown after the label in the tooltip (e.g. the seller's site). */
  detail?: string;
  /** Values by series key, in the unit `format` expects (cents for money). */
  values: Readonly<Record<string, number>>;
}

export interface CategoryChartProps {
  /** Visible caption of the figure (the chart's title). */
  title: string;
  categories: readonly ChartCategory[];
  series: readonly ChartSeries[];
  /** `bars`: horizontal bars, one row per category; `columns`: categories along the x axis. */
  layout?: 'bars' | 'columns';
  /** Value as text (tooltip, and axis ticks without `formatTick`): money, percent… */
  format: (value: number) => string;
  /** Shorter text for the axis ticks; defaults to `format`. */
  formatTick?: (value: number) => string;
}

/** Longest category label on a bar chart's axis, in characters (the tooltip and table keep it whole). */
const MAX_TICK_CHARS = 15;

/** `label` cut to {@link MAX_TICK_CHARS} characters with an ellipsis, so a tick holds on one line on a phone. */
export function tickLabel(label: string): string {
  return label.length <= MAX_TICK_CHARS ? label : `${label.slice(0, MAX_TICK_CHARS - 1).trimEnd()}…`;
}

/** Height of a row of horizontal bars in px: room for a 14 px label and a touchable bar, plus 10 per more bar. */
const rowHeight = (bars: number) => 24 + 10 * Math.max(1, bars);

/** Height of a columns chart in px. */
const COLUMNS_HEIGHT = 260;

const TICK = { fontSize: 12, fill: 'var(--c-muted)' } as const;

const colour = (s: ChartSeries) => (s.tone === 'comparison' ? 'var(--c-muted)' : 'var(--c-primary)');

/** The category and value axes of `layout` (elements, not a component: recharts reads its children). */
function axes(layout: 'bars' | 'columns', tick: (value: number) => string): ReactElement[] {
  if (layout === 'columns') {
    return [
      <XAxis key="x" dataKey="label" tick={TICK} minTickGap={8} />,
      <YAxis key="y" tickFormatter={tick} tick={TICK} width={72} />,
    ];
  }
  return [
    <XAxis key="x" type="number" tickFormatter={tick} tick={TICK} tickCount={4} />,
    <YAxis
      key="y"
      type="category"
      dataKey="label"
      width={132}
      tickFormatter={tickLabel}
      tick={{ fontSize: 12, fill: 'var(--c-text)' }}
      interval={0}
    />,
  ];
}

/** A series as recharts marks: bars, or a dashed line without dots. */
function mark(s: ChartSeries, i: number): ReactElement {
  const dataKey = `s${i}`;
  return s.mark === 'line' ? (
    <Line
      key={s.key}
      type="monotone"
      dataKey={dataKey}
      name={s.label}
      stroke={colour(s)}
      strokeWidth={2}
      strokeDasharray="5 4"
      dot={false}
      isAnimationActive={false}
    />
  ) : (
    <Bar key={s.key} dataKey={dataKey} name={s.label} fill={colour(s)} isAnimationActive={false} />
  );
}

export function CategoryChart({
  title,
  categories,
  series,
  layout = 'bars',
  format,
  formatTick,
}: CategoryChartProps) {
  // Series' values under keys of our own (s0, s1…), so no series key can clash with `label`.
  const data = categories.map((c) => ({
    label: c.label,
    detail: c.detail,
    ...Object.fromEntries(series.map((s, i) => [`s${i}`, c.values[s.key] ?? 0])),
  }));
  const legend = series.length > 1;
  const barSeries = series.filter((s) => s.mark !== 'line').length;
  const height =
    layout === 'columns'
      ? COLUMNS_HEIGHT
      : Math.max(120, categories.length * rowHeight(barSeries) + 48 + (legend ? 24 : 0));
  return (
    <figure className="gr-figure">
      <figcaption className="gr-figure__title">{title}</figcaption>
      <div className="gr-chart" style={{ height }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            accessibilityLayer={false}
            data={data}
            layout={layout === 'bars' ? 'vertical' : 'horizontal'}
            margin={{ top: layout === 'bars' ? 4 : 8, right: 16, bottom: 4, left: 4 }}
          >
            <CartesianGrid
              horizontal={layout === 'columns'}
              vertical={layout === 'bars'}
              stroke="var(--c-border)"
            />
            {axes(layout, formatTick ?? format)}
            <Tooltip
              formatter={(v) => format(Number(v))}
              labelFormatter={(label, payload) => {
                const detail: unknown = payload?.[0]?.payload?.detail;
                return typeof detail === 'string' ? `${String(label)} (${detail})` : String(label);
              }}
              cursor={{ fill: 'var(--c-primary-soft)' }}
            />
            {legend ? <Legend wrapperStyle={{ fontSize: 13 }} /> : null}
            {series.map(mark)}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

/** One bar of a {@link HorizontalBarChart}. */
export interface CategoryBar {
  key: string;
  label: string;
  /** Shown after the label in the tooltip (e.g. the seller's site). */
  detail?: string;
  value: number;
}

export interface HorizontalBarChartProps {
  /** Visible caption of the figure (the chart's title). */
  title: string;
  bars: readonly CategoryBar[];
  /** Value of a bar as text (axis ticks and tooltip): money, percent… */
  format: (value: number) => string;
  /** Shorter text for the axis ticks; defaults to `format`. */
  formatTick?: (value: number) => string;
}

/** One horizontal bar per category, the series named after the chart's title. */
export function HorizontalBarChart({ title, bars, format, formatTick }: HorizontalBarChartProps) {
  return (
    <CategoryChart
      title={title}
      categories={bars.map((b) => ({
        key: b.key,
        label: b.label,
        detail: b.detail,
        values: { value: b.value },
      }))}
      series={[{ key: 'value', label: title }]}
      format={format}
      formatTick={formatTick}
    />
  );
}

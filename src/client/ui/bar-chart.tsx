/**
 * Horizontal bar chart (recharts) shared by /graphs and /analyses/repartitions: one bar per
 * category, longest labels allowed, sized to its container so it reads on a phone. The chart is
 * drawn for the eye; the caller puts a table or a text alternative next to it (the figure's
 * caption names the chart, the SVG is hidden from assistive technology to avoid reading every tick).
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import './chart-screen.css';

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

/** Longest category label on a bar chart's axis, in characters (the tooltip and table keep it whole). */
const MAX_TICK_CHARS = 15;

/** `label` cut to {@link MAX_TICK_CHARS} characters with an ellipsis, so a tick holds on one line on a phone. */
export function tickLabel(label: string): string {
  return label.length <= MAX_TICK_CHARS ? label : `${label.slice(0, MAX_TICK_CHARS - 1).trimEnd()}…`;
}

/** Height per bar in px: enough for a 14 px label and a touchable bar. */
const BAR_HEIGHT = 34;

export function HorizontalBarChart({ title, bars, format, formatTick }: HorizontalBarChartProps) {
  const height = Math.max(120, bars.length * BAR_HEIGHT + 48);
  return (
    <figure className="gr-figure">
      <figcaption className="gr-figure__title">{title}</figcaption>
      <div className="gr-chart" style={{ height }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            accessibilityLayer={false}
            data={[...bars]}
            layout="vertical"
            margin={{ top: 4, right: 16, bottom: 4, left: 4 }}
          >
            <CartesianGrid horizontal={false} stroke="var(--c-border)" />
            <XAxis
              type="number"
              tickFormatter={formatTick ?? format}
              tick={{ fontSize: 12, fill: 'var(--c-muted)' }}
              tickCount={4}
            />
            <YAxis
              type="category"
              dataKey="label"
              width={132}
              tickFormatter={tickLabel}
              tick={{ fontSize: 12, fill: 'var(--c-text)' }}
              interval={0}
            />
            <Tooltip
              formatter={(v) => format(Number(v))}
              labelFormatter={(label, payload) => {
                const detail: unknown = payload?.[0]?.payload?.detail;
                return typeof detail === 'string' ? `${String(label)} (${detail})` : String(label);
              }}
              cursor={{ fill: 'var(--c-primary-soft)' }}
            />
            <Bar dataKey="value" name={title} fill="var(--c-primary)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

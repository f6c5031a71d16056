/**
 * The explorer's chart (recharts, loaded on demand with this module): one pair of horizontal
 * bars per row — the period and its comparison — for the first rows. Drawn for the eye only: the
 * SVG is hidden from assistive technology with nothing focusable inside (no accessibility layer,
 * no keyboard tooltip); the table beside it holds every figure.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { tickLabel } from '../../../ui/bar-chart.tsx';
import '../../../ui/chart-screen.css';

export interface BiChartBar {
  key: string;
  label: string;
  value: number;
  comparison: number;
}

export interface BiChartProps {
  title: string;
  bars: readonly BiChartBar[];
  valueLabel: string;
  comparisonLabel: string;
  format: (value: number) => string;
}

/** Height per pair of bars in px. */
const PAIR_HEIGHT = 44;

export default function BiChart({ title, bars, valueLabel, comparisonLabel, format }: BiChartProps) {
  const height = Math.max(140, bars.length * PAIR_HEIGHT + 72);
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
              tickFormatter={format}
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
            <Tooltip formatter={(v) => format(Number(v))} cursor={{ fill: 'var(--c-primary-soft)' }} />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Bar dataKey="value" name={valueLabel} fill="var(--c-primary)" isAnimationActive={false} />
            <Bar
              dataKey="comparison"
              name={comparisonLabel}
              fill="var(--c-muted)"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

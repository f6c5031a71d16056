/**
 * Sales over time (recharts line chart): the period's net sales per day and, dashed, those of the
 * same weekdays a year earlier. Sized to its container; the x ticks thin themselves out on a
 * phone. The SVG is hidden from assistive technology: the page gives the totals as text and the
 * day-by-day figures in a table.
 */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDate } from '../../../lib/format.ts';
import type { DailyPoint } from '../graph-series.ts';
import '../../../ui/chart-screen.css';

export interface SalesLineChartProps {
  title: string;
  points: readonly DailyPoint[];
  currentLabel: string;
  previousLabel: string;
  /** Cents as full money text (tooltip). */
  formatMoney: (cents: number) => string;
  /** Cents as short money text (axis ticks). */
  formatTick: (cents: number) => string;
  /** Tooltip heading of a point: its date and the date it is compared with (wire dates). */
  pointTitle: (date: string, previousDate: string) => string;
}

/** DD/MM of a wire date, short enough for an axis tick. */
function shortDate(wire: string): string {
  return formatDate(wire).slice(0, 5);
}

export function SalesLineChart(props: SalesLineChartProps) {
  const { title, points, currentLabel, previousLabel, formatMoney, formatTick, pointTitle } = props;
  return (
    <figure className="gr-figure">
      <figcaption className="gr-figure__title">{title}</figcaption>
      <div className="gr-chart gr-chart--line" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            accessibilityLayer={false}
            data={[...points]}
            margin={{ top: 8, right: 12, bottom: 4, left: 4 }}
          >
            <CartesianGrid vertical={false} stroke="var(--c-border)" />
            <XAxis
              dataKey="date"
              tickFormatter={shortDate}
              tick={{ fontSize: 12, fill: 'var(--c-muted)' }}
              minTickGap={16}
            />
            <YAxis tickFormatter={formatTick} tick={{ fontSize: 12, fill: 'var(--c-muted)' }} width={64} />
            <Tooltip
              labelFormatter={(d, payload) => {
                const previous: unknown = payload?.[0]?.payload?.previousDate;
                return typeof previous === 'string' ? pointTitle(String(d), previous) : formatDate(String(d));
              }}
              formatter={(v) => formatMoney(Number(v))}
            />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Line
              type="monotone"
              dataKey="net"
              name={currentLabel}
              stroke="var(--c-primary)"
              strokeWidth={2}
              dot={points.length <= 31}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="previousNet"
              name={previousLabel}
              stroke="var(--c-muted)"
              strokeWidth={2}
              strokeDasharray="5 4"
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

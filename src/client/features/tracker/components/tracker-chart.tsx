/**
 * One site's day so far as a chart (recharts, loaded on demand with this module): net sales per
 * hour today as bars, the same weekday a year earlier as a line. Drawn for the eye only: hidden
 * from assistive technology, nothing focusable inside; the hour table beside it holds the figures.
 */
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
import '../../../ui/chart-screen.css';

export interface TrackerChartProps {
  title: string;
  hours: readonly { hour: number; netCents: number; lastYearCents: number }[];
  todayLabel: string;
  lastYearLabel: string;
  format: (cents: number) => string;
}

export default function TrackerChart({ title, hours, todayLabel, lastYearLabel, format }: TrackerChartProps) {
  const data = hours.map((h) => ({ ...h, label: `${String(h.hour).padStart(2, '0')}h` }));
  return (
    <figure className="gr-figure">
      <figcaption className="gr-figure__title">{title}</figcaption>
      <div className="gr-chart" style={{ height: 260 }} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            accessibilityLayer={false}
            data={data}
            margin={{ top: 8, right: 12, bottom: 4, left: 4 }}
          >
            <CartesianGrid vertical={false} stroke="var(--c-border)" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: 'var(--c-muted)' }} minTickGap={8} />
            <YAxis tickFormatter={format} tick={{ fontSize: 12, fill: 'var(--c-muted)' }} width={72} />
            <Tooltip formatter={(v) => format(Number(v))} />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Bar dataKey="netCents" name={todayLabel} fill="var(--c-primary)" isAnimationActive={false} />
            <Line
              type="monotone"
              dataKey="lastYearCents"
              name={lastYearLabel}
              stroke="var(--c-muted)"
              strokeWidth={2}
              strokeDasharray="5 4"
              dot={false}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

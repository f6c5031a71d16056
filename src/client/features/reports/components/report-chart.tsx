/**
 * The Graph variant on screen (issue #4: "the Graph variant puts a chart in the PDF and on
 * screen"): the same chart as the PDF's, from the same rule (src/contract/report-chart.ts), drawn
 * with recharts and sized to its container so it reads on a phone. The table below it is the
 * text alternative, so the drawing itself is hidden from assistive technology.
 */
import { useIntl } from 'react-intl';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { reportChart } from '../../../../contract/report-chart.ts';
import type { Dataset } from '../../../../contract/reports.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';

/** Category labels longer than this are cut with an ellipsis on the axis (the tooltip has them whole). */
const LABEL_CHARS = 14;

export function ReportChart({ dataset }: { dataset: Dataset }) {
  const intl = useIntl();
  const chart = reportChart(dataset);
  if (!chart) return null;
  const { locale } = intl;
  const value = (v: number) =>
    chart.yType === 'money' ? formatMoney(v, dataset.currency, locale) : formatNumber(v, locale);
  const tick = (v: number) =>
    chart.yType === 'money'
      ? formatNumber(v / 100, locale, {
          style: 'currency',
          currency: dataset.currency,
          maximumFractionDigits: 0,
        })
      : formatNumber(v, locale, { notation: 'compact' });
  const xText = (v: string) => (chart.xType === 'date' ? formatDate(v) : v);
  const xTick = (v: string) =>
    chart.xType === 'date'
      ? formatDate(v).slice(0, 5)
      : v.length > LABEL_CHARS
        ? `${v.slice(0, LABEL_CHARS - 1)}…`
        : v;
  const axes = [
    <CartesianGrid key="grid" vertical={false} stroke="var(--c-border)" />,
    <XAxis
      key="x"
      dataKey="x"
      tickFormatter={xTick}
      tick={{ fontSize: 12, fill: 'var(--c-muted)' }}
      interval={chart.kind === 'line' ? 'preserveStartEnd' : 0}
      minTickGap={12}
    />,
    <YAxis key="y" tickFormatter={tick} tick={{ fontSize: 12, fill: 'var(--c-muted)' }} width={80} />,
    <Tooltip
      key="tip"
      formatter={(v) => [value(Number(v)), chart.yLabel]}
      labelFormatter={(label) => xText(String(label))}
    />,
  ];
  return (
    <figure className="rep-chart">
      <figcaption className="rep-chart__title">
        {chart.yLabel} · {chart.xLabel}
      </figcaption>
      <div className="rep-chart__plot" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {chart.kind === 'line' ? (
            <LineChart
              accessibilityLayer={false}
              data={chart.points}
              margin={{ top: 8, right: 16, bottom: 4, left: 4 }}
            >
              {axes}
              <Line
                dataKey="y"
                stroke="var(--c-primary)"
                strokeWidth={2}
                dot={chart.points.length <= 31}
                isAnimationActive={false}
              />
            </LineChart>
          ) : (
            <BarChart
              accessibilityLayer={false}
              data={chart.points}
              margin={{ top: 8, right: 16, bottom: 4, left: 4 }}
            >
              {axes}
              <Bar dataKey="y" fill="var(--c-primary)" isAnimationActive={false} />
            </BarChart>
          )}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

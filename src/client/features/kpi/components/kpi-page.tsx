/**
 * /totalKPI (issue #19): the chain's key figures for the chosen sites and period — net sales,
 * tickets, average ticket, covers, items per ticket, cancellation and correction rates, cash
 * variance — for all of them, then by company, group and site, against the same weekdays a year
 * earlier and the forecast (with its 80 % range for the period: "between … and …", issue #31),
 * each row with a sparkline of its net sales per day. A year before
 * with partial or no data is said in words, not as a percentage.
 *
 * Shown on arrival, without a press, for the selection's arrival period (selection/period.ts
 * arrivalPeriod: the last full week unless the user chose a period already — the weekly review); the "show" button reloads for another choice.
 */
import type { Ref } from 'react';
import { useIntl } from 'react-intl';
import type { BiKpiAnswer, BiKpiLine } from '../../../../contract/bi.ts';
import { formatChange, formatDate, formatMoneyOrDash, formatNumber, NO_FIGURE } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { queryClient } from '../../../lib/query-client.ts';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import {
  type SelectionRequest,
  ShowCard,
  useSelectionResult,
  useShowOnArrival,
} from '../../../selection/components/selection-result.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Table } from '../../../ui/table.tsx';
import { type Comparison, compareWith } from '../kpi-compare.ts';
import { kpiQueries } from '../kpi-queries.ts';
import { Sparkline } from './sparkline.tsx';
import './kpi.css';

type KpiData = BiKpiAnswer['data'];

async function loadKpi(request: SelectionRequest): Promise<KpiData> {
  return (await queryClient.fetchQuery(kpiQueries.totals(request))).data;
}

export function KpiPage() {
  const intl = useIntl();
  const { result, loading, formError, resultHeading, show } = useSelectionResult<KpiData>();
  useShowOnArrival(show, loadKpi);
  return (
    <div className="gr-page kpi-page">
      <h1 className="gr-title">{intl.formatMessage({ id: 'kpi.title' })}</h1>
      <SelectionPanel sitesOnly />
      <ShowCard
        label={intl.formatMessage({ id: 'kpi.show' })}
        loadingLabel={intl.formatMessage({ id: 'kpi.loading' })}
        formError={formError}
        loading={loading}
        onShow={() => void show(loadKpi)}
      />
      {result ? <KpiTable data={result} headingRef={resultHeading} /> : null}
    </div>
  );
}

/** The key figures' table: one row per line of the answer. */
function KpiTable({ data, headingRef }: { data: KpiData; headingRef: Ref<HTMLHeadingElement> }) {
  const intl = useIntl();
  const [language] = useLanguage();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const money = (cents: number | null) => formatMoneyOrDash(cents, data.currency, language);
  const num = (n: number | null, digits = 0) =>
    n === null ? NO_FIGURE : formatNumber(n, language, { maximumFractionDigits: digits });
  const pct = (n: number | null) =>
    n === null ? NO_FIGURE : formatNumber(n, language, { style: 'percent', maximumFractionDigits: 1 });
  const compared = (c: Comparison) =>
    c.kind === 'change' ? formatChange(c.change, language) : t(`kpi.compare.${c.kind}`);
  // The forecast's 80 % range for the period (issue #31); answers saved before it have none, and a
  // forecast of nothing (no history) has no range worth a figure.
  const withRange = data.lines.some((l) => l.forecastLowCents !== undefined);
  const forecastRange = (line: BiKpiLine) =>
    line.forecastCents === null ||
    line.forecastCents <= 0 ||
    line.forecastLowCents === undefined ||
    line.forecastHighCents === undefined
      ? NO_FIGURE
      : t('kpi.forecast.range', { low: money(line.forecastLowCents), high: money(line.forecastHighCents) });
  const columns = [
    { key: 'label', label: t('kpi.column.line'), isRowHeader: true },
    { key: 'net', label: t('kpi.column.net'), align: 'end' as const },
    { key: 'vsYear', label: t('kpi.column.vsYear'), align: 'end' as const },
    { key: 'vsForecast', label: t('kpi.column.vsForecast'), align: 'end' as const },
    ...(withRange
      ? [{ key: 'forecastRange', label: t('kpi.column.forecastRange'), align: 'end' as const }]
      : []),
    { key: 'tickets', label: t('kpi.column.tickets'), align: 'end' as const },
    { key: 'average', label: t('kpi.column.average'), align: 'end' as const },
    { key: 'covers', label: t('kpi.column.covers'), align: 'end' as const },
    { key: 'items', label: t('kpi.column.itemsPerTicket'), align: 'end' as const },
    { key: 'cancellations', label: t('kpi.column.cancellationRate'), align: 'end' as const },
    { key: 'corrections', label: t('kpi.column.correctionRate'), align: 'end' as const },
    { key: 'cash', label: t('kpi.column.cashVariance'), align: 'end' as const },
    { key: 'trend', label: t('kpi.column.trend') },
  ];
  const rowOf = (line: BiKpiLine) => ({
    id: `${line.level}:${line.key}`,
    cells: {
      label: t(`kpi.line.${line.level}`, { name: line.label }),
      net: money(line.current.netCents),
      vsYear: compared(compareWith(line.current.netCents, line.yearBefore.netCents, line.yearBeforeCoverage)),
      vsForecast: compared(compareWith(line.current.netCents, line.forecastCents, 'FULL')),
      ...(withRange ? { forecastRange: forecastRange(line) } : {}),
      tickets: num(line.current.tickets),
      average: money(line.current.averageTicketCents),
      covers: num(line.current.covers),
      items: num(line.current.itemsPerTicket, 2),
      cancellations: pct(line.current.cancellationRate),
      corrections: pct(line.current.correctionRate),
      cash: money(line.current.cashVarianceCents),
      trend: <Sparkline values={line.sparkline} />,
    },
  });
  return (
    <Card labelledBy="kpi-result-title">
      <CardTitle id="kpi-result-title" focusRef={headingRef}>
        {t('kpi.resultTitle', {
          from: formatDate(data.period.dateDebut),
          to: formatDate(data.period.dateFin),
        })}
      </CardTitle>
      <p className="kpi-note">
        {t('kpi.yearBefore', {
          from: formatDate(data.yearBefore.dateDebut),
          to: formatDate(data.yearBefore.dateFin),
        })}
      </p>
      <Table
        label={t('kpi.tableLabel')}
        columns={columns}
        rows={data.lines.map(rowOf)}
        className="kpi-table"
        stackOnNarrow
      />
    </Card>
  );
}

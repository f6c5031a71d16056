/**
 * /graphs (issue #4 §5): sales of the chosen sites and period over time (net sales incl. VAT per
 * day, with the same weekdays a year earlier), and by day part, product family and seller. Each
 * chart comes from a report class answered as JSON (bo/getReport format=JSON): the comparison
 * report (Cumulative: one row per date for every site together), RapportVentesTranche,
 * RapportVentesFamille and RapportVentesVendeur. Every chart has a title and its figures as text
 * (a summary or a table) for screen readers and for reading exact amounts on a phone.
 */
import type { Ref } from 'react';
import { useIntl } from 'react-intl';
import {
  type Dataset,
  DatasetAnswerSchema,
  type Language,
  type ReportVariant,
} from '../../../../contract/reports.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { getJson } from '../../../lib/http.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notifyFailure } from '../../../lib/notifications.ts';
import { Card } from '../../../ui/card.tsx';
import { Table, type TableProps } from '../../../ui/table.tsx';
import { buildReportParams } from '../../../lib/report-request.ts';
import { SelectionPanel } from '../../../selection/components/selection-panel.tsx';
import { selection } from '../../../selection/selection-state.ts';
import { comparisonTotals, dailyComparison, type SalesBar, salesBars, topBars } from '../graph-series.ts';
import { HorizontalBarChart } from '../../../ui/bar-chart.tsx';
import { SalesLineChart } from './sales-line-chart.tsx';
import {
  type SelectionRequest,
  ShowCard,
  useSelectionResult,
  useShowOnArrival,
} from '../../../selection/components/selection-result.tsx';
import '../../../ui/chart-screen.css';

/** The report behind each chart. */
const CHARTS = [
  { id: 'time', className: 'RapportVentesComparaison', variant: 'Cumulative' },
  { id: 'dayPart', className: 'RapportVentesTranche', variant: 'Daily' },
  { id: 'family', className: 'RapportVentesFamille', variant: 'Daily' },
  { id: 'seller', className: 'RapportVentesVendeur', variant: 'Daily' },
] as const satisfies ReadonlyArray<{ id: string; className: string; variant: ReportVariant }>;
type ChartId = (typeof CHARTS)[number]['id'];

/** Most bars a family or seller chart shows; the rest are added up in one "others" bar. */
const MAX_BARS = 10;

/** The four charts' datasets for `request`; those that failed are left out (one notification for all). */
async function loadCharts(
  request: SelectionRequest,
  language: Language,
): Promise<Partial<Record<ChartId, Dataset>> | null> {
  const answers = await Promise.allSettled(
    CHARTS.map((c) =>
      getJson(
        'bo/getReport',
        DatasetAnswerSchema,
        buildReportParams({
          userId: request.userId,
          className: c.className,
          typeRapport: c.variant,
          format: 'JSON',
          language,
          range: request.range,
          siteIds: request.siteIds,
          terminalKeys: [],
          sellerKeys: [],
          trancheHoraire: false,
          heureDebut: selection.heureDebut,
          heureFin: selection.heureFin,
        }),
      ),
    ),
  );
  const found: Partial<Record<ChartId, Dataset>> = {};
  answers.forEach((a, i) => {
    const chart = CHARTS[i];
    if (chart && a.status === 'fulfilled') found[chart.id] = a.value;
  });
  // One message for the whole screen: the four reports usually fail for the same reason.
  const failed = answers.find((a) => a.status === 'rejected');
  if (failed) notifyFailure(failed.reason);
  return Object.keys(found).length > 0 ? found : null;
}

/**
 * The /graphs screen: the sites and period, the "show" button, then the four charts — shown on
 * arrival (selection/period.ts arrivalPeriod: the last full week unless the user chose a period)
 * once the user's sites are known, without a press.
 */
export function GraphsPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const {
    result: datasets,
    loading,
    formError,
    resultHeading,
    show,
  } = useSelectionResult<Partial<Record<ChartId, Dataset>>>();
  useShowOnArrival(show, (request) => loadCharts(request, language));

  return (
    <div className="gr-page">
      <h1 className="gr-title">{intl.formatMessage({ id: 'graphs.title' })}</h1>
      <SelectionPanel sitesOnly />
      <ShowCard
        label={intl.formatMessage({ id: 'graphs.show' })}
        loadingLabel={intl.formatMessage({ id: 'graphs.loading' })}
        formError={formError}
        loading={loading}
        onShow={() => void show((request) => loadCharts(request, language))}
      />
      {datasets ? <Charts datasets={datasets} headingRef={resultHeading} /> : null}
    </div>
  );
}

/** The result: its heading (which `headingRef` focuses) with the period, then a card per chart that answered. */
function Charts({
  datasets,
  headingRef,
}: {
  datasets: Partial<Record<ChartId, Dataset>>;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const intl = useIntl();
  const [language] = useLanguage();
  const currency = datasets.time?.currency ?? datasets.family?.currency ?? 'EUR';
  const money = (cents: number) => formatMoney(cents, currency, language);
  const moneyTick = (cents: number) =>
    formatNumber(cents / 100, language, {
      style: 'currency',
      currency,
      notation: 'compact',
      maximumFractionDigits: 1,
    });
  /** Any of the answers, for the period shown in the heading (all four share it). */
  const shown = datasets.time ?? datasets.dayPart ?? datasets.family ?? datasets.seller;
  const notSet = intl.formatMessage({ id: 'graphs.notSet' });
  const others = intl.formatMessage({ id: 'graphs.others' });

  return (
    <>
      <h2 className="gr-title gr-result-title" tabIndex={-1} ref={headingRef}>
        {intl.formatMessage(
          { id: 'graphs.resultTitle' },
          {
            start: formatDate(shown?.dateDebut ?? ''),
            end: formatDate(shown?.dateFin ?? ''),
          },
        )}
      </h2>
      {datasets.time ? <OverTime dataset={datasets.time} money={money} moneyTick={moneyTick} /> : null}
      <div className="gr-grid">
        {datasets.dayPart ? (
          <BarsCard
            title={intl.formatMessage({ id: 'graphs.byDayPart' })}
            bars={salesBars(datasets.dayPart, 'dayPart', { notSet })}
            money={money}
            moneyTick={moneyTick}
          />
        ) : null}
        {datasets.family ? (
          <BarsCard
            title={intl.formatMessage({ id: 'graphs.byFamily' })}
            bars={topBars(salesBars(datasets.family, 'family', { notSet }), MAX_BARS, others)}
            money={money}
            moneyTick={moneyTick}
          />
        ) : null}
        {datasets.seller ? (
          <BarsCard
            title={intl.formatMessage({ id: 'graphs.bySeller' })}
            bars={topBars(
              salesBars(datasets.seller, 'seller', { notSet, siteKey: 'site' }),
              MAX_BARS,
              others,
            )}
            money={money}
            moneyTick={moneyTick}
          />
        ) : null}
      </div>
    </>
  );
}

interface MoneyFormats {
  money: (cents: number) => string;
  moneyTick: (cents: number) => string;
}

function OverTime({ dataset, money, moneyTick }: { dataset: Dataset } & MoneyFormats) {
  const intl = useIntl();
  const [language] = useLanguage();
  const points = dailyComparison(dataset);
  const totals = comparisonTotals(points);
  const title = intl.formatMessage({ id: 'graphs.overTime' });
  return (
    <Card label={title}>
      <SalesLineChart
        title={title}
        points={points}
        currentLabel={intl.formatMessage({ id: 'graphs.thisPeriod' })}
        previousLabel={intl.formatMessage({ id: 'graphs.yearEarlier' })}
        formatMoney={money}
        formatTick={moneyTick}
        pointTitle={(date, previous) =>
          intl.formatMessage(
            { id: 'graphs.pointTitle' },
            { date: formatDate(date), previous: formatDate(previous) },
          )
        }
      />
      <p className="gr-summary">
        {totals.variance === null
          ? intl.formatMessage(
              { id: totals.coverage === 'partial' ? 'graphs.summaryPartial' : 'graphs.summaryNoPrevious' },
              { net: money(totals.net), previous: money(totals.previousNet) },
            )
          : intl.formatMessage(
              { id: 'graphs.summary' },
              {
                net: money(totals.net),
                previous: money(totals.previousNet),
                variance: formatNumber(totals.variance, language, {
                  style: 'percent',
                  maximumFractionDigits: 1,
                  signDisplay: 'exceptZero',
                }),
              },
            )}
      </p>
      <Figures
        label={title}
        columns={[
          { key: 'date', label: intl.formatMessage({ id: 'graphs.col.date' }), isRowHeader: true },
          { key: 'net', label: intl.formatMessage({ id: 'graphs.thisPeriod' }), align: 'end' },
          { key: 'previousDate', label: intl.formatMessage({ id: 'graphs.col.previousDate' }) },
          { key: 'previousNet', label: intl.formatMessage({ id: 'graphs.yearEarlier' }), align: 'end' },
        ]}
        rows={points.map((p) => ({
          id: p.date,
          cells: {
            date: formatDate(p.date),
            net: money(p.net),
            previousDate: formatDate(p.previousDate),
            previousNet: money(p.previousNet),
          },
        }))}
      />
    </Card>
  );
}

function BarsCard({ title, bars, money, moneyTick }: { title: string; bars: SalesBar[] } & MoneyFormats) {
  const intl = useIntl();
  return (
    <Card label={title}>
      {bars.length === 0 ? (
        <>
          <p className="gr-figure__title">{title}</p>
          <p className="gr-muted">{intl.formatMessage({ id: 'graphs.empty' })}</p>
        </>
      ) : (
        <>
          <HorizontalBarChart title={title} bars={bars} format={money} formatTick={moneyTick} />
          <Figures
            label={title}
            columns={[
              { key: 'label', label: intl.formatMessage({ id: 'graphs.col.label' }), isRowHeader: true },
              { key: 'value', label: intl.formatMessage({ id: 'graphs.col.netSales' }), align: 'end' },
            ]}
            rows={bars.map((b) => ({
              id: b.key,
              cells: { label: b.detail ? `${b.label} (${b.detail})` : b.label, value: money(b.value) },
            }))}
          />
        </>
      )}
    </Card>
  );
}

/**
 * A chart's figures as a table named `label`, folded under "Show the figures": the exact values,
 * and the chart's content for screen readers.
 */
function Figures({ label, columns, rows }: { label: string } & Pick<TableProps, 'columns' | 'rows'>) {
  const intl = useIntl();
  return (
    <details className="gr-details">
      <summary>{intl.formatMessage({ id: 'graphs.showFigures' })}</summary>
      <Table className="gr-table" label={label} columns={columns} rows={rows} stackOnNarrow />
    </details>
  );
}

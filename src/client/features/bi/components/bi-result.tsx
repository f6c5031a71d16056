/**
 * The explorer's result: its heading (which takes the focus when a result appears), the period
 * and its comparison, the export buttons, the table of every row (the screen readers' view and
 * the exact figures) and the chart of the first rows, loaded on demand.
 */
import { lazy, type Ref, Suspense } from 'react';
import { useIntl } from 'react-intl';
import type { BiExploreAnswer } from '../../../../contract/bi.ts';
import { formatDate } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { Table } from '../../../ui/table.tsx';
import { formatMeasure, formatVariation, variation } from '../bi-format.ts';

const CategoryChart = lazy(() =>
  import('../../../ui/bar-chart.tsx').then((m) => ({ default: m.CategoryChart })),
);

/** Most rows the chart draws; the table holds them all. */
const CHART_ROWS = 15;

type ExploreData = BiExploreAnswer['data'];

export function BiResult({
  data,
  headingRef,
  exporting,
  onExport,
}: {
  data: ExploreData;
  headingRef: Ref<HTMLHeadingElement>;
  exporting: boolean;
  onExport: (format: 'CSV' | 'XLSX') => void;
}) {
  const intl = useIntl();
  const [language] = useLanguage();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const show = (v: number | null) => formatMeasure(data.measure, v, data.currency, language);
  const period = (p: { dateDebut: string; dateFin: string }) =>
    t('bi.periodRange', { from: formatDate(p.dateDebut), to: formatDate(p.dateFin) });
  const measureLabel = t(`bi.measure.${data.measure}`);
  const comparisonLabel = t(`bi.comparison.${data.comparison.kind}`);
  const columns = [
    ...data.dimensions.map((d, i) => ({ key: `d${i}`, label: t(`bi.dimension.${d}`), isRowHeader: i === 0 })),
    { key: 'value', label: measureLabel, align: 'end' as const },
    { key: 'comparison', label: comparisonLabel, align: 'end' as const },
    { key: 'variation', label: t('bi.variation'), align: 'end' as const },
  ];
  const cellsOf = (labels: readonly string[], value: number | null, comparison: number | null) => ({
    ...Object.fromEntries(labels.map((l, i) => [`d${i}`, l])),
    value: show(value),
    comparison: show(comparison),
    variation: formatVariation(variation(value, comparison), language),
  });
  const rows = data.rows.map((r, i) => ({
    id: `${i}:${r.keys.join('|')}`,
    cells: cellsOf(r.labels, r.value, r.comparisonValue),
  }));
  if (data.dimensions.length > 0) {
    rows.push({ id: 'total', cells: cellsOf([t('bi.total')], data.total.value, data.total.comparisonValue) });
  }
  const bars = data.rows.slice(0, CHART_ROWS).map((r, i) => ({
    key: String(i),
    label: r.labels.join(' · '),
    values: { value: r.value ?? 0, comparison: r.comparisonValue ?? 0 },
  }));
  return (
    <Card labelledBy="bi-result-title" className="bi-result">
      <CardTitle id="bi-result-title" focusRef={headingRef}>
        {measureLabel}
      </CardTitle>
      <p className="bi-result__periods">
        {t('bi.periods', {
          period: period(data.period),
          comparisonLabel,
          comparison: period(data.comparison),
        })}
      </p>
      <div className="gr-buttons">
        <Button onPress={() => onExport('CSV')} isDisabled={exporting}>
          {t('bi.exportCsv')}
        </Button>
        <Button onPress={() => onExport('XLSX')} isDisabled={exporting}>
          {t('bi.exportXlsx')}
        </Button>
      </div>
      <Table
        label={t('bi.tableLabel', { measure: measureLabel })}
        columns={columns}
        rows={rows}
        empty={t('bi.empty')}
      />
      {data.dimensions.length > 0 && bars.length > 0 ? (
        <Suspense fallback={null}>
          <CategoryChart
            title={t('bi.chartTitle', { measure: measureLabel })}
            categories={bars}
            series={[
              { key: 'value', label: measureLabel },
              { key: 'comparison', label: comparisonLabel, tone: 'comparison' },
            ]}
            format={(v) => show(v)}
          />
        </Suspense>
      ) : null}
    </Card>
  );
}

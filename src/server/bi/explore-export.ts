/**
 * The explorer's answer as a CSV or XLSX document (GET bo/bi/explore&format=CSV|XLSX), written by
 * the reports' own renderers (reports/render: csv-stringify, exceljs) from a dataset, so the
 * export reads like every other report export: translated header, amounts in the language's
 * conventions, a totals row.
 */
import { BI_MONEY_MEASURES, type BiExploreAnswer } from '../../contract/bi.ts';
import type { ColumnType, Dataset, Language } from '../../contract/reports.ts';
import { message } from '../i18n.ts';
import { CONTENT_TYPES, contentDisposition, renderReport } from '../reports/render/index.ts';

/** Change from `before` to `now` as a fraction; null when either is missing or `before` is 0. */
export function variation(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return (now - before) / before;
}

/** The explorer's answer as a report dataset in `language`. */
export function exploreDataset(answer: BiExploreAnswer, language: Language): Dataset {
  const { data } = answer;
  const valueType: ColumnType = BI_MONEY_MEASURES.includes(data.measure) ? 'money' : 'qty';
  const dimensionColumns = data.dimensions.map((d, i) => ({
    key: `d${i}`,
    label: message(language, `bi.dimension.${d}`),
    type: 'text' as const,
  }));
  const measure = message(language, `bi.measure.${data.measure}`);
  return {
    className: 'BiExplore',
    variant: 'Daily',
    title: `${message(language, 'bi.title')} — ${measure}`,
    currency: data.currency,
    dateDebut: data.period.dateDebut,
    dateFin: data.period.dateFin,
    sites: [],
    generatedAt: new Date().toISOString(),
    columns: [
      ...dimensionColumns,
      { key: 'value', label: measure, type: valueType },
      {
        key: 'comparison',
        label: message(language, `bi.comparison.${data.comparison.kind}`),
        type: valueType,
      },
      { key: 'variation', label: message(language, 'bi.variation'), type: 'percent' },
    ],
    rows: data.rows.map((r) => ({
      ...Object.fromEntries(r.labels.map((l, i) => [`d${i}`, l])),
      value: r.value,
      comparison: r.comparisonValue,
      variation: variation(r.value, r.comparisonValue),
    })),
    totals: {
      value: data.total.value,
      comparison: data.total.comparisonValue,
      variation: variation(data.total.value, data.total.comparisonValue),
    },
  };
}

/** A rendered export: body, content type and `Content-Disposition`. */
export interface ExploreExport {
  body: Buffer | NodeJS.ReadableStream;
  contentType: string;
  disposition: string;
}

/** `answer` as a `format` document in `language`, named `<bi.fileName>_<dateDebut>_<dateFin>.<ext>`. */
export async function exportExplore(
  answer: BiExploreAnswer,
  format: 'CSV' | 'XLSX',
  language: Language,
  timeZone: string,
): Promise<ExploreExport> {
  const dataset = exploreDataset(answer, language);
  const rendered = await renderReport(dataset, format, {
    language,
    chain: '',
    timeZone,
    hours: null,
    fiscalDates: null,
    trainingMode: false,
  });
  const ext = format === 'CSV' ? 'csv' : 'xlsx';
  const fileName = `${message(language, 'bi.fileName')}_${dataset.dateDebut}_${dataset.dateFin}.${ext}`;
  return {
    body: rendered.kind === 'dataset' ? Buffer.from(JSON.stringify(rendered.data)) : rendered.data,
    contentType: CONTENT_TYPES[format],
    disposition: contentDisposition(fileName),
  };
}

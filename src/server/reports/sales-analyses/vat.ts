/**
 * Sales by VAT rate (`RapportVentesTva`, SPEC.md §1 "sales by VAT rate"): one row per rate of
 * the ticket lines, with the base excl. VAT, the VAT and the amount incl. VAT, plus the rate's
 * share of the net sales. The rate is a fraction (0.2 = 20 %), shown as a percentage. Lines of
 * returns and cancellations count negatively; rows go by ascending rate.
 *
 * The figures are those of the finance VAT breakdown (`RapportTva`, ../finance/vat.ts) summed
 * over the period: both read figures.ts `vatFigures` (same selection, same SQL, same aggregate
 * table), this class at the `period` grain. What stays here is the layout of a breakdown: no
 * date or site, a share column.
 */
import type { Dataset } from '../../../contract/reports.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { type AnalysisParams, AnalysisParamsSchema, share, sumOf } from './common.ts';
import { type FiguresQuery, vatFigures, vatFiguresQuery } from './figures.ts';

/** The SQL of the VAT rows of `request` (for the benchmark and EXPLAIN): figures.ts at the `period` grain. */
export function vatQuery(request: ReportRequest): FiguresQuery {
  return vatFiguresQuery(request, 'period');
}

async function queryVat(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const figures = await vatFigures(database, request, 'period');
  const totalNet = sumOf(figures, (f) => f.net);
  return {
    ...datasetHeader(vatSalesReport, request),
    columns: translatedColumns(request, [
      ['vatRate', 'percent'],
      ['netSalesExclTax', 'money'],
      ['tax', 'money'],
      ['netSales', 'money'],
      ['share', 'percent'],
    ]),
    rows: figures.map((f) => ({
      vatRate: f.rate,
      netSalesExclTax: f.excl,
      tax: f.tax,
      netSales: f.net,
      share: share(f.net, totalNet),
    })),
    totals: {
      vatRate: null,
      netSalesExclTax: sumOf(figures, (f) => f.excl),
      tax: sumOf(figures, (f) => f.tax),
      netSales: totalNet,
      share: share(totalNet, totalNet),
    },
  };
}

/** Sales by VAT rate; maxDays 400, same access path as sales by family. */
export const vatSalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesTva',
  titleId: 'report.RapportVentesTva.title',
  fileNameId: 'report.RapportVentesTva.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryVat,
};

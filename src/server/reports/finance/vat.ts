/**
 * The VAT breakdown (`RapportTva`, SPEC.md §1 "finance: VAT breakdown"), variant Daily: one row
 * per fiscal date, site and VAT rate with the base (net excl. VAT), the VAT and the total incl.
 * VAT, in cents, plus totals. The rate is a fraction (0.2 = 20 %), shown as a percentage.
 *
 * Figures are sums of the ticket lines (`ticket_lines.amount_excl_cents`, `tax_cents`,
 * `amount_cents`): ticket totals are sums of their lines, so the report's totals equal the
 * sales report's net excl. VAT, VAT and net incl. VAT for the same selection. Returns and
 * cancellations count negatively; voided (corrected) lines carry zero amounts.
 *
 * The same figures as sales by VAT rate (`RapportVentesTva`, ../sales-analyses/vat.ts), read
 * by the same code (../sales-analyses/figures.ts `vatFigures`: same ticket selection, same SQL,
 * same `daily_vat_sales` path) at the `daySite` grain; this class keeps the Z-like layout an
 * accountant reads day by day (date and site on each row, no share). Its `operation` parameter
 * takes any text and is ignored, as in every finance class (the analyses refuse what is not a
 * sale view): the wire contract of each class is kept as clients and favourites use it.
 *
 * maxDays = 400. Without filters below the day the rows are those of `daily_vat_sales`; with
 * filters a year reads every line of the period, which is what bounds it.
 */
import { z } from 'zod';
import type { Dataset } from '../../../contract/reports.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { type FiguresQuery, siteName, vatFigures, vatFiguresQuery } from '../sales-analyses/figures.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';

const VatParamsSchema = z.object({ operation: z.string() });
type VatParams = z.infer<typeof VatParamsSchema>;

/**
 * The SQL of the VAT rows for `request` (for the benchmark): figures.ts at the `daySite` grain,
 * from `daily_vat_sales` when the request keeps whole days, else from the selected tickets' lines.
 */
export function vatQuery(request: ReportRequest): FiguresQuery {
  return vatFiguresQuery(request, 'daySite');
}

async function queryVat(ctx: ReportContext<VatParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const figures = await vatFigures(database, request, 'daySite');
  const totals = { base: 0, tax: 0, total: 0 };
  const rows = figures.map((f) => {
    totals.base += f.excl;
    totals.tax += f.tax;
    totals.total += f.net;
    return {
      fiscalDate: f.fiscalDate,
      siteId: f.siteId,
      site: siteName(request, f.siteId),
      vatRate: f.rate,
      vatBase: f.excl,
      tax: f.tax,
      netSales: f.net,
    };
  });
  return {
    ...datasetHeader(vatReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['siteId', 'qty'],
      ['site', 'text'],
      ['vatRate', 'percent'],
      ['vatBase', 'money'],
      ['tax', 'money'],
      ['netSales', 'money'],
    ]),
    rows,
    totals: {
      fiscalDate: null,
      siteId: null,
      site: null,
      vatRate: null,
      vatBase: totals.base,
      tax: totals.tax,
      netSales: totals.total,
    },
  };
}

/** The VAT breakdown class (SPEC.md §1 finance), registered in registry.ts. */
export const vatReport: ReportClass<VatParams> = {
  className: 'RapportTva',
  titleId: 'report.RapportTva.title',
  fileNameId: 'report.RapportTva.filename',
  params: VatParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryVat,
};

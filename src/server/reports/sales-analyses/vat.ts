/**
 * Sales by VAT rate (`RapportVentesTva`, SPEC.md §1 "sales by VAT rate"): one row per rate of
 * the ticket lines, with the base excl. VAT, the VAT and the amount incl. VAT, plus the rate's
 * share of the net sales. The rate is a fraction (0.2 = 20 %), shown as a percentage. Lines of
 * returns and cancellations count negatively; rows go by ascending rate.
 */
import type { Dataset } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../../db/aggregates.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import {
  type AnalysisParams,
  AnalysisParamsSchema,
  num,
  periodOf,
  share,
  sumOf,
  TICKETS_FROM,
  ticketConditions,
} from './common.ts';

interface VatRow {
  vat_rate: string | number;
  net_cents: number | string;
  net_excl_cents: number | string;
  tax_cents: number | string;
}

/**
 * The SQL of the VAT rows of `request` (exported for the benchmark and EXPLAIN): from
 * `daily_vat_sales` when the request keeps whole days, else from the ticket lines.
 */
export function vatQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (readsAggregates(request)) {
    const where = aggregateConditions('a', request.sites.map((s) => s.id), periodOf(request), values);
    return {
      text: `SELECT a.vat_rate, sum(a.net_cents)::bigint AS net_cents,
                    sum(a.net_excl_cents)::bigint AS net_excl_cents, sum(a.tax_cents)::bigint AS tax_cents
               FROM daily_vat_sales a
              WHERE ${where}
              GROUP BY a.vat_rate
              ORDER BY a.vat_rate`,
      values,
    };
  }
  const where = ticketConditions(request, values);
  return {
    text: `SELECT l.vat_rate,
                  sum(l.amount_cents)::bigint AS net_cents,
                  sum(l.amount_excl_cents)::bigint AS net_excl_cents,
                  sum(l.tax_cents)::bigint AS tax_cents
             FROM ${TICKETS_FROM}
             JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
            WHERE ${where}
            GROUP BY l.vat_rate
            ORDER BY l.vat_rate`,
    values,
  };
}

async function queryVat(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<VatRow>(vatQuery(request));
  const figures = rows.map((r) => ({
    // numeric(6,4): four decimals, exact in a double for display and JSON.
    rate: num(r.vat_rate),
    net: num(r.net_cents),
    excl: num(r.net_excl_cents),
    tax: num(r.tax_cents),
  }));
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

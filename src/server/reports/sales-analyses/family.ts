/**
 * Sales by product family (`RapportVentesFamille`, SPEC.md §1 "sales by product family"): one
 * row per family of the ticket lines (`ticket_lines.family`; lines without one under "not
 * set"), with the quantity sold, net sales incl. and excl. VAT, VAT and the family's share of
 * the net sales.
 *
 * Lines of returns and cancellations count with their negative quantities and amounts. A
 * corrected (voided) line carries zero amounts and is left out of the quantity: the article
 * was rung up by mistake, not sold. Rows are ordered by net sales, largest first.
 */
import type { Dataset } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../aggregate-reads.ts';
import { message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { type AnalysisParams, AnalysisParamsSchema, share, sumOf } from './common.ts';

interface FamilyRow {
  family: string | null;
  quantity: string | number;
  net_cents: number | string;
  net_excl_cents: number | string;
  tax_cents: number | string;
}

/**
 * The SQL of the family rows of `request` (exported for the benchmark and EXPLAIN): from
 * `daily_family_sales` when the request keeps whole days, else from the ticket lines.
 */
export function familyQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (readsAggregates(request)) {
    const where = aggregateConditions(
      'a',
      request.sites.map((s) => s.id),
      periodOf(request),
      values,
    );
    return {
      text: `SELECT a.family, sum(a.quantity) AS quantity, sum(a.net_cents)::bigint AS net_cents,
                    sum(a.net_excl_cents)::bigint AS net_excl_cents, sum(a.tax_cents)::bigint AS tax_cents
               FROM daily_family_sales a
              WHERE ${where}
              GROUP BY a.family
              ORDER BY net_cents DESC, a.family NULLS LAST`,
      values,
    };
  }
  const where = ticketConditions(request, values);
  return {
    text: `SELECT l.family,
                  coalesce(sum(l.quantity) FILTER (WHERE NOT l.corrected), 0) AS quantity,
                  sum(l.amount_cents)::bigint AS net_cents,
                  sum(l.amount_excl_cents)::bigint AS net_excl_cents,
                  sum(l.tax_cents)::bigint AS tax_cents
             FROM ${TICKETS_FROM}
             JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
            WHERE ${where}
            GROUP BY l.family
            ORDER BY net_cents DESC, l.family NULLS LAST`,
    values,
  };
}

async function queryFamilies(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<FamilyRow>(familyQuery(request));
  const figures = rows.map((r) => ({
    family: r.family,
    // numeric(14,3) sums: exact to the thousandth, well within a double.
    quantity: num(r.quantity),
    net: num(r.net_cents),
    excl: num(r.net_excl_cents),
    tax: num(r.tax_cents),
  }));
  const totalNet = sumOf(figures, (f) => f.net);
  return {
    ...datasetHeader(familySalesReport, request),
    columns: translatedColumns(request, [
      ['family', 'text'],
      ['quantity', 'qty'],
      ['netSales', 'money'],
      ['netSalesExclTax', 'money'],
      ['tax', 'money'],
      ['share', 'percent'],
    ]),
    rows: figures.map((f) => ({
      family: f.family ?? message(request.language, 'report.notSet'),
      quantity: f.quantity,
      netSales: f.net,
      netSalesExclTax: f.excl,
      tax: f.tax,
      share: share(f.net, totalNet),
    })),
    totals: {
      family: null,
      // Thousandths summed in JS can drift by 1e-12; round back to the column's precision.
      quantity: Math.round(sumOf(figures, (f) => f.quantity) * 1000) / 1000,
      netSales: totalNet,
      netSalesExclTax: sumOf(figures, (f) => f.excl),
      tax: sumOf(figures, (f) => f.tax),
      share: share(totalNet, totalNet),
    },
  };
}

/**
 * Sales by product family. maxDays 400 like the sales report. Without filters below the day it
 * sums `daily_family_sales`. With filters, the period's tickets come through the
 * `(site_id, fiscal_date)` index and PostgreSQL hash-joins them with a scan of the lines, or,
 * once the lines
 * table dwarfs the period, looks them up by their `(site_id, ticket_id, line_no)` key.
 */
export const familySalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesFamille',
  titleId: 'report.RapportVentesFamille.title',
  fileNameId: 'report.RapportVentesFamille.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Graph'],
  query: queryFamilies,
};

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
 * Selection as every ticket report (ticket-filter.ts), applied to the ticket holding the line.
 * maxDays = 400. Without filters below the day the rows are those of `daily_vat_sales` (a year
 * of the demo chain: ~4,000 rows, ~25 ms); with filters a year reads every line of the period
 * (1.2 s for the 1.1 M lines of the demo chain on the shared 2-core machine).
 */
import { z } from 'zod';
import type { Dataset } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../../db/aggregates.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { cents, ticketFilter } from '../operations/ticket-filter.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';

const VatParamsSchema = z.object({ operation: z.string() });
type VatParams = z.infer<typeof VatParamsSchema>;

interface VatRow {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  vat_rate: string;
  base: number | string;
  tax: number | string;
  total: number | string;
}

/**
 * The SQL of the VAT rows for `request` (exported for the benchmark): from `daily_vat_sales`
 * when the request keeps whole days (aggregates.ts `readsAggregates`), else from the lines of
 * the selected tickets.
 */
export function vatQuery(request: ReportRequest): { text: string; values: unknown[] } {
  if (readsAggregates(request)) {
    const values: unknown[] = [];
    const where = aggregateConditions('a', request.sites.map((s) => s.id), request, values);
    return {
      text: `SELECT a.fiscal_date::text AS fiscal_date, a.site_id, a.vat_rate::text AS vat_rate,
                    a.net_excl_cents AS base, a.tax_cents AS tax, a.net_cents AS total, s.libelle
               FROM daily_vat_sales a JOIN sites s ON s.id = a.site_id
              WHERE ${where}
              ORDER BY a.fiscal_date, a.site_id, a.vat_rate`,
      values,
    };
  }
  const filter = ticketFilter(request);
  return {
    text: `SELECT v.*, s.libelle
             FROM (SELECT t.fiscal_date::text AS fiscal_date, t.site_id, l.vat_rate::text AS vat_rate,
                          sum(l.amount_excl_cents)::bigint AS base, sum(l.tax_cents)::bigint AS tax,
                          sum(l.amount_cents)::bigint AS total
                     FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
                    WHERE ${filter.where}
                    GROUP BY t.fiscal_date, t.site_id, l.vat_rate) v
             JOIN sites s ON s.id = v.site_id
            ORDER BY v.fiscal_date, v.site_id, v.vat_rate::numeric`,
    values: filter.values,
  };
}

async function queryVat(ctx: ReportContext<VatParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<VatRow>(vatQuery(request));
  const totals = { base: 0, tax: 0, total: 0 };
  const out = rows.map((r) => {
    const row = {
      fiscalDate: r.fiscal_date,
      siteId: Number(r.site_id),
      site: r.libelle,
      vatRate: Number(r.vat_rate),
      vatBase: cents(r.base),
      tax: cents(r.tax),
      netSales: cents(r.total),
    };
    totals.base += row.vatBase;
    totals.tax += row.tax;
    totals.total += row.netSales;
    return row;
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
    rows: out,
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

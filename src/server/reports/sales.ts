/**
 * The sales report (`RapportVentes`, SPEC.md §1 "sales"), variant Daily: one row per fiscal
 * date and site with the number of sale tickets, net sales incl. and excl. VAT, VAT and the
 * average ticket, plus totals.
 *
 * Figures (schema.ts `daily_sales` and `tickets` docs): `tickets` counts SALE tickets; amounts
 * sum every ticket, returns and cancellation tickets being negative; training-mode tickets are
 * left out unless `trainingMode=true`; `averageTicket = round(netSales / tickets)` cents, 0
 * when there is no sale ticket. Only dates with at least one ticket give a row.
 *
 * Three ways to the same figures: with no hour range, terminal or seller filter and training
 * tickets excluded, the report reads the per-day aggregate `daily_sales` (about 365 rows per
 * site and year, kept up to date by every load); with only an hour range on whole hours
 * (12:00–23:00) it sums the per-hour aggregate `daily_hour_sales`; otherwise it aggregates
 * `tickets` through the `(site_id, fiscal_date)` index. The tests check all give identical
 * figures.
 *
 * maxDays = 400: a year of daily rows for a whole chain plus a month of margin, so "last 365
 * days" and "previous year" always fit, while the tickets path (used with filters) stays bounded
 * to about 13 months of one chain's tickets per request.
 */
import { z } from 'zod';
import type { Dataset } from '../../contract/reports.ts';
import { SALES_REPORT } from '../../contract/reports.ts';
import {
  aggregateConditions,
  hourRangeCondition,
  readsAggregates,
  readsHourAggregates,
} from './aggregate-reads.ts';
import { datasetHeader, translatedColumns } from './dataset.ts';
import { minutesToHhmm, type ReportClass, type ReportContext, type ReportRequest } from './types.ts';

/**
 * Class parameters. `operation`: VENTE (default) and TOUTES both mean "every ticket" for this
 * report; cancellation-only and correction-only views are other classes (issue #4), so they are
 * refused rather than silently answered with sales. `filtre`, `condition`, `tri`,
 * `regroupement` and `isFilters` have no meaning for the daily sales and are ignored.
 */
const SalesParamsSchema = z.object({
  operation: z.enum(['VENTE', 'TOUTES']),
});
type SalesParams = z.infer<typeof SalesParamsSchema>;

/** One aggregated row as both SQL paths answer it. */
interface SalesRow {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  tickets: number;
  net_cents: number | string;
  net_excl_cents: number | string;
  tax_cents: number | string;
}

/**
 * True when the request can be answered from `daily_sales` (no filter below the day; see
 * aggregate-reads.ts `readsAggregates`, which every report reading the aggregates shares).
 */
export function usesDailyAggregate(request: ReportRequest): boolean {
  return readsAggregates(request);
}

/**
 * The SQL and parameters of the daily sales rows for `request`, ordered by fiscal date then
 * site id. Exported so the benchmark times the very query the report runs.
 */
export function salesQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const siteIds = request.sites.map((s) => s.id);
  const common = [siteIds, request.dateDebut, request.dateFin, request.fiscalDates];
  if (usesDailyAggregate(request)) {
    return {
      text: `SELECT d.fiscal_date::text AS fiscal_date, d.site_id, s.libelle, d.tickets, d.net_cents, d.net_excl_cents, d.tax_cents
               FROM daily_sales d JOIN sites s ON s.id = d.site_id
              WHERE d.site_id = ANY($1::int[])
                AND d.fiscal_date BETWEEN $2::date AND $3::date
                AND ($4::date[] IS NULL OR d.fiscal_date = ANY($4::date[]))
              ORDER BY d.fiscal_date, d.site_id`,
      values: common,
    };
  }
  if (readsHourAggregates(request)) {
    // A range on whole hours (12:00–23:00): the per-hour aggregate holds each local hour apart.
    const values: unknown[] = [];
    const where =
      aggregateConditions('a', siteIds, request, values) + hourRangeCondition('a', request, values);
    return {
      text: `SELECT d.fiscal_date::text AS fiscal_date, d.site_id, s.libelle, d.tickets, d.net_cents, d.net_excl_cents, d.tax_cents
               FROM (SELECT a.site_id, a.fiscal_date, sum(a.tickets)::int AS tickets,
                            sum(a.net_cents)::bigint AS net_cents, sum(a.net_excl_cents)::bigint AS net_excl_cents,
                            sum(a.tax_cents)::bigint AS tax_cents
                       FROM daily_hour_sales a
                      WHERE ${where}
                      GROUP BY a.site_id, a.fiscal_date) d
               JOIN sites s ON s.id = d.site_id
              ORDER BY d.fiscal_date, d.site_id`,
      values,
    };
  }
  // Time of day in the site's own clock (ranges like 12:00–23:00 are local times), computed
  // once per ticket: a cast to `time` costs a third of extracting hours and minutes apart.
  const hours = request.hours;
  return {
    text: `SELECT t.fiscal_date::text AS fiscal_date, t.site_id, s.libelle,
                  (count(*) FILTER (WHERE t.kind = 'SALE'))::int AS tickets,
                  sum(t.total_cents)::bigint AS net_cents,
                  sum(t.total_excl_cents)::bigint AS net_excl_cents,
                  sum(t.tax_cents)::bigint AS tax_cents
             FROM tickets t JOIN sites s ON s.id = t.site_id
             CROSS JOIN LATERAL (SELECT (t.opened_at AT TIME ZONE s.time_zone)::time AS tod) local
            WHERE t.site_id = ANY($1::int[])
              AND t.fiscal_date BETWEEN $2::date AND $3::date
              AND ($4::date[] IS NULL OR t.fiscal_date = ANY($4::date[]))
              AND ($5::boolean OR NOT t.training_mode)
              AND (cardinality($6::int[]) = 0 OR t.terminal_id = ANY($6::int[]))
              AND (cardinality($7::text[]) = 0 OR t.seller_code = ANY($7::text[]))
              AND ($8::time IS NULL OR CASE
                    WHEN $8::time < $9::time THEN local.tod >= $8::time AND local.tod < $9::time
                    WHEN $8::time > $9::time THEN local.tod >= $8::time OR local.tod < $9::time
                    ELSE true END)
            GROUP BY t.fiscal_date, t.site_id, s.libelle
            ORDER BY t.fiscal_date, t.site_id`,
    values: [
      ...common,
      request.trainingMode,
      request.terminals,
      request.sellers,
      hours ? minutesToHhmm(hours.start) : null,
      hours ? minutesToHhmm(hours.end) : null,
    ],
  };
}

/** Average ticket in cents: round(net / tickets), 0 when there is no sale ticket. */
export function averageTicket(netCents: number, tickets: number): number {
  return tickets === 0 ? 0 : Math.round(netCents / tickets);
}

async function querySales(ctx: ReportContext<SalesParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<SalesRow>(salesQuery(request));
  const totals = { tickets: 0, net: 0, excl: 0, tax: 0 };
  // Sums are bigint; Number() keeps this right even where the int8 parser of connect.ts is not
  // installed (pg then answers strings). Cents stay far below 2^53.
  // One object per row, built in one literal: a year of every site is ~2,000 rows.
  const out = rows.map((r) => {
    const tickets = Number(r.tickets);
    const net = Number(r.net_cents);
    const row = {
      fiscalDate: r.fiscal_date,
      siteId: Number(r.site_id),
      site: r.libelle,
      tickets,
      netSales: net,
      netSalesExclTax: Number(r.net_excl_cents),
      tax: Number(r.tax_cents),
      averageTicket: averageTicket(net, tickets),
    };
    totals.tickets += tickets;
    totals.net += net;
    totals.excl += row.netSalesExclTax;
    totals.tax += row.tax;
    return row;
  });
  return {
    ...datasetHeader(salesReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['siteId', 'qty'],
      ['site', 'text'],
      ['tickets', 'qty'],
      ['netSales', 'money'],
      ['netSalesExclTax', 'money'],
      ['tax', 'money'],
      ['averageTicket', 'money'],
    ]),
    rows: out,
    totals: {
      fiscalDate: null,
      siteId: null,
      site: null,
      tickets: totals.tickets,
      netSales: totals.net,
      netSalesExclTax: totals.excl,
      tax: totals.tax,
      averageTicket: averageTicket(totals.net, totals.tickets),
    },
  };
}

/** The sales report class (SPEC.md §1), registered in registry.ts. */
export const salesReport: ReportClass<SalesParams> = {
  className: SALES_REPORT,
  titleId: 'report.RapportVentes.title',
  fileNameId: 'report.RapportVentes.filename',
  params: SalesParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Graph'],
  query: querySales,
};

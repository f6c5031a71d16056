/**
 * Sales by terminal (`RapportVentesCaisse`) and by seller (`RapportVentesVendeur`), SPEC.md §1:
 * one row per site and terminal (number and label from `terminals`) or per site and seller
 * (code and name from `sellers`), with the SALE tickets, net sales incl. and excl. VAT
 * (returns and cancellations negative), the average ticket and the row's share of the
 * period's net sales. Tickets without a terminal or seller, or whose number or code the site
 * does not list, still count: their label reads "not set" (the number or code, when there is
 * one, still shows). Rows go by site, then number or code.
 */
import type { Dataset, DatasetColumn } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../aggregate-reads.ts';
import { message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { averageTicket } from '../sales.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { type AnalysisParams, AnalysisParamsSchema, share, sumOf } from './common.ts';

interface StaffRow {
  site_id: number;
  site: string;
  ref: number | string | null;
  label: string | null;
  tickets: number;
  net_cents: number | string;
  net_excl_cents: number | string;
}

/** How terminals and sellers differ: the tickets' column, the reference table and its label. */
interface Dimension {
  ticketColumn: 't.terminal_id' | 't.seller_code';
  /** The per-day aggregate (schema-aggregates.ts, aliased `a`) and its key column. */
  aggregateTable: 'daily_terminal_sales' | 'daily_seller_sales';
  aggregateColumn: 'a.terminal_id' | 'a.seller_code';
  join: string;
  refKey: 'terminalId' | 'sellerCode';
  refType: DatasetColumn['type'];
  labelKey: 'terminal' | 'seller';
}

const TERMINAL: Dimension = {
  ticketColumn: 't.terminal_id',
  aggregateTable: 'daily_terminal_sales',
  aggregateColumn: 'a.terminal_id',
  join: 'LEFT JOIN terminals r ON r.site_id = a.site_id AND r.terminal_id = a.ref',
  refKey: 'terminalId',
  refType: 'qty',
  labelKey: 'terminal',
};

const SELLER: Dimension = {
  ticketColumn: 't.seller_code',
  aggregateTable: 'daily_seller_sales',
  aggregateColumn: 'a.seller_code',
  join: 'LEFT JOIN sellers r ON r.site_id = a.site_id AND r.code = a.ref',
  refKey: 'sellerCode',
  refType: 'text',
  labelKey: 'seller',
};

function staffQuery(dim: Dimension, request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const label = dim === TERMINAL ? 'r.libelle' : 'r.nom';
  // From the per-day aggregate when the request keeps whole days, else from the tickets.
  const figures = readsAggregates(request)
    ? `SELECT a.site_id, ${dim.aggregateColumn} AS ref, sum(a.tickets)::int AS tickets,
              sum(a.net_cents)::bigint AS net_cents, sum(a.net_excl_cents)::bigint AS net_excl_cents
         FROM ${dim.aggregateTable} a
        WHERE ${aggregateConditions(
          'a',
          request.sites.map((s) => s.id),
          periodOf(request),
          values,
        )}
        GROUP BY a.site_id, ${dim.aggregateColumn}`
    : `SELECT t.site_id, ${dim.ticketColumn} AS ref,
              (count(*) FILTER (WHERE t.kind = 'SALE'))::int AS tickets,
              sum(t.total_cents)::bigint AS net_cents,
              sum(t.total_excl_cents)::bigint AS net_excl_cents
         FROM ${TICKETS_FROM}
        WHERE ${ticketConditions(request, values)}
        GROUP BY t.site_id, ${dim.ticketColumn}`;
  // Aggregate first, then fetch the few labels: the join runs on a handful of rows.
  return {
    text: `SELECT a.site_id, si.libelle AS site, a.ref, ${label} AS label, a.tickets, a.net_cents, a.net_excl_cents
             FROM (${figures}) a
             JOIN sites si ON si.id = a.site_id
             ${dim.join}
            ORDER BY a.site_id, a.ref NULLS LAST`,
    values,
  };
}

/** The SQL of the terminal rows of `request` (exported for the benchmark and EXPLAIN). */
export const terminalQuery = (request: ReportRequest) => staffQuery(TERMINAL, request);
/** The SQL of the seller rows of `request` (exported for the benchmark and EXPLAIN). */
export const sellerQuery = (request: ReportRequest) => staffQuery(SELLER, request);

async function queryStaff(
  dim: Dimension,
  cls: ReportClass<AnalysisParams>,
  ctx: ReportContext<AnalysisParams>,
): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<StaffRow>(staffQuery(dim, request));
  const figures = rows.map((r) => ({
    siteId: num(r.site_id),
    site: r.site,
    ref: r.ref === null ? null : dim === TERMINAL ? num(r.ref) : String(r.ref),
    label: r.label,
    tickets: num(r.tickets),
    net: num(r.net_cents),
    excl: num(r.net_excl_cents),
  }));
  const totalNet = sumOf(figures, (f) => f.net);
  const totalTickets = sumOf(figures, (f) => f.tickets);
  const notSet = message(request.language, 'report.notSet');
  return {
    ...datasetHeader(cls, request),
    columns: translatedColumns(request, [
      ['siteId', 'qty'],
      ['site', 'text'],
      [dim.refKey, dim.refType],
      [dim.labelKey, 'text'],
      ['tickets', 'qty'],
      ['netSales', 'money'],
      ['netSalesExclTax', 'money'],
      ['averageTicket', 'money'],
      ['share', 'percent'],
    ]),
    rows: figures.map((f) => ({
      siteId: f.siteId,
      site: f.site,
      [dim.refKey]: f.ref,
      [dim.labelKey]: f.label ?? notSet,
      tickets: f.tickets,
      netSales: f.net,
      netSalesExclTax: f.excl,
      averageTicket: averageTicket(f.net, f.tickets),
      share: share(f.net, totalNet),
    })),
    totals: {
      siteId: null,
      site: null,
      [dim.refKey]: null,
      [dim.labelKey]: null,
      tickets: totalTickets,
      netSales: totalNet,
      netSalesExclTax: sumOf(figures, (f) => f.excl),
      averageTicket: averageTicket(totalNet, totalTickets),
      share: share(totalNet, totalNet),
    },
  };
}

/** Sales by terminal (caisse); maxDays 400 like the sales report (one pass over the period's tickets). */
export const terminalSalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesCaisse',
  titleId: 'report.RapportVentesCaisse.title',
  fileNameId: 'report.RapportVentesCaisse.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Graph'],
  query: (ctx) => queryStaff(TERMINAL, terminalSalesReport, ctx),
};

/** Sales by seller (vendeur); maxDays 400 like the sales report. */
export const sellerSalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesVendeur',
  titleId: 'report.RapportVentesVendeur.title',
  fileNameId: 'report.RapportVentesVendeur.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Graph'],
  query: (ctx) => queryStaff(SELLER, sellerSalesReport, ctx),
};

/**
 * Covers and average ticket per cover (`RapportVentesCouverts`, SPEC.md §1 "covers and average
 * ticket"): one row per fiscal date and site with the SALE tickets, the covers (guests served,
 * `tickets.covers`), net sales, the average ticket, the sales of the tickets that carry covers
 * and the average per cover.
 *
 * Figures: covers sum every ticket's covers, a cancellation carrying the negative covers of the
 * table it cancels (so a cancelled table nets out); tickets without covers (counter sales,
 * bakeries) add none. `averagePerCover = round(coveredSales / covers)` cents, where
 * `coveredSales` sums only the tickets that carry covers: a coffee at the bar would otherwise
 * raise the spend per guest of the dining room. It is 0 when the day has no covers. Staff
 * meals carry a cover and no amount, and count like any ticket, as in the sales report.
 */
import type { Dataset } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../aggregate-reads.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { averageTicket } from '../sales.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { type AnalysisParams, AnalysisParamsSchema } from './common.ts';

interface CoversRow {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  tickets: number;
  covers: number | string;
  net_cents: number | string;
  covered_cents: number | string;
}

/**
 * The SQL of the covers rows of `request` (exported for the benchmark and EXPLAIN): from
 * `daily_sales` and `daily_ticket_stats` when the request keeps whole days, else from the
 * tickets.
 */
export function coversQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (readsAggregates(request)) {
    const where = aggregateConditions(
      'd',
      request.sites.map((s) => s.id),
      periodOf(request),
      values,
    );
    return {
      text: `SELECT d.fiscal_date::text AS fiscal_date, d.site_id, s.libelle, d.tickets,
                    x.covers::bigint AS covers, d.net_cents, x.covered_cents
               FROM daily_sales d
               JOIN daily_ticket_stats x ON x.site_id = d.site_id AND x.fiscal_date = d.fiscal_date
               JOIN sites s ON s.id = d.site_id
              WHERE ${where}
              ORDER BY d.fiscal_date, d.site_id`,
      values,
    };
  }
  const where = ticketConditions(request, values);
  return {
    text: `SELECT t.fiscal_date::text AS fiscal_date, t.site_id, s.libelle,
                  (count(*) FILTER (WHERE t.kind = 'SALE'))::int AS tickets,
                  coalesce(sum(t.covers), 0)::bigint AS covers,
                  sum(t.total_cents)::bigint AS net_cents,
                  coalesce(sum(t.total_cents) FILTER (WHERE t.covers IS NOT NULL), 0)::bigint AS covered_cents
             FROM ${TICKETS_FROM}
            WHERE ${where}
            GROUP BY t.fiscal_date, t.site_id, s.libelle
            ORDER BY t.fiscal_date, t.site_id`,
    values,
  };
}

/** Average per cover in cents: round(coveredSales / covers), 0 without covers. */
export function averagePerCover(coveredCents: number, covers: number): number {
  return covers <= 0 ? 0 : Math.round(coveredCents / covers);
}

async function queryCovers(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<CoversRow>(coversQuery(request));
  const sum = { tickets: 0, covers: 0, net: 0, covered: 0 };
  // One pass, one literal with every key per row: a year of a chain is ~2,000 rows.
  const out = rows.map((r) => {
    const tickets = num(r.tickets);
    const covers = num(r.covers);
    const net = num(r.net_cents);
    const covered = num(r.covered_cents);
    sum.tickets += tickets;
    sum.covers += covers;
    sum.net += net;
    sum.covered += covered;
    return {
      fiscalDate: r.fiscal_date,
      siteId: num(r.site_id),
      site: r.libelle,
      tickets,
      covers,
      netSales: net,
      averageTicket: averageTicket(net, tickets),
      coveredSales: covered,
      averagePerCover: averagePerCover(covered, covers),
    };
  });
  return {
    ...datasetHeader(coversSalesReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['siteId', 'qty'],
      ['site', 'text'],
      ['tickets', 'qty'],
      ['covers', 'qty'],
      ['netSales', 'money'],
      ['averageTicket', 'money'],
      ['coveredSales', 'money'],
      ['averagePerCover', 'money'],
    ]),
    rows: out,
    totals: {
      fiscalDate: null,
      siteId: null,
      site: null,
      tickets: sum.tickets,
      covers: sum.covers,
      netSales: sum.net,
      averageTicket: averageTicket(sum.net, sum.tickets),
      coveredSales: sum.covered,
      averagePerCover: averagePerCover(sum.covered, sum.covers),
    },
  };
}

/** Covers and average per cover; maxDays 400 like the sales report (one pass over the period's tickets). */
export const coversSalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesCouverts',
  titleId: 'report.RapportVentesCouverts.title',
  fileNameId: 'report.RapportVentesCouverts.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryCovers,
};

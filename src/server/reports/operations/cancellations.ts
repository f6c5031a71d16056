/**
 * The cancellations report (`RapportAnnulations`, SPEC.md §1 "cancellations (before and after
 * payment)"), variant Daily: one row per fiscal date and site, plus totals.
 *
 * What "before" and "after payment" mean in our data model (schema.ts):
 *
 * - **Before payment**: articles rung up and then voided on the ticket while it was still open,
 *   that is before it was cashed. Such a line stays on the ticket with `corrected = true` and
 *   zero amounts; the ticket is then paid for its remaining lines only. Counted per voided line
 *   (`beforePaymentLines`, their quantity in `beforePaymentQuantity`); their amount
 *   (`beforePaymentAmount`) is what they would have cost, `round(quantity × unit_price_cents)`
 *   summed — the quantity and unit price stay on the voided line, only its amounts are zeroed.
 *   These are the same lines the corrections report details by terminal and seller.
 * - **After payment**: a ticket already cashed and then cancelled as a whole. The till records
 *   it as a separate CANCELLATION ticket mirroring the sale (negative lines, covers and
 *   payments; imported files mark it with the cancellation prefix of the mapping). Counted per
 *   CANCELLATION ticket (`afterPaymentTickets`); `afterPaymentAmount` is the amount taken back,
 *   shown positive (minus the sum of their negative totals).
 *
 * A CANCELLATION ticket may name the sale it cancels (`tickets.cancels_ticket_id`: the demo
 * always does, imported files such as UCI's cannot); the ticket page shows that link both ways.
 * This report counts cancellation tickets on their own fiscal date either way.
 *
 * Selection as every report (../ticket-selection.ts): the hour, terminal and seller filters
 * apply to the ticket holding the voided line or to the cancellation ticket. Only days with a
 * cancellation of either kind give a row. `operation` is fixed by the report (both kinds are
 * shown) and other class parameters are ignored.
 *
 * maxDays = 400, as the sales report: one row per day and site. Whole days read the per-day
 * aggregates (whatever the number of lines). An hour range, a terminal or seller filter or
 * training tickets read the tickets and their lines, more slowly with an hour range (the
 * site-clock time of every ticket of the period is computed before the join to the voided
 * lines); a partial
 * index `ticket_lines (site_id, ticket_id) WHERE corrected` was tried and did not help (the
 * voided lines are scattered over the table: fetching them one by one cost as much as the scan).
 */
import { z } from 'zod';
import type { Dataset } from '../../../contract/reports.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { aggregateConditions, readsAggregates } from '../aggregate-reads.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';

const CancellationsParamsSchema = z.object({ operation: z.string() });
type CancellationsParams = z.infer<typeof CancellationsParamsSchema>;

interface CancellationRow {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  voided_lines: number | string;
  voided_quantity: string | null;
  voided_cents: number | string | null;
  cancelled_tickets: number | string;
  cancelled_cents: number | string | null;
}

/** What both paths of {@link cancellationsQuery} sum per day and site from their `parts`. */
const PER_DAY = `SELECT d.*, s.libelle
             FROM (SELECT p.fiscal_date::text AS fiscal_date, p.site_id,
                          sum(p.lines)::int AS voided_lines,
                          sum(p.quantity)::text AS voided_quantity,
                          sum(p.amount)::bigint AS voided_cents,
                          sum(p.tickets)::int AS cancelled_tickets,
                          sum(p.cancelled)::bigint AS cancelled_cents
                     FROM parts p GROUP BY p.fiscal_date, p.site_id) d
             JOIN sites s ON s.id = d.site_id
            ORDER BY d.fiscal_date, d.site_id`;

/**
 * The SQL of the daily cancellation rows for `request` (exported for the benchmark): from the
 * per-day aggregates (`daily_ticket_stats` for the cancellation tickets, `daily_corrections`
 * for the voided lines) when the request keeps whole days (aggregate-reads.ts `readsAggregates`),
 * else from the selected tickets and their lines. Same rows either way.
 */
export function cancellationsQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (readsAggregates(request)) {
    const siteIds = request.sites.map((s) => s.id);
    const period = periodOf(request);
    return {
      text: `WITH parts AS (
               SELECT x.site_id, x.fiscal_date, 0 AS lines, 0::numeric AS quantity, 0::numeric AS amount,
                      x.cancellations AS tickets, x.cancelled_cents AS cancelled
                 FROM daily_ticket_stats x
                WHERE ${aggregateConditions('x', siteIds, period, values)} AND x.cancellations > 0
               UNION ALL
               SELECT c.site_id, c.fiscal_date, c.lines, c.quantity, c.amount_cents, 0, 0
                 FROM daily_corrections c
                WHERE ${aggregateConditions('c', siteIds, period, values)}
             )
             ${PER_DAY}`,
      values,
    };
  }
  const where = ticketConditions(request, values);
  return {
    // Two kinds of rows, counted apart then summed per day and site: the cancellation tickets,
    // and the voided lines of the selected tickets. The join to ticket_lines is left to the
    // planner: a probe per ticket on the primary key for a few days, one hash join for a year.
    text: `WITH sel AS NOT MATERIALIZED (
             SELECT t.site_id, t.ticket_id, t.fiscal_date, t.kind, t.total_cents
               FROM ${TICKETS_FROM}
              WHERE ${where}
           ), parts AS (
             SELECT site_id, fiscal_date, 0 AS lines, 0::numeric AS quantity, 0::numeric AS amount,
                    1 AS tickets, -total_cents AS cancelled
               FROM sel WHERE kind = 'CANCELLATION'
             UNION ALL
             SELECT sel.site_id, sel.fiscal_date, 1, l.quantity, round(l.quantity * l.unit_price_cents), 0, 0
               FROM sel JOIN ticket_lines l
                 ON l.site_id = sel.site_id AND l.ticket_id = sel.ticket_id AND l.corrected
           )
           ${PER_DAY}`,
    values,
  };
}

async function queryCancellations(ctx: ReportContext<CancellationsParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<CancellationRow>(cancellationsQuery(request));
  const totals = { lines: 0, quantity: 0, voided: 0, tickets: 0, cancelled: 0 };
  const out = rows.map((r) => {
    const row = {
      fiscalDate: r.fiscal_date,
      siteId: Number(r.site_id),
      site: r.libelle,
      beforePaymentLines: Number(r.voided_lines),
      beforePaymentQuantity: Number(r.voided_quantity ?? 0),
      beforePaymentAmount: num(r.voided_cents),
      afterPaymentTickets: Number(r.cancelled_tickets),
      afterPaymentAmount: num(r.cancelled_cents),
    };
    totals.lines += row.beforePaymentLines;
    totals.quantity += row.beforePaymentQuantity;
    totals.voided += row.beforePaymentAmount;
    totals.tickets += row.afterPaymentTickets;
    totals.cancelled += row.afterPaymentAmount;
    return row;
  });
  return {
    ...datasetHeader(cancellationsReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['siteId', 'qty'],
      ['site', 'text'],
      ['beforePaymentLines', 'qty'],
      ['beforePaymentQuantity', 'qty'],
      ['beforePaymentAmount', 'money'],
      ['afterPaymentTickets', 'qty'],
      ['afterPaymentAmount', 'money'],
    ]),
    rows: out,
    totals: {
      fiscalDate: null,
      siteId: null,
      site: null,
      beforePaymentLines: totals.lines,
      // Quantities are numeric(14,3): round away the float noise of the running sum.
      beforePaymentQuantity: Math.round(totals.quantity * 1000) / 1000,
      beforePaymentAmount: totals.voided,
      afterPaymentTickets: totals.tickets,
      afterPaymentAmount: totals.cancelled,
    },
  };
}

/** The cancellations report class (SPEC.md §1), registered in registry.ts. */
export const cancellationsReport: ReportClass<CancellationsParams> = {
  className: 'RapportAnnulations',
  titleId: 'report.RapportAnnulations.title',
  fileNameId: 'report.RapportAnnulations.filename',
  params: CancellationsParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryCancellations,
};

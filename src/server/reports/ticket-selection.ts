/**
 * Which tickets a report counts — the one ticket selection of the whole report catalogue
 * (operations: tickets, cancellations, corrections; finance: payments, VAT, Z; every sales
 * analysis, through figures.ts for VAT and payments). Before, the operations and Z classes had
 * their own copy (operations/ticket-filter.ts: fixed `$1…$9`, an hour test reading the site's
 * zone in a subquery per ticket) beside this one (sales-analyses/common.ts); both kept the very
 * same tickets, so a figure of one class reconciles with the same figure of another by
 * construction now rather than by care.
 *
 * The rules, those of the sales report (sales.ts, SPEC.md §7 bo/getReport, §9 defaults):
 * - sites: the request's (already within the user's scope, SPEC.md §6); none chosen means all
 *   of them, which request.ts has resolved (SPEC.md §5);
 * - period: fiscal dates `dateDebut..dateFin`, both included, or only the explicit
 *   `datefiscales[]` when given (the range then spans them, so the index still bounds the read);
 * - training-mode tickets are left out unless `trainingMode=true` (SPEC.md §6);
 * - terminals (`tpv[]`), sellers (`vendeurs`): empty means every one;
 * - hour range (`trancheHoraire`, `heureDebut..heureFin`): the local time the ticket was opened,
 *   in its site's own clock; start included, end excluded; a range ending before it starts runs
 *   past midnight (20:00–01:00); equal bounds mean the whole day. The per-hour aggregate reads
 *   its hours the same way (aggregate-reads.ts `hourRangeCondition`);
 * - operation (SPEC.md §3, §9, default VENTE): VENTE and TOUTES keep every ticket (sales,
 *   returns, cancellations, employee meals: the sales report's totals are net of all of them);
 *   ANNULATION only cancellation tickets; CORRECTION only tickets holding a voided line — the
 *   "cancellations" and "corrections" ticket criteria of SPEC.md §9, as the ticket search
 *   (ticket-search.ts) reads them. It is an option, not a field of the request, because only
 *   the tickets list narrows on it; the other classes have their own fixed view (the analyses
 *   refuse anything but a sale view, the cancellations and corrections reports are that view,
 *   the finance classes ignore the parameter: see each class's comment).
 *
 * SQL shape: the conditions are written only when asked for, as plain predicates, with the site
 * and date conditions first, so the planner reaches tickets through the `(site_id, fiscal_date)`
 * index and sees the real selectivity of each filter.
 */
import { OPERATIONS } from '../../contract/reports.ts';
import { minutesToHhmm, type ReportRequest } from './types.ts';

/** An `operation` of bo/getReport (SPEC.md §3; default VENTE). */
export type TicketOperation = (typeof OPERATIONS)[number];

/** Every operation, for classes that narrow on it (the tickets list). */
export const TICKET_OPERATIONS = OPERATIONS;

/** The operations that mean "every ticket": the only ones a sales view accepts. */
export const SALE_OPERATIONS = ['VENTE', 'TOUTES'] as const;

/** A period to select: the request's own, or the same period shifted (year-on-year comparison). */
export interface SelectedPeriod {
  /** First fiscal date, `YYYY-MM-DD`, included. */
  dateDebut: string;
  /** Last fiscal date, `YYYY-MM-DD`, included. */
  dateFin: string;
  /** Explicit fiscal dates (datefiscales[]), or null for the whole range. */
  fiscalDates: string[] | null;
}

/** The period of `request`. */
export function periodOf(request: ReportRequest): SelectedPeriod {
  return { dateDebut: request.dateDebut, dateFin: request.dateFin, fiscalDates: request.fiscalDates };
}

/**
 * The FROM clause of a selection: tickets `t`, their site `s`, and `local.tod`, the time of day
 * the ticket was opened in the site's own clock (computed once per ticket and only where it is
 * read: the hour-range condition, or a class grouping by hour).
 */
export const TICKETS_FROM = `tickets t
  JOIN sites s ON s.id = t.site_id
  CROSS JOIN LATERAL (SELECT (t.opened_at AT TIME ZONE s.time_zone)::time AS tod) local`;

/** What a class may change in the selection of its request. */
export interface TicketSelectionOptions {
  /** Another period than the request's (the previous year of the comparison). */
  period?: SelectedPeriod;
  /** Narrow to one kind of operation; default VENTE (every ticket). */
  operation?: TicketOperation;
}

/**
 * Ticket `t` holds a voided line, checked ticket by ticket through the lines' primary key. The
 * `OFFSET 0` keeps PostgreSQL from turning the EXISTS into a semi-join reading every voided line
 * of the chain (lines carry no fiscal date to bound it): a subquery with an OFFSET is never pulled
 * up, so the plan is a per-ticket probe. It was a scalar `(SELECT EXISTS (…))` until 2026-12-07,
 * with the same plan, but Citus refuses a correlated subquery inside a subquery without FROM
 * ("correlated subqueries are not supported when the FROM clause contains a subquery without
 * FROM"; decision record 0042).
 */
const HAS_CORRECTED_LINE = `EXISTS (
      SELECT 1 FROM ticket_lines cl WHERE cl.site_id = t.site_id AND cl.ticket_id = t.ticket_id AND cl.corrected
      OFFSET 0)`;

/**
 * The WHERE conditions (joined by AND, no leading WHERE) selecting the tickets of `request` on
 * the aliases of {@link TICKETS_FROM}, by the rules of this module's comment. Appends its values
 * to `values` and numbers its placeholders after the ones already there, so a statement can
 * hold several selections (comparison: two periods; Z: days, VAT and payments) with one list.
 */
export function ticketConditions(
  request: ReportRequest,
  values: unknown[],
  options: TicketSelectionOptions = {},
): string {
  const $ = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const period = options.period ?? periodOf(request);
  const conditions = [
    `t.site_id = ANY(${$(request.sites.map((s) => s.id))}::int[])`,
    `t.fiscal_date BETWEEN ${$(period.dateDebut)}::date AND ${$(period.dateFin)}::date`,
  ];
  if (period.fiscalDates) conditions.push(`t.fiscal_date = ANY(${$(period.fiscalDates)}::date[])`);
  if (!request.trainingMode) conditions.push('NOT t.training_mode');
  if (request.terminals.length > 0) conditions.push(`t.terminal_id = ANY(${$(request.terminals)}::int[])`);
  if (request.sellers.length > 0) conditions.push(`t.seller_code = ANY(${$(request.sellers)}::text[])`);
  const hours = request.hours;
  if (hours && hours.start !== hours.end) {
    const from = $(minutesToHhmm(hours.start));
    const to = $(minutesToHhmm(hours.end));
    // One CASE rather than `tod >= from AND tod < to`: PostgreSQL reads such a pair as a range
    // and, having no statistics on the expression, guesses it keeps 0.5 % of the tickets; a CASE
    // is guessed at half. 12:00–23:00 keeps about two thirds, and on the 0.5 % guess the
    // cancellations and corrections of a year probed the lines of every ticket one by one. The
    // price: sales by hour over a year with a range off the whole hours (11:30–14:00; whole
    // hours read daily_hour_sales) is no longer run in parallel. The guess is planner
    // arithmetic, the figures are the same.
    conditions.push(
      hours.start < hours.end
        ? `CASE WHEN local.tod >= ${from}::time THEN local.tod < ${to}::time ELSE false END`
        : `(local.tod >= ${from}::time OR local.tod < ${to}::time)`,
    );
  }
  if (options.operation === 'ANNULATION') conditions.push(`t.kind = 'CANCELLATION'`);
  // Never a plain EXISTS: see HAS_CORRECTED_LINE.
  if (options.operation === 'CORRECTION') conditions.push(HAS_CORRECTED_LINE);
  return conditions.join('\n    AND ');
}

/**
 * A count or sum as pg answers it (a number with connect.ts's int8 parser, else a string; null
 * for a sum over no row) → number, 0 for null. Cents stay far below 2^53.
 */
export function num(value: number | string | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

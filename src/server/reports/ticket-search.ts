/**
 * Ticket search (GET bo/tickets/search; SPEC.md §2 `/tickets`, §9 criteria; shapes in
 * contract/tickets.ts): which tickets of a period match, newest first, one page at a time.
 *
 * Guarantees:
 * - Scope (SPEC.md §6): a requested site outside the user's scope is refused (DomainError
 *   forbidden, 403 `Forbidden`); no site given means every site of the scope (SPEC.md §5); an
 *   empty scope is invalid (400 `NoSitesSelected`).
 * - The period is bounded: more than {@link TICKET_SEARCH_MAX_DAYS} days is invalid (400
 *   `MaxReportDays` with `details.maxDays`), so a search always reads a bounded slice of
 *   `tickets (site_id, fiscal_date)` (the index every search uses).
 * - No match is not an error: the answer is an empty page with `total: 0`; the client shows
 *   SPEC.md §8 `NoTicketToCrit`.
 * - Results are newest first (opened_at, then site and ticket id to break ties), paginated by
 *   limit/offset, and `total` counts every match.
 * - Training-mode tickets are left out unless `trainingMode` is on, as in the reports.
 * - A criterion the user's profile refuses (`optionsTickets` false, SPEC.md §3; the session's
 *   `ticketCriteria`) is refused (403 `Forbidden` with `details.criteria`); a search without
 *   criteria stays allowed.
 */
import { daysInclusive } from '../../contract/dates.ts';
import {
  TICKET_CRITERIA,
  TICKET_SEARCH_MAX_DAYS,
  type TicketCriterion,
  type TicketKind,
  type TicketSummary,
} from '../../contract/tickets.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';

/** A search as asked (wire lists already merged and decoded), before it is checked. */
export interface TicketSearchRequest {
  /** restaurantIds asked for; none = every site of the scope. */
  siteIds: readonly number[];
  dateDebut: string;
  dateFin: string;
  terminals: number[];
  sellers: string[];
  /** HH:mm site time, included; given with `heureFin` or not at all. */
  heureDebut: string | undefined;
  /** HH:mm site time, excluded; before `heureDebut` wraps past midnight. */
  heureFin: string | undefined;
  /** Smallest and largest ticket total, integer cents incl. VAT. */
  montantMin: number | undefined;
  montantMax: number | undefined;
  criteria: TicketCriterion[];
  trainingMode: boolean;
}

/** A checked search: every filter resolved, sites within the scope. */
export interface TicketSearch {
  siteIds: number[];
  dateDebut: string;
  dateFin: string;
  terminals: number[];
  sellers: string[];
  /** HH:mm pair, site time; null = the whole day. */
  hours: { start: string; end: string } | null;
  minCents: number | null;
  maxCents: number | null;
  criteria: TicketCriterion[];
  trainingMode: boolean;
}

/**
 * The WHERE clause and its values for `search` (tickets `t` joined to sites `s`), only with the
 * conditions asked for, so the planner sees plain predicates on the `(site_id, fiscal_date)` index.
 * Exported so EXPLAIN checks can run the very query a search runs.
 */
export function searchWhere(search: TicketSearch): { where: string; values: unknown[] } {
  const values: unknown[] = [];
  const p = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const conditions = [
    `t.site_id = ANY(${p(search.siteIds)}::int[])`,
    `t.fiscal_date BETWEEN ${p(search.dateDebut)}::date AND ${p(search.dateFin)}::date`,
  ];
  if (!search.trainingMode) conditions.push('NOT t.training_mode');
  if (search.terminals.length > 0) conditions.push(`t.terminal_id = ANY(${p(search.terminals)}::int[])`);
  if (search.sellers.length > 0) conditions.push(`t.seller_code = ANY(${p(search.sellers)}::text[])`);
  if (search.hours) {
    // Hours are the site's wall clock; an end before the start runs past midnight.
    const tod = '(t.opened_at AT TIME ZONE s.time_zone)::time';
    const start = p(search.hours.start);
    const end = p(search.hours.end);
    conditions.push(
      search.hours.start < search.hours.end
        ? `${tod} >= ${start}::time AND ${tod} < ${end}::time`
        : search.hours.start > search.hours.end
          ? `(${tod} >= ${start}::time OR ${tod} < ${end}::time)`
          : 'true',
    );
  }
  if (search.minCents !== null) conditions.push(`t.total_cents >= ${p(search.minCents)}::bigint`);
  if (search.maxCents !== null) conditions.push(`t.total_cents <= ${p(search.maxCents)}::bigint`);
  if (search.criteria.length > 0) {
    const any: string[] = [];
    for (const c of new Set(search.criteria)) {
      if (c === 'cancellations') any.push("t.kind = 'CANCELLATION'");
      if (c === 'employeeMeals') any.push('t.employee_meal');
      if (c === 'corrections') any.push(PER_TICKET(CORRECTED));
      if (c === 'cashed') any.push(PER_TICKET(CASHED));
    }
    conditions.push(`(${any.join(' OR ')})`);
  }
  return { where: conditions.join('\n AND '), values };
}

/** Ticket `t` has a corrected line (reads the ticket_lines primary key). */
const CORRECTED =
  'EXISTS (SELECT 1 FROM ticket_lines l WHERE l.site_id = t.site_id AND l.ticket_id = t.ticket_id AND l.corrected)';
/** Ticket `t` has a payment (reads the payments primary key). */
const CASHED =
  'EXISTS (SELECT 1 FROM payments pm WHERE pm.site_id = t.site_id AND pm.ticket_id = t.ticket_id)';

/**
 * `test` (an EXISTS) checked ticket by ticket through the primary key. A bare EXISTS in WHERE is
 * turned by PostgreSQL into a semi-join, and since lines and payments carry no fiscal date it
 * then reads every line of the chain. A scalar subquery is never turned into a join.
 */
const PER_TICKET = (test: string) => `(SELECT ${test})`;

/** Columns of a {@link TicketSummary} (tickets `t`, sites `s`, terminals `tm`, sellers `se`). */
export const SUMMARY_COLUMNS = `t.site_id AS "restaurantId", s.libelle AS site, t.ticket_id AS "ticketId",
       t.source_ref AS number, t.fiscal_date AS "fiscalDate", t.opened_at AS "openedAt",
       to_char(t.opened_at AT TIME ZONE s.time_zone, 'YYYY-MM-DD"T"HH24:MI:SS') AS "openedLocal",
       t.terminal_id AS "terminalId", tm.libelle AS terminal, t.seller_code AS "sellerCode", se.nom AS seller,
       t.kind, t.employee_meal AS "employeeMeal", t.training_mode AS "trainingMode",
       ${CORRECTED} AS corrected, ${CASHED} AS cashed, t.total_cents AS "totalCents", s.currency`;

export const SUMMARY_JOINS = `JOIN sites s ON s.id = t.site_id
  LEFT JOIN terminals tm ON tm.site_id = t.site_id AND tm.terminal_id = t.terminal_id
  LEFT JOIN sellers se ON se.site_id = t.site_id AND se.code = t.seller_code`;

export interface SummaryRow extends Omit<TicketSummary, 'openedAt' | 'kind'> {
  openedAt: Date;
  kind: string;
}

export function toSummary(r: SummaryRow): TicketSummary {
  return {
    ...r,
    restaurantId: Number(r.restaurantId),
    ticketId: Number(r.ticketId),
    totalCents: Number(r.totalCents),
    openedAt: r.openedAt.toISOString(),
    kind: r.kind as TicketKind, // the column only ever holds TICKET_KINDS (schema.ts)
  };
}

/**
 * The two queries of a search: the count of every match, and one page of `pageSize` tickets
 * (page 1-based) newest first. The page is cut before the names of site, terminal and seller
 * are joined and the corrected/cashed flags are read, so that work is done for 50 rows, not
 * for every match. Exported so EXPLAIN checks can run the very queries a search runs.
 */
export function searchQueries(
  search: TicketSearch,
  page: number,
  pageSize: number,
): { count: { text: string; values: unknown[] }; page: { text: string; values: unknown[] } } {
  const { where, values } = searchWhere(search);
  const n = values.length;
  const order = 't.opened_at DESC, t.site_id DESC, t.ticket_id DESC';
  return {
    count: {
      text: `SELECT count(*)::int AS total FROM tickets t JOIN sites s ON s.id = t.site_id WHERE ${where}`,
      values,
    },
    page: {
      text: `SELECT ${SUMMARY_COLUMNS}
               FROM (SELECT t.* FROM tickets t JOIN sites s ON s.id = t.site_id
                      WHERE ${where}
                      ORDER BY ${order}
                      LIMIT $${n + 1} OFFSET $${n + 2}) t
               ${SUMMARY_JOINS}
              ORDER BY ${order}`,
      values: [...values, pageSize, (page - 1) * pageSize],
    },
  };
}

/**
 * Runs a checked `search` ({@link checkedTicketSearch}): one page (newest first) and the count
 * of every match, in parallel.
 * @returns the tickets of page `page` (1-based) of `pageSize`, and `total`.
 */
export async function searchTickets(
  database: Database,
  search: TicketSearch,
  page: number,
  pageSize: number,
): Promise<{ total: number; tickets: TicketSummary[] }> {
  const queries = searchQueries(search, page, pageSize);
  const [count, rows] = await Promise.all([
    database.pool.query<{ total: number }>(queries.count),
    database.pool.query<SummaryRow>(queries.page),
  ]);
  return { total: count.rows[0]?.total ?? 0, tickets: rows.rows.map(toSummary) };
}

/** The sites of `requested` checked against `scope` (all of scope when none given). */
function scopedSites(requested: readonly number[], scope: readonly number[]): number[] {
  const inScope = new Set(scope);
  const outside = [...new Set(requested.filter((id) => !inScope.has(id)))];
  if (outside.length > 0) {
    throw new DomainError('forbidden', 'Forbidden', `sites outside the user's scope: ${outside.join(', ')}`, {
      sites: outside,
    });
  }
  const sites = requested.length > 0 ? [...new Set(requested)] : [...scope];
  if (sites.length === 0) throw new DomainError('invalid', 'NoSitesSelected', "no site in the user's scope");
  return sites;
}

/**
 * `criteria` checked against those the user may use (`allowed`, the session's `ticketCriteria`).
 * @throws DomainError forbidden (403) Forbidden with `details.criteria`, the refused ones.
 */
export function checkTicketCriteria(
  criteria: readonly TicketCriterion[],
  allowed: readonly TicketCriterion[],
): void {
  const refused = [...new Set(criteria.filter((c) => !allowed.includes(c)))];
  if (refused.length > 0) {
    throw new DomainError(
      'forbidden',
      'Forbidden',
      `criteria refused by the profile: ${refused.join(', ')}`,
      {
        criteria: refused,
      },
    );
  }
}

/**
 * `request` checked for a user whose scope is `scopeSiteIds` and who may use the criteria
 * `allowedCriteria` (every one unless said), in this order: the period, the hours, the amounts,
 * the sites, the criteria.
 * @throws DomainError invalid (400) BadRequest (dateFin before dateDebut, one hour bound
 *   without the other, montantMin above montantMax), MaxReportDays (with `details.maxDays`,
 *   `days`), NoSitesSelected; forbidden (403) Forbidden with `details.sites` or `details.criteria`.
 */
export function checkedTicketSearch(
  request: TicketSearchRequest,
  scopeSiteIds: readonly number[],
  allowedCriteria: readonly TicketCriterion[] = TICKET_CRITERIA,
): TicketSearch {
  const { dateDebut, dateFin, heureDebut, heureFin, montantMin, montantMax } = request;
  const days = daysInclusive(dateDebut, dateFin);
  if (days < 1)
    throw new DomainError('invalid', 'BadRequest', `dateFin ${dateFin} is before dateDebut ${dateDebut}`);
  if (days > TICKET_SEARCH_MAX_DAYS) {
    throw new DomainError(
      'invalid',
      'MaxReportDays',
      `${days} days requested, at most ${TICKET_SEARCH_MAX_DAYS}`,
      {
        maxDays: TICKET_SEARCH_MAX_DAYS,
        days,
      },
    );
  }
  if ((heureDebut === undefined) !== (heureFin === undefined)) {
    throw new DomainError('invalid', 'BadRequest', 'heureDebut and heureFin go together');
  }
  if (montantMin !== undefined && montantMax !== undefined && montantMin > montantMax) {
    throw new DomainError('invalid', 'BadRequest', 'montantMin is above montantMax');
  }
  const siteIds = scopedSites(request.siteIds, scopeSiteIds);
  checkTicketCriteria(request.criteria, allowedCriteria);
  return {
    siteIds,
    dateDebut,
    dateFin,
    terminals: request.terminals,
    sellers: request.sellers,
    hours: heureDebut && heureFin ? { start: heureDebut, end: heureFin } : null,
    minCents: montantMin ?? null,
    maxCents: montantMax ?? null,
    criteria: request.criteria,
    trainingMode: request.trainingMode,
  };
}

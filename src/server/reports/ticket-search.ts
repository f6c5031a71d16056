/**
 * Ticket search and detail (SPEC.md §2 `/tickets`, §9 criteria; shapes in contract/tickets.ts):
 * `GET bo/tickets/search` and `GET bo/tickets/detail`.
 *
 * Guarantees:
 * - Scope (SPEC.md §6): a requested site outside the user's scope answers 403 `Forbidden`; no
 *   site given means every site of the scope (SPEC.md §5); an empty scope answers 400
 *   `NoSitesSelected`. The detail of a ticket of a site outside the scope is 403 as well.
 * - The period is bounded: more than {@link TICKET_SEARCH_MAX_DAYS} days answers 400
 *   `MaxReportDays` with `details.maxDays`, so a search always reads a bounded slice of
 *   `tickets (site_id, fiscal_date)` (the index every search uses).
 * - No match is not an error: the answer is an empty page with `total: 0`; the client shows
 *   SPEC.md §8 `NoTicketToCrit`.
 * - Results are newest first (opened_at, then site and ticket id to break ties), paginated by
 *   limit/offset with a hard maximum page size, and `total` counts every match.
 * - Training-mode tickets are left out unless `trainingMode=true`, as in the reports.
 *
 * Wire quirks as in bo/getReport: list parameters come as `sites[]=1&sites[]=2`, `sites=1,2`
 * or repeated `sites=…`; `vendeurs` is comma-joined codes with SELLER_COMMA_MARKER inside a code.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { daysInclusive, hhmmToMinutes, parseWireDate } from '../../contract/dates.ts';
import { decodeSellers } from '../../contract/reports.ts';
import {
  TICKET_MAX_PAGE_SIZE,
  TICKET_PAGE_SIZE,
  TICKET_SEARCH_MAX_DAYS,
  type TicketCriterion,
  TicketCriterionSchema,
  type TicketDetail,
  TicketDetailSchema,
  type TicketKind,
  TicketSearchAnswerSchema,
  type TicketSummary,
} from '../../contract/tickets.ts';
import type { Database } from '../db/connect.ts';
import { ApiHttpError } from '../plugins/errors.ts';
import {
  errorResponses,
  ownSession,
  QueryCommaList,
  QueryIntList,
  QueryList,
  UserIdParam,
} from './common.ts';

const criteriaList = QueryCommaList.pipe(z.array(TicketCriterionSchema));
const cents = z
  .string()
  .regex(/^-?\d{1,12}$/, 'integer cents')
  .transform(Number)
  .optional();
const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const wireDate = z.string().refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date');
const hhmm = z
  .string()
  .refine((t) => hhmmToMinutes(t) !== null, 'HH:mm')
  .optional();

const SearchQuery = z
  .object({
    id: UserIdParam,
    'sites[]': QueryIntList.describe('restaurantIds; none = every site of the user (SPEC.md §5)'),
    sites: QueryIntList.describe('same as sites[] (also comma-separated)'),
    'tpv[]': QueryIntList.describe('terminal numbers; none = every terminal'),
    tpv: QueryIntList.describe('same as tpv[]'),
    vendeurs: QueryList.describe('seller codes, comma-separated; a comma inside a code travels as {{comma}}'),
    dateDebut: wireDate.describe('first fiscal date, YYYY-MM-DD'),
    dateFin: wireDate.describe(`last fiscal date (included); at most ${TICKET_SEARCH_MAX_DAYS} days`),
    heureDebut: hhmm.describe('HH:mm site time, included; with heureFin'),
    heureFin: hhmm.describe('HH:mm site time, excluded; before heureDebut wraps past midnight'),
    montantMin: cents.describe('smallest ticket total, integer cents incl. VAT'),
    montantMax: cents.describe('largest ticket total, integer cents incl. VAT'),
    'criteres[]': criteriaList.describe('SPEC.md §9 criteria; a ticket matches any of them; none = all'),
    criteres: criteriaList.describe('same as criteres[]'),
    trainingMode: flag.describe('include training-mode tickets'),
    page: z.coerce.number().int().min(1).default(1).describe('1-based'),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(TICKET_MAX_PAGE_SIZE)
      .default(TICKET_PAGE_SIZE)
      .describe(`at most ${TICKET_MAX_PAGE_SIZE}`),
  })
  .describe('ticket search (SPEC.md §2 /tickets, §9 criteria)');

const DetailQuery = z.object({
  id: UserIdParam,
  site: z.coerce.number().int().positive().describe('restaurantId of the ticket'),
  ticketId: z.coerce.number().int().positive(),
});

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
 * Exported so the EXPLAIN measurements run the very query the route runs.
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
 * `test` (an EXISTS) checked ticket by ticket. A bare EXISTS in WHERE is turned by PostgreSQL
 * into a semi-join, and since lines and payments carry no fiscal date it then read every line
 * of the chain (measured: ~350 ms on the demo chain for a month of one site, against ~10 ms
 * ticket by ticket through the primary key). A scalar subquery is never turned into a join.
 */
const PER_TICKET = (test: string) => `(SELECT ${test})`;

/** Columns of a {@link TicketSummary} (tickets `t`, sites `s`, terminals `tm`, sellers `se`). */
const SUMMARY_COLUMNS = `t.site_id AS "restaurantId", s.libelle AS site, t.ticket_id AS "ticketId",
       t.source_ref AS number, t.fiscal_date AS "fiscalDate", t.opened_at AS "openedAt",
       to_char(t.opened_at AT TIME ZONE s.time_zone, 'YYYY-MM-DD"T"HH24:MI:SS') AS "openedLocal",
       t.terminal_id AS "terminalId", tm.libelle AS terminal, t.seller_code AS "sellerCode", se.nom AS seller,
       t.kind, t.employee_meal AS "employeeMeal", t.training_mode AS "trainingMode",
       ${CORRECTED} AS corrected, ${CASHED} AS cashed, t.total_cents AS "totalCents", s.currency`;

const SUMMARY_JOINS = `JOIN sites s ON s.id = t.site_id
  LEFT JOIN terminals tm ON tm.site_id = t.site_id AND tm.terminal_id = t.terminal_id
  LEFT JOIN sellers se ON se.site_id = t.site_id AND se.code = t.seller_code`;

interface SummaryRow extends Omit<TicketSummary, 'openedAt' | 'kind'> {
  openedAt: Date;
  kind: string;
}

function toSummary(r: SummaryRow): TicketSummary {
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
 * for every match. Exported so the EXPLAIN measurements run the very queries the route runs.
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
 * Runs `search`: one page (newest first) and the count of every match, in parallel.
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

/** The sites of `requested` checked against `scope` (403 outside, all of scope when none given). */
function scopedSites(requested: readonly number[], scope: readonly number[]): number[] {
  const inScope = new Set(scope);
  const outside = [...new Set(requested.filter((id) => !inScope.has(id)))];
  if (outside.length > 0) {
    throw new ApiHttpError(403, 'Forbidden', `sites outside the user's scope: ${outside.join(', ')}`, {
      sites: outside,
    });
  }
  const sites = requested.length > 0 ? [...new Set(requested)] : [...scope];
  if (sites.length === 0) throw new ApiHttpError(400, 'NoSitesSelected', "no site in the user's scope");
  return sites;
}

export async function ticketRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;
  const tags = ['tickets'];

  api.get(
    '/bo/tickets/search',
    {
      config: { rights: 'GET bo/tickets/search' },
      schema: {
        summary: 'Tickets of a period matching filters and SPEC.md §9 criteria, newest first, one page',
        tags,
        querystring: SearchQuery,
        response: { 200: TicketSearchAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const session = ownSession(request, q.id);
      const days = daysInclusive(q.dateDebut, q.dateFin);
      if (days < 1)
        throw new ApiHttpError(400, 'BadRequest', `dateFin ${q.dateFin} is before dateDebut ${q.dateDebut}`);
      if (days > TICKET_SEARCH_MAX_DAYS) {
        throw new ApiHttpError(
          400,
          'MaxReportDays',
          `${days} days requested, at most ${TICKET_SEARCH_MAX_DAYS}`,
          {
            maxDays: TICKET_SEARCH_MAX_DAYS,
            days,
          },
        );
      }
      if ((q.heureDebut === undefined) !== (q.heureFin === undefined)) {
        throw new ApiHttpError(400, 'BadRequest', 'heureDebut and heureFin go together');
      }
      if (q.montantMin !== undefined && q.montantMax !== undefined && q.montantMin > q.montantMax) {
        throw new ApiHttpError(400, 'BadRequest', 'montantMin is above montantMax');
      }
      const search: TicketSearch = {
        siteIds: scopedSites([...q['sites[]'], ...q.sites], session.siteIds),
        dateDebut: q.dateDebut,
        dateFin: q.dateFin,
        terminals: [...new Set([...q['tpv[]'], ...q.tpv])],
        sellers: [...new Set(q.vendeurs.flatMap(decodeSellers))],
        hours: q.heureDebut && q.heureFin ? { start: q.heureDebut, end: q.heureFin } : null,
        minCents: q.montantMin ?? null,
        maxCents: q.montantMax ?? null,
        criteria: [...q['criteres[]'], ...q.criteres],
        trainingMode: q.trainingMode,
      };
      const result = await searchTickets(database, search, q.page, q.pageSize);
      return { page: q.page, pageSize: q.pageSize, ...result };
    },
  );

  api.get(
    '/bo/tickets/detail',
    {
      config: { rights: 'GET bo/tickets/detail' },
      schema: {
        summary: 'One ticket with its lines, payments and history (opened at, terminal, seller, kind)',
        tags,
        querystring: DetailQuery,
        response: { 200: TicketDetailSchema, ...errorResponses },
      },
    },
    async (request): Promise<TicketDetail> => {
      const q = request.query;
      const session = ownSession(request, q.id);
      if (!session.siteIds.includes(q.site)) {
        throw new ApiHttpError(403, 'Forbidden', `site ${q.site} is outside the user's scope`, {
          sites: [q.site],
        });
      }
      const { pool } = database;
      const key = [q.site, q.ticketId];
      const [head, lines, payments, cancels, cancelledBy] = await Promise.all([
        pool.query<
          SummaryRow & { timeZone: string; covers: number | null; totalExclCents: number; taxCents: number }
        >(
          `SELECT ${SUMMARY_COLUMNS}, s.time_zone AS "timeZone", t.covers,
                  t.total_excl_cents AS "totalExclCents", t.tax_cents AS "taxCents"
             FROM tickets t ${SUMMARY_JOINS}
            WHERE t.site_id = $1 AND t.ticket_id = $2`,
          key,
        ),
        pool.query<{
          lineNo: number;
          articleCode: string | null;
          article: string;
          family: string | null;
          quantity: string;
          unitPriceCents: number;
          amountCents: number;
          vatRate: string;
          corrected: boolean;
        }>(
          `SELECT line_no AS "lineNo", article_code AS "articleCode", article, family, quantity::text AS quantity,
                  unit_price_cents AS "unitPriceCents", amount_cents AS "amountCents", vat_rate::text AS "vatRate", corrected
             FROM ticket_lines WHERE site_id = $1 AND ticket_id = $2 ORDER BY line_no`,
          key,
        ),
        pool.query<{ paymentNo: number; method: string; amountCents: number }>(
          `SELECT payment_no AS "paymentNo", method, amount_cents AS "amountCents"
             FROM payments WHERE site_id = $1 AND ticket_id = $2 ORDER BY payment_no`,
          key,
        ),
        // The sale this ticket cancels, and the cancellations of this ticket (same site only:
        // sales data never refers across sites, DESIGN.md §5).
        pool.query<SummaryRow>(
          `SELECT ${SUMMARY_COLUMNS}
             FROM tickets c JOIN tickets t ON t.site_id = c.site_id AND t.ticket_id = c.cancels_ticket_id
             ${SUMMARY_JOINS}
            WHERE c.site_id = $1 AND c.ticket_id = $2`,
          key,
        ),
        pool.query<SummaryRow>(
          `SELECT ${SUMMARY_COLUMNS}
             FROM tickets t ${SUMMARY_JOINS}
            WHERE t.site_id = $1 AND t.cancels_ticket_id = $2
            ORDER BY t.opened_at, t.ticket_id`,
          key,
        ),
      ]);
      const ticket = head.rows[0];
      if (!ticket) throw new ApiHttpError(404, 'NotFound', `no ticket ${q.ticketId} at site ${q.site}`);
      return {
        ...toSummary(ticket),
        timeZone: ticket.timeZone,
        covers: ticket.covers,
        totalExclCents: Number(ticket.totalExclCents),
        taxCents: Number(ticket.taxCents),
        lines: lines.rows.map((l) => ({
          ...l,
          quantity: Number(l.quantity),
          unitPriceCents: Number(l.unitPriceCents),
          amountCents: Number(l.amountCents),
          vatRate: Number(l.vatRate),
        })),
        payments: payments.rows.map((p) => ({ ...p, amountCents: Number(p.amountCents) })),
        cancels: cancels.rows[0] ? toSummary(cancels.rows[0]) : null,
        cancelledBy: cancelledBy.rows.map(toSummary),
      };
    },
  );
}

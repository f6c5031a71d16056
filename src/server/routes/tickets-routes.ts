/**
 * Ticket search and detail (SPEC.md §2 `/tickets`, §9 criteria; shapes in contract/tickets.ts):
 * `GET bo/tickets/search` and `GET bo/tickets/detail`. What a search guarantees (scope, bounded
 * period, order, paging, training tickets) and its errors are the domain's
 * (reports/ticket-search.ts, reports/ticket-detail.ts), criteria the profile refuses included;
 * the page size has a hard maximum here.
 *
 * Wire quirks as in bo/getReport: list parameters come as `sites[]=1&sites[]=2`, `sites=1,2`
 * or repeated `sites=…`; `vendeurs` is comma-joined codes with SELLER_COMMA_MARKER inside a code.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hhmmToMinutes, parseWireDate } from '../../contract/dates.ts';
import { decodeSellers } from '../../contract/reports.ts';
import {
  TICKET_MAX_PAGE_SIZE,
  TICKET_PAGE_SIZE,
  TICKET_SEARCH_MAX_DAYS,
  type TicketDetail,
  TicketCriterionSchema,
  TicketDetailSchema,
  TicketSearchAnswerSchema,
} from '../../contract/tickets.ts';
import type { Database } from '../db/connect.ts';
import { ticketDetail } from '../reports/ticket-detail.ts';
import { checkedTicketSearch, searchTickets } from '../reports/ticket-search.ts';
import {
  errorResponses,
  ownSession,
  QueryCommaList,
  QueryIntList,
  QueryList,
  UserIdParam,
} from './common.ts';
import { BIGINT_ID_MAX, INT4_MAX, PAGE_MAX } from '../../contract/integers.ts';
import { requireOneSiteWhenLimited } from '../auth/site-limit.ts';

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
    page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1).describe('1-based'),
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
  site: z.coerce.number().int().positive().max(INT4_MAX).describe('restaurantId of the ticket'),
  ticketId: z.coerce.number().int().positive().max(BIGINT_ID_MAX),
});

/** Registers GET bo/tickets/search and GET bo/tickets/detail. */
export async function ticketRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;
  const tags = ['tickets'];

  /** One page of the tickets matching the query; lists of both spellings merged, duplicates dropped. */
  async function getTicketSearch(request: FastifyRequest<{ Querystring: z.infer<typeof SearchQuery> }>) {
    const q = request.query;
    const session = ownSession(request, q.id);
    requireOneSiteWhenLimited(session, [...q['sites[]'], ...q.sites]);
    const search = checkedTicketSearch(
      {
        siteIds: [...q['sites[]'], ...q.sites],
        dateDebut: q.dateDebut,
        dateFin: q.dateFin,
        terminals: [...new Set([...q['tpv[]'], ...q.tpv])],
        sellers: [...new Set(q.vendeurs.flatMap(decodeSellers))],
        heureDebut: q.heureDebut,
        heureFin: q.heureFin,
        montantMin: q.montantMin,
        montantMax: q.montantMax,
        criteria: [...q['criteres[]'], ...q.criteres],
        trainingMode: q.trainingMode,
      },
      session.siteIds,
      session.ticketCriteria,
    );
    const result = await searchTickets(database, search, q.page, q.pageSize);
    return { page: q.page, pageSize: q.pageSize, ...result };
  }

  /** Ticket `ticketId` of site `site`, in full. */
  async function getTicketDetail(
    request: FastifyRequest<{ Querystring: z.infer<typeof DetailQuery> }>,
  ): Promise<TicketDetail> {
    const q = request.query;
    const session = ownSession(request, q.id);
    return ticketDetail(database, session.siteIds, q.site, q.ticketId);
  }

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
    getTicketSearch,
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
    getTicketDetail,
  );
}

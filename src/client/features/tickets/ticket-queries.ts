/**
 * Reads of /tickets through TanStack Query (DESIGN.md §8: one key factory per domain): a page of
 * `GET bo/tickets/search` and one ticket of `GET bo/tickets/detail` (contract/tickets.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { TicketDetailSchema, TicketSearchAnswerSchema } from '../../../contract/tickets.ts';
import { getJson, type SearchParams } from '../../lib/http.ts';

export const ticketQueries = {
  all: () => ['tickets'] as const,
  /**
   * One page of results for the parameters of `buildTicketSearchParams`. Not retried: a refused
   * search (MaxReportDays, Forbidden) stays refused, and the user asks again with the button.
   */
  search: (params: SearchParams) =>
    queryOptions({
      queryKey: [...ticketQueries.all(), 'search', params] as const,
      queryFn: () => getJson('bo/tickets/search', TicketSearchAnswerSchema, params),
      retry: false,
      staleTime: 60_000,
    }),
  /** A ticket with its lines, payments and history; a till's ticket never changes once written. */
  detail: (userId: number, site: number, ticketId: number) =>
    queryOptions({
      queryKey: [...ticketQueries.all(), 'detail', userId, site, ticketId] as const,
      queryFn: () => getJson('bo/tickets/detail', TicketDetailSchema, { id: userId, site, ticketId }),
      retry: false,
      staleTime: 30 * 60_000,
    }),
};

/**
 * The signed-in user as every authenticated route sees it (`request.session`, set by the rights
 * guard: plugins/request-session.ts declares it on Fastify's request).
 */

import type { TicketCriterion } from '../../contract/tickets.ts';

/**
 * The session of the caller, resolved from `Authorization: Basic base64(login:token)`.
 * `siteIds` is the user's site scope (SPEC.md §6): the profile's sites (every site when the
 * profile has `allSites`) plus the sites of `societesPlus`, minus those of `societesMoins`.
 */
export interface Session {
  userId: number;
  login: string;
  droits: string[];
  role: string;
  currency: string;
  codeExploitant: string | null;
  language: string | null;
  /** Sites the user may see, ascending restaurantId. */
  siteIds: number[];
  /**
   * Ticket search criteria the user may use (SPEC.md §9), from the profile's `optionsTickets`
   * (auth/ticket-criteria.ts): all of them unless the profile sets one to false.
   */
  ticketCriteria: TicketCriterion[];
}

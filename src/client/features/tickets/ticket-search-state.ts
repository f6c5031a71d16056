/**
 * What /tickets remembers while the user opens a ticket and comes back (DESIGN.md §8: UI state in
 * valtio): the amounts as typed (kept as typed, so an error never erases them), the criteria,
 * the last search sent and its page. Sites, terminals, sellers and the period are the shared
 * selection (src/client/selection). Cleared on sign-out (SPEC.md §4).
 */
import { proxy } from 'valtio';
import type { TicketCriterion } from '../../../contract/tickets.ts';
import type { SearchParams } from '../../lib/http.ts';
import { onSignOut } from '../../lib/session.ts';

export interface TicketSearchState {
  /** Minimum total as typed, in the user's currency ('' = no minimum). */
  amountMin: string;
  /** Maximum total as typed ('' = no maximum). */
  amountMax: string;
  criteria: TicketCriterion[];
  /** Parameters of the last search sent (without `page`), null before the first search. */
  params: SearchParams | null;
  /** 1-based page of the results shown. */
  page: number;
}

function initial(): TicketSearchState {
  return { amountMin: '', amountMax: '', criteria: [], params: null, page: 1 };
}

export const ticketSearch = proxy<TicketSearchState>(initial());

/** Back to an empty form (sign-out). */
export function resetTicketSearch(): void {
  Object.assign(ticketSearch, initial());
}

onSignOut(() => resetTicketSearch());

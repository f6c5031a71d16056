import { createFileRoute } from '@tanstack/react-router';
import { TicketsPage } from '../../features/tickets/components/tickets-page.tsx';

/** The search params a link into /tickets may carry (features/tickets/ticket-link.ts reads them). */
const LINK_PARAMS = ['site', 'caisse', 'vendeur', 'dateDebut', 'dateFin', 'critere'] as const;
type TicketLinkSearch = Partial<Record<(typeof LINK_PARAMS)[number], string | number>>;

/**
 * /tickets (SPEC.md §2): ticket search and viewing (right TICKETS, src/contract/rights.ts).
 * `?site&caisse|vendeur&dateDebut&dateFin&critere` opens it on that search (the anomalies
 * screen's drill-down); the values are only kept here and checked by the page (no zod in route
 * options, decision 0003).
 */
export const Route = createFileRoute('/_authed/tickets')({
  validateSearch: (search: Record<string, unknown>): TicketLinkSearch => {
    const kept: TicketLinkSearch = {};
    for (const key of LINK_PARAMS) {
      const value = search[key];
      if ((typeof value === 'string' && value !== '') || typeof value === 'number') kept[key] = value;
    }
    return kept;
  },
  component: TicketsRoute,
});

function TicketsRoute() {
  return <TicketsPage link={Route.useSearch()} />;
}

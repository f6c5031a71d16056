import { createFileRoute } from '@tanstack/react-router';
import { TicketDetailPage } from '../../features/tickets/components/ticket-detail-page.tsx';
import { ticketQueries } from '../../features/tickets/ticket-queries.ts';
import { queryClient } from '../../lib/query-client.ts';
import { positiveIntParam } from '../../lib/route-params.ts';
import { session } from '../../lib/session.ts';

/**
 * /tickets/{siteId}/{ticketId}: one ticket (its lines, payments and history). Outside the
 * /tickets layout (trailing underscore) so the search page stays as it was when coming back.
 */
export const Route = createFileRoute('/_authed/tickets_/$siteId/$ticketId')({
  params: {
    parse: (raw) => ({ siteId: positiveIntParam(raw.siteId), ticketId: positiveIntParam(raw.ticketId) }),
    stringify: (p) => ({ siteId: String(p.siteId), ticketId: String(p.ticketId) }),
  },
  loader: ({ params }) => {
    const user = session.user;
    // prefetchQuery never throws: a failure shows on the page.
    if (user) void queryClient.prefetchQuery(ticketQueries.detail(user.id, params.siteId, params.ticketId));
  },
  component: TicketRoute,
});

function TicketRoute() {
  const { siteId, ticketId } = Route.useParams();
  return <TicketDetailPage siteId={siteId} ticketId={ticketId} />;
}

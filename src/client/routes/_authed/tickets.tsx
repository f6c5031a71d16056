import { createFileRoute } from '@tanstack/react-router';
import { TicketsPage } from '../../features/tickets/components/tickets-page.tsx';

/** /tickets (SPEC.md §2): ticket search and viewing (right TICKETS, src/contract/rights.ts). */
export const Route = createFileRoute('/_authed/tickets')({
  component: TicketsPage,
});

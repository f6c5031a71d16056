import { createFileRoute } from '@tanstack/react-router';
import { EventsPage } from '../../features/events/components/events-page.tsx';

/**
 * /evenements (SPEC.md §1 "events calendar with forecast and reliability", issue #19): the
 * local events by month or week with the forecast of each day. Its chunk alone loads the calendar.
 */
export const Route = createFileRoute('/_authed/evenements')({
  component: EventsPage,
});

import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionsPage } from '../../features/subscriptions/components/subscriptions-page.tsx';
import { AlertsSection } from '../../features/alerts/alerts-section.tsx';

/** /config/recurrences (SPEC.md §2, issue #28): every rule, recipient and subscription. Needs CONFIGURATION. */
export const Route = createFileRoute('/_authed/config/recurrences')({
  component: AdminRecurrences,
});

function AdminRecurrences() {
  return (
    <>
      <SubscriptionsPage admin />
      <AlertsSection admin />
    </>
  );
}

import { createFileRoute } from '@tanstack/react-router';
import { SubscriptionsPage } from '../../features/subscriptions/components/subscriptions-page.tsx';
import { AlertsSection } from '../../features/alerts/alerts-section.tsx';

/** /abonnements (issue #28): "My subscriptions", the report e-mails the user owns. Needs RAPPORTS. */
export const Route = createFileRoute('/_authed/abonnements')({
  component: MySubscriptions,
});

function MySubscriptions() {
  return (
    <>
      <SubscriptionsPage admin={false} />
      <AlertsSection admin={false} />
    </>
  );
}

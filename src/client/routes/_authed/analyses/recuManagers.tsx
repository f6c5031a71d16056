import { createFileRoute } from '@tanstack/react-router';
import { optionalString } from '../../../lib/route-params.ts';
import { ReceiptsPage } from '../../../features/counting/components/receipts-page.tsx';

/** /analyses/recuManagers (SPEC.md §2): manager receipts (same screen as /recus). */
export const Route = createFileRoute('/_authed/analyses/recuManagers')({
  // `?outbox=<id>`: fix a queued write the server refused (from /sync).
  validateSearch: (search: Record<string, unknown>): { outbox?: string } => ({
    outbox: optionalString(search, 'outbox'),
  }),
  component: ManagerReceiptsRoute,
});

function ManagerReceiptsRoute() {
  const { outbox } = Route.useSearch();
  return <ReceiptsPage fixOutboxId={outbox} />;
}

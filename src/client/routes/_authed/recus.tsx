import { createFileRoute } from '@tanstack/react-router';
import { optionalString } from '../../lib/route-params.ts';
import { ReceiptsPage } from '../../features/counting/components/receipts-page.tsx';

/** /recus (SPEC.md §2): receipts — manager receipts, written and edited offline too. */
export const Route = createFileRoute('/_authed/recus')({
  // `?outbox=<id>`: fix a queued write the server refused (from /sync).
  validateSearch: (search: Record<string, unknown>): { outbox?: string } => ({
    outbox: optionalString(search, 'outbox'),
  }),
  component: ReceiptsRoute,
});

function ReceiptsRoute() {
  const { outbox } = Route.useSearch();
  return <ReceiptsPage fixOutboxId={outbox} />;
}

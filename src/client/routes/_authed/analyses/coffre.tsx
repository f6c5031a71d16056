import { createFileRoute } from '@tanstack/react-router';
import { optionalString } from '../../../lib/route-params.ts';
import { SafeCountPage } from '../../../features/counting/components/safe-count-page.tsx';

/** /analyses/coffre (SPEC.md §2): safe counting. `?outbox=<id>` fixes a refused queued count. */
export const Route = createFileRoute('/_authed/analyses/coffre')({
  // `?outbox=<id>`: fix a queued write the server refused (from /sync).
  validateSearch: (search: Record<string, unknown>): { outbox?: string } => ({
    outbox: optionalString(search, 'outbox'),
  }),
  component: SafeCountRoute,
});

function SafeCountRoute() {
  const { outbox } = Route.useSearch();
  return <SafeCountPage fixOutboxId={outbox} />;
}

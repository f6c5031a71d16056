import { createFileRoute } from '@tanstack/react-router';
import { optionalString } from '../../../lib/route-params.ts';
import { CashCountPage } from '../../../features/counting/components/cash-count-page.tsx';

/** /analyses/comptageCaisses/{action} (SPEC.md §2): cash counting; `saisie` counts, `liste` lists. */
export const Route = createFileRoute('/_authed/analyses/comptageCaisses/$action')({
  // `?outbox=<id>`: fix a queued write the server refused (from /sync).
  validateSearch: (search: Record<string, unknown>): { outbox?: string } => ({
    outbox: optionalString(search, 'outbox'),
  }),
  component: CashCountRoute,
});

function CashCountRoute() {
  const { action } = Route.useParams();
  const { outbox } = Route.useSearch();
  return <CashCountPage action={action} fixOutboxId={outbox} />;
}

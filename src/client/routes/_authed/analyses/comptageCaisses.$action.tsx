import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { CashCountPage } from '../../../features/counting/components/cash-count-page.tsx';

/** `?outbox=<id>`: fix a queued count the server refused (from /sync). */
const SearchSchema = z.object({ outbox: z.string().optional() });

/** /analyses/comptageCaisses/{action} (SPEC.md §2): cash counting; `saisie` counts, `liste` lists. */
export const Route = createFileRoute('/_authed/analyses/comptageCaisses/$action')({
  validateSearch: (search) => SearchSchema.parse(search),
  component: CashCountRoute,
});

function CashCountRoute() {
  const { action } = Route.useParams();
  const { outbox } = Route.useSearch();
  return <CashCountPage action={action} fixOutboxId={outbox} />;
}

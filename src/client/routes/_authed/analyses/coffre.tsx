import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { SafeCountPage } from '../../../features/counting/components/safe-count-page.tsx';

const SearchSchema = z.object({ outbox: z.string().optional() });

/** /analyses/coffre (SPEC.md §2): safe counting. `?outbox=<id>` fixes a refused queued count. */
export const Route = createFileRoute('/_authed/analyses/coffre')({
  validateSearch: (search) => SearchSchema.parse(search),
  component: SafeCountRoute,
});

function SafeCountRoute() {
  const { outbox } = Route.useSearch();
  return <SafeCountPage fixOutboxId={outbox} />;
}

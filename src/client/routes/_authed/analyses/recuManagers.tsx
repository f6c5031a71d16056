import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ReceiptsPage } from '../../../features/counting/components/receipts-page.tsx';

const SearchSchema = z.object({ outbox: z.string().optional() });

/** /analyses/recuManagers (SPEC.md §2): manager receipts (same screen as /recus). */
export const Route = createFileRoute('/_authed/analyses/recuManagers')({
  validateSearch: (search) => SearchSchema.parse(search),
  component: ManagerReceiptsRoute,
});

function ManagerReceiptsRoute() {
  const { outbox } = Route.useSearch();
  return <ReceiptsPage fixOutboxId={outbox} />;
}

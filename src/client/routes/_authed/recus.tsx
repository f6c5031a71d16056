import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ReceiptsPage } from '../../features/counting/components/receipts-page.tsx';

const SearchSchema = z.object({ outbox: z.string().optional() });

/** /recus (SPEC.md §2): receipts — manager receipts, written and edited offline too. */
export const Route = createFileRoute('/_authed/recus')({
  validateSearch: (search) => SearchSchema.parse(search),
  component: ReceiptsRoute,
});

function ReceiptsRoute() {
  const { outbox } = Route.useSearch();
  return <ReceiptsPage fixOutboxId={outbox} />;
}

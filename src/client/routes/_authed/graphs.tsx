import { createFileRoute } from '@tanstack/react-router';
import { GraphsPage } from '../../features/graphs/components/graphs-page.tsx';

/** /graphs (SPEC.md §2): sales charts. Its chunk alone loads the chart library. */
export const Route = createFileRoute('/_authed/graphs')({
  component: GraphsPage,
});

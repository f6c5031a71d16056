import { createFileRoute } from '@tanstack/react-router';
import { DistributionsPage } from '../../../features/analyses/components/distributions-page.tsx';

/** /analyses/repartitions (SPEC.md §2): distributions of the sales (bo/getRepartition). */
export const Route = createFileRoute('/_authed/analyses/repartitions')({
  component: DistributionsPage,
});

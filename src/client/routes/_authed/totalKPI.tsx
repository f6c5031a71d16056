import { createFileRoute } from '@tanstack/react-router';
import { KpiPage } from '../../features/kpi/components/kpi-page.tsx';

/** /totalKPI (SPEC.md §2, issue #19): the chain's key figures. */
export const Route = createFileRoute('/_authed/totalKPI')({
  component: KpiPage,
});

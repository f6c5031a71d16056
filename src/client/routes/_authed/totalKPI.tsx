import { createFileRoute } from '@tanstack/react-router';
import { KpiPage } from '../../features/kpi/components/kpi-page.tsx';
import { BiAreaNav } from '../-components/bi-area-nav.tsx';

/** /totalKPI (SPEC.md §2, issue #19): the chain's key figures. */
export const Route = createFileRoute('/_authed/totalKPI')({
  component: function KpiPageRoute() {
    return (
      <>
        <BiAreaNav />
        <KpiPage />
      </>
    );
  },
});

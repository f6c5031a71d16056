import { createFileRoute } from '@tanstack/react-router';
import { BiPage } from '../../features/bi/components/bi-page.tsx';
import { BiAreaNav } from '../-components/bi-area-nav.tsx';

/** /bi (SPEC.md §2, issue #19): the BI explorer. Its chunk alone loads the chart library, on demand. */
export const Route = createFileRoute('/_authed/bi')({
  component: function BiPageRoute() {
    return (
      <>
        <BiAreaNav />
        <BiPage />
      </>
    );
  },
});

import { createFileRoute } from '@tanstack/react-router';
import { TrackerPage } from '../../features/tracker/components/tracker-page.tsx';
import { BiAreaNav } from '../-components/bi-area-nav.tsx';

/** /tracker (SPEC.md §2, issue #19): today's sales per site, refreshed every minute while visible. */
export const Route = createFileRoute('/_authed/tracker')({
  component: function TrackerPageRoute() {
    return (
      <>
        <BiAreaNav />
        <TrackerPage />
      </>
    );
  },
});

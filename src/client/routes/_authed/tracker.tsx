import { createFileRoute } from '@tanstack/react-router';
import { TrackerPage } from '../../features/tracker/components/tracker-page.tsx';

/** /tracker (SPEC.md §2, issue #19): today's sales per site, refreshed every minute while visible. */
export const Route = createFileRoute('/_authed/tracker')({
  component: TrackerPage,
});

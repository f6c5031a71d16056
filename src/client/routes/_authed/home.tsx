import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/home/components/home-page.tsx';

/** /home (SPEC.md §2): yesterday's and today's sales of the selected sites. */
export const Route = createFileRoute('/_authed/home')({
  component: HomePage,
});

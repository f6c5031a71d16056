import { createFileRoute } from '@tanstack/react-router';
import { ExportsPage } from '../../../features/exports/components/exports-page.tsx';

/** /analyses/listExports (SPEC.md §2): generated reports and the state of a fiscal date (exports/status). */
export const Route = createFileRoute('/_authed/analyses/listExports')({
  component: ExportsPage,
});

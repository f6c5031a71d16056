import { createFileRoute } from '@tanstack/react-router';
import { RulesPage } from '../../features/rules-admin/components/rules-page.tsx';

/** /config/rules (issue #18): the counting rules of every site. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config'). */
export const Route = createFileRoute('/_authed/config/rules')({
  component: RulesPage,
});

import { createFileRoute } from '@tanstack/react-router';
import { GroupsPage } from '../../features/sites-admin/components/groups-page.tsx';

/** /config/groupes (issue #18): the groups (regroupements) of sites. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config'). */
export const Route = createFileRoute('/_authed/config/groupes')({
  component: GroupsPage,
});

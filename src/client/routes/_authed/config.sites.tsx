import { createFileRoute } from '@tanstack/react-router';
import { SitesPage } from '../../features/sites-admin/components/sites-page.tsx';

/** /config/sites (issue #18): the chain's companies and their sites. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config'). */
export const Route = createFileRoute('/_authed/config/sites')({
  component: SitesPage,
});

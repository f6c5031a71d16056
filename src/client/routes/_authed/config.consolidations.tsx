import { createFileRoute } from '@tanstack/react-router';
import { IntegrationPage } from '../../features/integrations/components/integration-page.tsx';

/** /config/consolidations (issue #29, decision 0044): the consolidations integration. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config'). */
export const Route = createFileRoute('/_authed/config/consolidations')({
  component: () => <IntegrationPage partner="consolidations" />,
});

import { createFileRoute } from '@tanstack/react-router';
import { IntegrationPage } from '../../features/integrations/components/integration-page.tsx';

/** /config/adoria (issue #29, decision 0044): the adoria integration. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config'). */
export const Route = createFileRoute('/_authed/config/adoria')({
  component: () => <IntegrationPage partner="adoria" />,
});

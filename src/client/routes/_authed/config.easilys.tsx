import { createFileRoute } from '@tanstack/react-router';
import { IntegrationPage } from '../../features/integrations/components/integration-page.tsx';

/** /config/easilys (issue #29, decision 0044): the easilys integration. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config'). */
export const Route = createFileRoute('/_authed/config/easilys')({
  component: () => <IntegrationPage partner="easilys" />,
});

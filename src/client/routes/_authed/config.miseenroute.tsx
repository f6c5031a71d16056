import { createFileRoute } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { AccountPasswordForm } from '../../features/account/components/account-password-form.tsx';
import { AutoBackupSection } from '../../features/database/components/database-page.tsx';
import { StartupWizard } from '../../features/startup/components/startup-wizard.tsx';
import { startupQueries } from '../../features/startup/startup-queries.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

/**
 * /config/miseenroute (issue #30): the guided start-up. Needs ACCES_BASE (contract/rights.ts
 * SCREEN_RIGHTS). The loader starts reading the state; the password step is /account's own form
 * and the backup step /config/bdd's automatic backup, composed here (features do not import each
 * other).
 */
export const Route = createFileRoute('/_authed/config/miseenroute')({
  loader: () => {
    void queryClient.prefetchQuery(startupQueries.state());
  },
  component: StartupScreen,
});

function StartupScreen() {
  const { user } = useSnapshot(session);
  return (
    <StartupWizard
      passwordForm={user ? <AccountPasswordForm user={user} /> : null}
      backupForm={user ? <AutoBackupSection userId={user.id} /> : null}
    />
  );
}

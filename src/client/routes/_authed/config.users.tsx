import { createFileRoute } from '@tanstack/react-router';
import { OutboxNotice } from '../../features/mail-outbox/components/outbox-notice.tsx';
import { UsersPage } from '../../features/users-admin/components/users-page.tsx';
import { usersAdminQueries } from '../../features/users-admin/users-admin-queries.ts';
import { queryClient } from '../../lib/query-client.ts';
import { mayOpenScreen } from '../../lib/screen-access.ts';

/**
 * /config/users (SPEC.md §2 Administration; right CONFIGURATION, src/contract/rights.ts): the
 * users of the chain. The loader starts reading the users, profiles and companies early; failures
 * show on the page.
 */
export const Route = createFileRoute('/_authed/config/users')({
  loader: () => {
    if (!mayOpenScreen('/config/users')) return;
    void queryClient.prefetchQuery(usersAdminQueries.users());
    void queryClient.prefetchQuery(usersAdminQueries.profiles());
    void queryClient.prefetchQuery(usersAdminQueries.companies());
  },
  component: UsersScreen,
});

/** The users page, with the mail outbox note when invitations and reset links go there (#32 D.2). */
function UsersScreen() {
  return (
    <>
      <OutboxNotice />
      <UsersPage />
    </>
  );
}

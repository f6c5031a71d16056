import { createFileRoute } from '@tanstack/react-router';
import { ProfilesPage } from '../../features/users-admin/components/profiles-page.tsx';
import { usersAdminQueries } from '../../features/users-admin/users-admin-queries.ts';
import { i18nState } from '../../lib/i18n.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { mayOpenScreen } from '../../lib/screen-access.ts';

/**
 * /config/profils (SPEC.md §2 Administration; right CONFIGURATION, src/contract/rights.ts): the
 * profiles and their rights. The loader starts reading the profiles, the rights in the interface
 * language and the companies early; failures show on the page.
 */
export const Route = createFileRoute('/_authed/config/profils')({
  loader: () => {
    if (!mayOpenScreen('/config/profils')) return;
    void queryClient.prefetchQuery(usersAdminQueries.profiles());
    void queryClient.prefetchQuery(usersAdminQueries.rights(i18nState.language));
    void queryClient.prefetchQuery(usersAdminQueries.companies());
  },
  component: ProfilesPage,
});

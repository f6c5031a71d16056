import { createFileRoute } from '@tanstack/react-router';
import { AccountPage } from '../../features/account/components/account-page.tsx';
import { accountQueries } from '../../features/account/account-queries.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

/**
 * /account (SPEC.md §2): my details and my password. The loader starts reading my record early;
 * a failure shows on the page.
 */
export const Route = createFileRoute('/_authed/account')({
  loader: () => {
    const user = session.user;
    if (user) void queryClient.prefetchQuery(accountQueries.mine(user.login));
  },
  component: AccountPage,
});

import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/home/components/home-page.tsx';
import { MessagesBanner } from '../../features/messages/components/messages-banner.tsx';
import { messageQueries } from '../../features/messages/message-queries.ts';
import { i18nState } from '../../lib/i18n.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

/**
 * /home (SPEC.md §2): the user's messages from the administration (issue #18: shown on sign-in,
 * which lands here, and on /home), then yesterday's and today's sales of the selected sites. The
 * loader starts reading the messages without waiting for them: the page paints at once and the
 * banner appears when they arrive.
 */
export const Route = createFileRoute('/_authed/home')({
  loader: () => {
    const user = session.user;
    if (user) void queryClient.prefetchQuery(messageQueries.mine(user.id, i18nState.language));
  },
  component: Home,
});

function Home() {
  return (
    <>
      <MessagesBanner />
      <HomePage />
    </>
  );
}

import { createFileRoute } from '@tanstack/react-router';
import { MessagesPage } from '../../features/messages/components/messages-page.tsx';
import { messageQueries } from '../../features/messages/message-queries.ts';
import { i18nState } from '../../lib/i18n.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { mayOpenScreen } from '../../lib/screen-access.ts';

/**
 * /config/messages (SPEC.md §2; issue #18): the messages from the administration. The loader
 * starts reading the messages and the profiles they may target early, for a user who may open the
 * screen only (without the right the layout shows "no access" and nothing is asked of the server);
 * failures show on the page.
 */
export const Route = createFileRoute('/_authed/config/messages')({
  loader: () => {
    if (!mayOpenScreen('/config/messages')) return;
    void queryClient.prefetchQuery(messageQueries.admin(i18nState.language));
    void queryClient.prefetchQuery(messageQueries.profiles());
  },
  component: MessagesPage,
});

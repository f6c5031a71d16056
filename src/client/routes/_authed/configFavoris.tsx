import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { FavouritesPage } from '../../features/favourites/components/favourites-page.tsx';
import { favouriteQueries } from '../../features/favourites/favourite-queries.ts';
import { reportQueries } from '../../features/reports/report-queries.ts';
import { i18nState, useLanguage } from '../../lib/i18n.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { mayOpenScreen } from '../../lib/screen-access.ts';
import { session } from '../../lib/session.ts';

/**
 * /configFavoris (SPEC.md §2): the favourite reports. The loader starts reading the favourites and
 * the report list (for today's report titles) early, for a user who may open the screen only (issue
 * #32 D.14: no 403 for a user without RAPPORTS or BI); failures show on the page.
 */
export const Route = createFileRoute('/_authed/configFavoris')({
  loader: () => {
    const user = session.user;
    if (!user || !mayOpenScreen('/configFavoris')) return;
    void queryClient.prefetchQuery(favouriteQueries.list(user.id));
    void queryClient.prefetchQuery(reportQueries.metrics(user.id, i18nState.language));
  },
  component: ConfigFavoris,
});

function ConfigFavoris() {
  const { user } = useSnapshot(session);
  const [language] = useLanguage();
  const metrics = useQuery({ ...reportQueries.metrics(user?.id ?? 0, language), enabled: user !== null });
  return <FavouritesPage editions={metrics.data ?? []} />;
}

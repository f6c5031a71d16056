import { createFileRoute } from '@tanstack/react-router';
import { FavouritesBar } from '../../features/favourites/components/favourites-bar.tsx';
import { reportQueries } from '../../features/reports/report-queries.ts';
import { ReportsPage } from '../../features/reports/components/reports-page.tsx';
import { SubscribeFromReport } from '../../features/subscriptions/components/subscribe-from-report.tsx';
import { i18nState } from '../../lib/i18n.tsx';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

/** /rapports (SPEC.md §2): report generation. The loader starts reading the report list early. */
export const Route = createFileRoute('/_authed/rapports')({
  loader: () => {
    const user = session.user;
    // prefetchQuery never throws: a failure shows on the page, with a retry button.
    if (user) void queryClient.prefetchQuery(reportQueries.metrics(user.id, i18nState.language));
  },
  component: Rapports,
});

/** The reports page with the favourites bar (features/favourites) and "send this regularly" (features/subscriptions) in its slot. */
function Rapports() {
  return (
    <ReportsPage
      favourites={(chosen, onApplied) => (
        <>
          <FavouritesBar chosen={chosen} onApplied={onApplied} />
          <SubscribeFromReport chosen={chosen} />
        </>
      )}
    />
  );
}

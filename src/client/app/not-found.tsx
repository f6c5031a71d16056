/**
 * The not-found screen (SPEC.md §2 "any other path"), with a way back. A screen SPEC.md names but
 * the app has not built yet (contract/rights.ts PENDING_SCREENS: FEC exports, database…) says
 * so instead of "page not found" (issue #32 D.3).
 */
import { Link, useRouterState } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { isPendingScreen } from '../../contract/rights.ts';

export function NotFound() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const pending = isPendingScreen(pathname);
  return (
    <main className="not-found" id="main">
      {pending ? null : (
        <p className="not-found__code" aria-hidden="true">
          404
        </p>
      )}
      <h1 className="not-found__title">
        <FormattedMessage id={pending ? 'notFound.pendingTitle' : 'notFound.title'} />
      </h1>
      <p>
        <FormattedMessage id={pending ? 'notFound.pendingText' : 'notFound.text'} />
      </p>
      <Link to="/" className="ui-button ui-button--primary">
        <FormattedMessage id="notFound.back" />
      </Link>
    </main>
  );
}

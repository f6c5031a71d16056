/**
 * The layout of every signed-in screen (SPEC.md §2): header with the navigation the user's rights
 * allow (rights table of src/contract/rights.ts), language choice and logout; the screen; a footer
 * with the client and server versions and the distribution name (SPEC.md §1, §4). It provides
 * TanStack Query (so the login's first load does not carry it) and starts the reference-data load
 * once per sign-in (SPEC.md §4).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { I18nProvider as AriaI18nProvider } from 'react-aria-components/I18nProvider';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { isPendingScreen, type Requirement, satisfies, screenRequirement } from '../../../contract/rights.ts';
import { AppMark } from '../../app/app-mark.tsx';
import { useDeferredMount } from '../../app/deferred-mount.ts';
import { DistributionChip } from '../../app/distribution-chip.tsx';
import { LanguageChoice } from '../../app/language-choice.tsx';
import { inHeaderTools } from '../../app/nav-groups.ts';
import { NavBar, type NavEntry, NavMenu, NavTools } from '../../app/nav-menu.tsx';
import { loadReferenceData } from '../../selection/load-reference-data.ts';
import { OfflineCopyBanner } from '../../features/sync/components/offline-copy-banner.tsx';
import { SyncBadge } from '../../features/sync/components/sync-badge.tsx';
import { appState, ensureServerInfo } from '../../lib/app-state.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session, signOut } from '../../lib/session.ts';
import { Button } from '../../ui/button.tsx';

/**
 * The navigation entries; each shows only when the user's rights meet its screen's requirement
 * and the screen is built (contract/rights.ts PENDING_SCREENS).
 * Shown by app/nav-menu.tsx (bar on wide screens, Menu sheet on phones), grouped by path unless an
 * entry names its `group`.
 */
export const NAV = [
  { to: '/home', messageId: 'nav.home' },
  { to: '/evenements', messageId: 'nav.events' },
  { to: '/rapports', messageId: 'nav.reports' },
  { to: '/tickets', messageId: 'nav.tickets' },
  { to: '/configFavoris', messageId: 'nav.favourites' },
  { to: '/graphs', messageId: 'nav.graphs' },
  { to: '/bi', messageId: 'nav.bi' },
  { to: '/analyses/repartitions', messageId: 'nav.repartitions' },
  { to: '/analyses/listExports', messageId: 'nav.listExports' },
  { to: '/anomalies', messageId: 'nav.anomalies' },
  { to: '/fec', messageId: 'nav.fec' },
  { to: '/analyses/comptageCaisses', messageId: 'nav.cashCounting' },
  { to: '/analyses/coffre', messageId: 'nav.safe' },
  { to: '/recus', messageId: 'nav.receipts' },
  { to: '/config', messageId: 'nav.administration' },
] as const satisfies readonly NavEntry[];

/**
 * My account in the phone's Menu sheet; wide screens reach it from "Signed in as …" in the footer,
 * which keeps the header's first row from wrapping on a tablet.
 */
const ACCOUNT_ENTRY = {
  to: '/account',
  messageId: 'nav.account',
  group: 'settings',
} as const satisfies NavEntry;

function allowed(requirement: Requirement, rights: readonly string[]): boolean {
  return satisfies(requirement, rights);
}

export function AuthedLayout() {
  const { user } = useSnapshot(session);
  const app = useSnapshot(appState);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const intl = useIntl();
  const token = user?.token;

  useEffect(() => {
    void ensureServerInfo();
  }, []);
  useEffect(() => {
    if (token) void loadReferenceData();
  }, [token]);

  // Nothing at mount, then the layout and its screen in a deferred render that yields to the
  // browser (app/deferred-mount.ts); meanwhile index.html's splash stays, so nothing shifts.
  const mounted = useDeferredMount();
  if (!user || !mounted) return null;
  const rights = user.droits;
  const canOpen = allowed(screenRequirement(pathname), rights);
  const navEntries = NAV.filter((n) => !isPendingScreen(n.to) && allowed(screenRequirement(n.to), rights));

  return (
    <QueryClientProvider client={queryClient}>
      {/* react-aria's own strings (dismiss buttons, date fields) in the interface language */}
      <AriaI18nProvider locale={intl.locale}>
        <div className="shell">
          <a className="skip-link" href="#main">
            <FormattedMessage id="app.skipToContent" />
          </a>
          <header className="app-header">
            <Link to="/home" className="app-header__brand">
              <AppMark className="app-header__mark" />
              <span className="app-header__name">
                <FormattedMessage id="app.name" />
              </span>
              <DistributionChip name={app.client} className="app-header__client" />
            </Link>
            <NavBar entries={navEntries.filter((n) => !inHeaderTools(n))} />
            <NavTools entries={navEntries.filter(inHeaderTools)} />
            <SyncBadge login={user.login} />
            <LanguageChoice className="app-header__languages" />
            <Button variant="quiet" className="app-header__logout" onPress={() => void signOut('user')}>
              <FormattedMessage id="nav.logout" />
            </Button>
            <NavMenu entries={[...navEntries, ACCOUNT_ENTRY]} login={user.login} />
          </header>
          <main className="app-main" id="main" tabIndex={-1}>
            <OfflineCopyBanner />
            {canOpen ? (
              <Outlet />
            ) : (
              <p className="app-forbidden" role="alert">
                <FormattedMessage id="app.forbidden" />
              </p>
            )}
          </main>
          <footer className="app-footer">
            <span>
              <Link to="/account" className="app-footer__account">
                <FormattedMessage id="nav.signedInAs" values={{ login: user.login }} />
              </Link>
            </span>
            <span>
              <FormattedMessage id="app.clientVersion" values={{ version: app.version }} />
            </span>
            <DistributionChip name={app.client} className="app-footer__client" />
            <span data-testid="server-version">
              {app.serverVersion === 'error' ? (
                <FormattedMessage id="app.serverUnreachable" />
              ) : app.serverVersion ? (
                <FormattedMessage id="app.serverVersion" values={{ version: app.serverVersion }} />
              ) : null}
            </span>
          </footer>
        </div>
      </AriaI18nProvider>
    </QueryClientProvider>
  );
}

/**
 * /config (SPEC.md §2 "Administration"): one entry in the navigation leads here, and this page
 * lists the administration screens the user's rights open (contract/rights.ts SCREEN_RIGHTS),
 * each with a line saying what it is for. Keeping the screens off the header bar leaves that bar
 * on one row on a tablet (issue #20 item 10) however many administration screens there are.
 */
import { Link, type LinkProps } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { useSnapshot } from 'valtio';
import { isPendingScreen, satisfies, screenRequirement } from '../../../contract/rights.ts';
import { session } from '../../lib/session.ts';
import './administration-hub.css';

/** One administration screen: its path, title message and description message. */
interface HubEntry {
  to: NonNullable<LinkProps['to']>;
  titleId: string;
  descriptionId: string;
}

/** The administration screens, in the order a chain's administrator sets a chain up. */
export const ADMINISTRATION_SCREENS: readonly HubEntry[] = [
  { to: '/config/sites', titleId: 'sitesAdmin.nav', descriptionId: 'adminHub.sites' },
  { to: '/config/groupes', titleId: 'groupsAdmin.nav', descriptionId: 'adminHub.groups' },
  { to: '/config/profils', titleId: 'adminHub.profiles.title', descriptionId: 'adminHub.profiles' },
  { to: '/config/users', titleId: 'adminHub.users.title', descriptionId: 'adminHub.users' },
  { to: '/config/messages', titleId: 'messages.nav', descriptionId: 'adminHub.messages' },
  { to: '/config/rules', titleId: 'rulesAdmin.nav', descriptionId: 'adminHub.rules' },
  { to: '/config/recurrences', titleId: 'subscriptions.adminTitle', descriptionId: 'adminHub.recurrences' },
  { to: '/config/audit', titleId: 'audit.nav', descriptionId: 'adminHub.audit' },
  { to: '/config/mails', titleId: 'mailOutbox.nav', descriptionId: 'adminHub.mails' },
  { to: '/config/miseenroute', titleId: 'startup.title', descriptionId: 'adminHub.miseenroute' },
  { to: '/config/bdd', titleId: 'database.title', descriptionId: 'adminHub.database' },
];

/** The administration page: a list of links to the screens the signed-in user may open. */
export function AdministrationHub() {
  const { user } = useSnapshot(session);
  const rights = user?.droits ?? [];
  const screens = ADMINISTRATION_SCREENS.filter(
    (s) => !isPendingScreen(String(s.to)) && satisfies(screenRequirement(String(s.to)), rights),
  );
  return (
    <section className="admin-hub" aria-labelledby="admin-hub-title">
      <h1 id="admin-hub-title">
        <FormattedMessage id="adminHub.title" />
      </h1>
      <ul className="admin-hub__list">
        {screens.map((s) => (
          <li key={String(s.to)} className="admin-hub__item">
            <Link to={s.to} className="admin-hub__link" aria-describedby={`hub-${String(s.to).slice(8)}`}>
              <FormattedMessage id={s.titleId} />
            </Link>
            <p id={`hub-${String(s.to).slice(8)}`} className="admin-hub__description">
              <FormattedMessage id={s.descriptionId} />
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

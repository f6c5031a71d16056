/**
 * The three screens of the KPI/BI area (/bi, /totalKPI, /tracker) linked to each other: the main
 * navigation holds one "KPI / BI" entry (it must stay on one row on a tablet), and each screen of
 * the area shows this bar, the current one marked. The three need the same right (BI,
 * contract/rights.ts SCREEN_RIGHTS), so whoever sees one may open the others.
 */
import { Link } from '@tanstack/react-router';
import { useIntl } from 'react-intl';
import './bi-area-nav.css';

const SCREENS = [
  { to: '/bi', messageId: 'bi.area.explore' },
  { to: '/totalKPI', messageId: 'bi.area.kpi' },
  { to: '/tracker', messageId: 'bi.area.tracker' },
] as const;

export function BiAreaNav() {
  const intl = useIntl();
  return (
    <nav className="bi-area-nav" aria-label={intl.formatMessage({ id: 'bi.area.label' })}>
      <ul className="bi-area-nav__list">
        {SCREENS.map((s) => (
          <li key={s.to}>
            <Link to={s.to} className="bi-area-nav__link" activeProps={{ 'aria-current': 'page' }}>
              {intl.formatMessage({ id: s.messageId })}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

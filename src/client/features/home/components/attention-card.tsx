/**
 * The "Needs attention" card of /home (issues #29 and #30, decision 0045): the scheduled work
 * that failed after its retries and has not succeeded since — automatic backup, partner
 * integrations, FEC recurrences, report subscriptions (failed or suspended) — each line saying
 * what failed, when, and why in the user's language, and linking to the screen that shows it and
 * can run it again. The home page shows it only to users whose rights open one of these kinds
 * (contract/attention-kinds.ts), and loads it lazily. The list is not kept for offline use (it
 * says what to act on now): offline, the card says it will be read when the network is back.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useIntl } from 'react-intl';
import type { AttentionItem } from '../../../../contract/attention.ts';
import { displayInstant } from '../../../../contract/dates.ts';
import { isOffline } from '../../../lib/request-keys.ts';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { attentionQueries } from '../attention-queries.ts';
import { QueryFallback } from './widget-card.tsx';
import './attention-card.css';

/** The screens a line may open (contract/rights.ts SCREEN_RIGHTS). */
type AttentionScreen =
  | '/config/bdd'
  | '/config/adoria'
  | '/config/easilys'
  | '/config/ecash'
  | '/config/consolidations'
  | '/fec/recurrencesfec'
  | '/config/recurrences';

/** The screen that shows `item` and can run it again. */
function screenOf(item: AttentionItem): AttentionScreen {
  switch (item.type) {
    case 'backup':
      return '/config/bdd';
    case 'integration':
      return `/config/${item.partenaire ?? 'ecash'}`;
    case 'fecRecurrence':
      return '/fec/recurrencesfec';
    case 'subscription':
    case 'subscriptionSuspended':
      return '/config/recurrences';
  }
}

function AttentionLine({ item }: { item: AttentionItem }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const what = t(`home.attention.kind.${item.type}`, {
    libelle: item.libelle ?? '',
    partner: item.partenaire ? t(`home.attention.partner.${item.partenaire}`) : '',
  });
  const at = displayInstant(item.quand);
  const when =
    item.type === 'subscriptionSuspended'
      ? t('home.attention.suspendedSince', { date: at.date })
      : t('home.attention.failedAt', { date: at.date, time: at.time, tries: item.tentatives });
  return (
    <li className="home-attention__item">
      <Link to={screenOf(item)} className="home-attention__link">
        {what}
      </Link>
      <span className="home-attention__when">{when}</span>
      <span className="home-attention__reason">
        {t(`home.attention.reason.${item.raison}`, { status: item.statutHttp ?? '' })}
      </span>
    </li>
  );
}

/** The card, for user `userId`. */
export function AttentionCard({ userId }: { userId: number }) {
  const intl = useIntl();
  const query = useQuery(attentionQueries.list(userId));
  const titleId = 'home-widget-attention';
  return (
    <Card labelledBy={titleId} className="home-widget home-widget--attention">
      <CardTitle id={titleId}>{intl.formatMessage({ id: 'home.attention.title' })}</CardTitle>
      {query.data !== undefined ? (
        query.data.elements.length === 0 ? (
          <p className="home-status">{intl.formatMessage({ id: 'home.attention.none' })}</p>
        ) : (
          <ul className="home-attention" aria-busy={query.isFetching}>
            {query.data.elements.map((item) => (
              <AttentionLine
                key={`${item.type}-${item.partenaire}-${item.libelle}-${item.quand}`}
                item={item}
              />
            ))}
          </ul>
        )
      ) : query.fetchStatus === 'paused' || (query.isError && isOffline(query.error)) ? (
        <p className="home-status">{intl.formatMessage({ id: 'home.attention.offline' })}</p>
      ) : (
        <QueryFallback query={query} />
      )}
    </Card>
  );
}

/**
 * The sync badge of the header (DESIGN.md §7, issue #3 point 5): always visible, it says online
 * or offline, how many writes wait, are being sent or need attention, and when the last one
 * reached the server. It links to /sync. Mounting it starts the page's outbox replayer. It says
 * what /sync says, from the same state (sync-state.ts): the counts of waiting and sending writes.
 */
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSnapshot } from 'valtio';
import { listenToServiceWorker } from '../offline-copy-notices.ts';
import { startSync, summarise, syncState } from '../sync-state.ts';
import '../sync.css';
import { displayInstant } from '../../../../contract/dates.ts';

export function SyncBadge({ login }: { login: string }) {
  const s = useSnapshot(syncState);

  useEffect(() => {
    listenToServiceWorker();
    return startSync(login);
  }, [login]);

  const summary = summarise(s);
  const last = s.lastSyncedAt === null ? null : displayInstant(s.lastSyncedAt).time;

  // No aria-label: the link's name is its visible text (WCAG 2.5.3, axe label-content-name-mismatch),
  // followed by where it leads, for screen readers only.
  return (
    <Link
      to="/sync"
      className={`sync-badge sync-badge--${summary}`}
      data-testid="sync-badge"
      data-state={summary}
      data-waiting={s.waiting + s.sending}
      data-attention={s.needsAttention}
    >
      <span className="sync-badge__dot" aria-hidden="true" />
      <span className="sync-badge__text">
        <FormattedMessage id={s.online ? 'sync.online' : 'sync.offline'} />
        {s.sending > 0 ? (
          <span className="sync-badge__count" data-testid="sync-badge-sending">
            {' · '}
            <FormattedMessage id="sync.sendingCount" values={{ count: s.sending }} />
          </span>
        ) : null}
        {s.waiting > 0 ? (
          <span className="sync-badge__count" data-testid="sync-badge-waiting">
            {' · '}
            <FormattedMessage id="sync.waitingCount" values={{ count: s.waiting }} />
          </span>
        ) : null}
        {s.needsAttention > 0 ? (
          <span className="sync-badge__attention">
            {' · '}
            <FormattedMessage id="sync.attentionCount" values={{ count: s.needsAttention }} />
          </span>
        ) : null}
        {s.waiting + s.sending === 0 && s.needsAttention === 0 && last ? (
          <span className="sync-badge__last">
            {' · '}
            <FormattedMessage id="sync.syncedAt" values={{ time: last }} />
          </span>
        ) : null}
      </span>
      <span className="visually-hidden">
        {' — '}
        <FormattedMessage id="sync.title" />
      </span>
    </Link>
  );
}

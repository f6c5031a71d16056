/**
 * The sync badge of the header (DESIGN.md §7, issue #3 point 5): always visible, it says online
 * or offline, how many writes wait, are being sent or need attention, and when the last one
 * reached the server. It links to /sync. Mounting it starts the page's outbox replayer.
 */
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { outboxRuntime } from '../../../lib/outbox/page-outbox.ts';
import { listenToServiceWorker } from '../offline-copy-notices.ts';
import { startSync, summarise, syncState } from '../sync-state.ts';
import '../sync.css';

export function SyncBadge({ login }: { login: string }) {
  const s = useSnapshot(syncState);
  const runtime = useSnapshot(outboxRuntime);
  const intl = useIntl();

  useEffect(() => {
    listenToServiceWorker();
    return startSync(login);
  }, [login]);

  const summary = summarise(s, runtime.replaying);
  const pending = s.waiting + s.sending;
  const last =
    s.lastSyncedAt === null ? null : intl.formatTime(s.lastSyncedAt, { hour: '2-digit', minute: '2-digit' });

  return (
    <Link
      to="/sync"
      className={`sync-badge sync-badge--${summary}`}
      data-testid="sync-badge"
      data-state={summary}
      data-waiting={pending}
      data-attention={s.needsAttention}
      aria-label={intl.formatMessage(
        { id: 'sync.badgeLabel' },
        {
          online: s.online ? 'yes' : 'no',
          waiting: pending,
          attention: s.needsAttention,
          last: last ?? '—',
        },
      )}
    >
      <span className="sync-badge__dot" aria-hidden="true" />
      <span className="sync-badge__text">
        <FormattedMessage id={s.online ? 'sync.online' : 'sync.offline'} />
        {pending > 0 ? (
          <span className="sync-badge__count">
            {' · '}
            <FormattedMessage
              id={summary === 'sending' ? 'sync.sendingCount' : 'sync.waitingCount'}
              values={{ count: pending }}
            />
          </span>
        ) : null}
        {s.needsAttention > 0 ? (
          <span className="sync-badge__attention">
            {' · '}
            <FormattedMessage id="sync.attentionCount" values={{ count: s.needsAttention }} />
          </span>
        ) : null}
        {pending === 0 && s.needsAttention === 0 && last ? (
          <span className="sync-badge__last">
            {' · '}
            <FormattedMessage id="sync.syncedAt" values={{ time: last }} />
          </span>
        ) : null}
      </span>
    </Link>
  );
}

/**
 * "Offline copy of 14:32" (DESIGN.md §7): shown above a screen while some of its figures came
 * from the service worker's offline copies rather than the server. Reset on every route change
 * and when the device is back online (issue #20 item 8); a fresh answer clears its own copy.
 */
import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSnapshot } from 'valtio';
import { offlineCopies, oldestCopy, resetOfflineCopies } from '../offline-copy-notices.ts';
import { displayInstant } from '../../../../contract/dates.ts';

export function OfflineCopyBanner() {
  const { byKey } = useSnapshot(offlineCopies);
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  useEffect(() => {
    // Runs on every route change: a new screen starts fresh.
    void pathname;
    resetOfflineCopies();
  }, [pathname]);

  useEffect(() => {
    // Back online, the screen's reads are asked again (TanStack Query refetches on reconnect):
    // a read the network still cannot answer comes back as a copy and shows the banner again.
    globalThis.addEventListener('online', resetOfflineCopies);
    return () => globalThis.removeEventListener('online', resetOfflineCopies);
  }, []);

  const oldest = oldestCopy(byKey);
  if (!oldest) return null;
  const date = new Date(oldest);
  const today = new Date().toDateString() === date.toDateString();
  const shown = displayInstant(date);
  const when = today ? shown.time : `${shown.date} ${shown.time}`;
  return (
    <p
      className="offline-copy-banner"
      role="status"
      data-testid="offline-copy-banner"
      data-stored-at={oldest}
    >
      <FormattedMessage id="sync.offlineCopy" values={{ when }} />
    </p>
  );
}

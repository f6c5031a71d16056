/**
 * The notification area, top right (SPEC.md §2, §8): errors red and persistent with a close
 * button, successes for 5 seconds. Errors are announced at once (role=alert), successes politely
 * (role=status). A code the catalogue lacks shows the generic error, never raw server text.
 * Below the signed-in header, never over its sync badge and language buttons (issue #32 D.11).
 */
import { useLayoutEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { dismissNotification, notifications, UNEXPECTED_ERROR_ID } from '../lib/notifications.ts';

/** Gap (px) between the area and the top of the window, or the bottom of a header in view. */
const GAP = 12;

/** Where the area starts (px from the window's top): under the `.app-header` in view, else GAP. */
function topBelowHeader(): number {
  const header = document.querySelector('.app-header');
  const bottom = header ? header.getBoundingClientRect().bottom : 0;
  return Math.max(GAP, Math.round(bottom) + GAP / 2);
}

/**
 * The area's top, measured when notifications are shown (`count` changes) and kept right while
 * they are: the window resized or scrolled (a short landscape screen's header scrolls away).
 */
function useTopBelowHeader(count: number): number {
  const [top, setTop] = useState(GAP);
  useLayoutEffect(() => {
    if (count === 0) return;
    const measure = () => setTop(topBelowHeader());
    measure();
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, { passive: true });
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure);
    };
  }, [count]);
  return top;
}

export function NotificationArea() {
  const { items } = useSnapshot(notifications);
  const intl = useIntl();
  const top = useTopBelowHeader(items.length);
  const text = (messageId: string, values: Readonly<Record<string, string | number>> | undefined) =>
    intl.formatMessage({ id: messageId in intl.messages ? messageId : UNEXPECTED_ERROR_ID }, values);
  const errors = items.filter((n) => n.kind === 'error');
  const successes = items.filter((n) => n.kind === 'success');
  return (
    <section
      className="notifications"
      style={{ top }}
      aria-label={intl.formatMessage({ id: 'app.notifications' })}
    >
      <div role="alert" className="notifications__group">
        {errors.map((n) => (
          <div key={n.id} className="notification notification--error" data-code={n.code}>
            <p className="notification__text">{text(n.messageId, n.values)}</p>
            <button
              type="button"
              className="notification__close"
              aria-label={intl.formatMessage({ id: 'app.close' })}
              onClick={() => dismissNotification(n.id)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
      <div role="status" className="notifications__group">
        {successes.map((n) => (
          <div key={n.id} className="notification notification--success" data-code={n.code}>
            <p className="notification__text">{text(n.messageId, n.values)}</p>
          </div>
        ))}
      </div>
    </section>
  );
}

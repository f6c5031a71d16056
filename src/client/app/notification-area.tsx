/**
 * The notification area, top right (SPEC.md §2, §8): errors red and persistent with a close
 * button, successes for 5 seconds. Errors are announced at once (role=alert), successes politely
 * (role=status). A code the catalogue lacks shows the generic error, never raw server text.
 */
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { dismissNotification, notifications, UNEXPECTED_ERROR_ID } from '../lib/notifications.ts';

export function NotificationArea() {
  const { items } = useSnapshot(notifications);
  const intl = useIntl();
  const text = (messageId: string, values: Readonly<Record<string, string | number>> | undefined) =>
    intl.formatMessage({ id: messageId in intl.messages ? messageId : UNEXPECTED_ERROR_ID }, values);
  const errors = items.filter((n) => n.kind === 'error');
  const successes = items.filter((n) => n.kind === 'success');
  return (
    <section className="notifications" aria-label={intl.formatMessage({ id: 'app.notifications' })}>
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

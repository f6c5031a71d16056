/**
 * The signed-in user's messages from the administration (GET messages/all; issue #18: "shown to
 * their targets on sign-in and on /home, dismissible"), as notices at the top of a screen. An
 * error is an alert (`role="alert"`, announced at once); info and warning are statuses. Each has
 * a close button reachable by keyboard; closing one dismisses it for good (POST messages/dismiss).
 *
 * The banner never holds the screen up: nothing shows while the messages load or if they cannot
 * be read (the screen around it is what the user came for).
 */
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { AdminMessage } from '../../../../contract/administration.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { messageQueries, useDismissMessageMutation } from '../message-queries.ts';
import './messages.css';

/** The messages of the signed-in user in the interface's language, each with its close button. */
export function MessagesBanner() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const [language] = useLanguage();
  const messages = useQuery({ ...messageQueries.mine(user?.id ?? 0, language), enabled: user !== null });
  const dismiss = useDismissMessageMutation();
  const list = messages.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="msg-banner" aria-label={intl.formatMessage({ id: 'messages.banner.label' })}>
      {list.map((m) => (
        <Notice key={m.id} message={m} onDismiss={() => dismiss.mutate(m.id)} />
      ))}
    </section>
  );
}

function Notice({ message, onDismiss }: { message: AdminMessage; onDismiss: () => void }) {
  const intl = useIntl();
  const severity = intl.formatMessage({ id: `messages.severity.${message.severity}` });
  return (
    <div
      className={`msg-notice msg-notice--${message.severity}`}
      role={message.severity === 'error' ? 'alert' : 'status'}
    >
      <p className="msg-notice__text">
        <span className="msg-notice__severity">{severity}</span> {message.text}
      </p>
      <Button
        variant="quiet"
        className="msg-notice__close"
        onPress={onDismiss}
        aria-label={intl.formatMessage({ id: 'messages.banner.dismiss' }, { text: message.text })}
      >
        <span aria-hidden="true">×</span>
      </Button>
    </div>
  );
}

/**
 * The note a screen that sends mail shows an administrator when no mail server is set (issue #32
 * D.2): its mails (invitations, reset links) are written to the mail outbox, with a link to it.
 * Shows nothing to a user without CONFIGURATION, nor when mails go to a mail server.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { useSnapshot } from 'valtio';
import { session } from '../../../lib/session.ts';
import { mailOutboxQueries } from '../mail-outbox-queries.ts';
import './mail-outbox.css';

/** The note of the module comment. */
export function OutboxNotice() {
  const { user } = useSnapshot(session);
  const admin = user?.droits.includes('CONFIGURATION') ?? false;
  const mode = useQuery({ ...mailOutboxQueries.mode(), enabled: admin });
  if (!admin || mode.data !== 'outbox') return null;
  return (
    <p className="mo-notice" role="note">
      <FormattedMessage id="mailOutbox.notice" />{' '}
      <Link to="/config/mails">
        <FormattedMessage id="mailOutbox.noticeLink" />
      </Link>
    </p>
  );
}

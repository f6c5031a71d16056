import { createFileRoute } from '@tanstack/react-router';
import { MailOutboxPage } from '../../features/mail-outbox/components/mail-outbox-page.tsx';

/** /config/mails (issue #28): the mail outbox, read only. Needs CONFIGURATION (contract/rights.ts SCREEN_RIGHTS '/config/mails'). */
export const Route = createFileRoute('/_authed/config/mails')({
  component: MailOutboxPage,
});

/**
 * The safe screen's e-mails (issue #3 point 2, SPEC.md §7 bo/home/envoieMail and
 * envoieMailManquant): send a safe count's PDF receipt, or tell that a day's safe count is
 * missing, to one user (login) or to every user of a role who sees the site. Online only
 * (safe-signatures.ts): offline, the dialog says so and keeps the recipients typed. Success shows
 * MailEnvoye, a refused send ErreurEnvoiMail (SPEC.md §8).
 */
import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { formatDate } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications.ts';
import { TextField } from '../../../ui/text-field.tsx';
import { OnlineDialogForm } from '../../../ui/online-dialog-form.tsx';
import { RequestKeys } from '../../../lib/request-keys.ts';
import { failureOutcome, mailMissingCount, mailReceipt, type MailRecipients } from '../safe-signatures.ts';

/** What to mail: a count's receipt, or the news that a day's count is missing. */
export type MailRequest =
  | { kind: 'receipt'; countId: number; site: number; libelle: string; dateFiscale: string }
  | { kind: 'missing'; site: number; libelle: string; dateFiscale: string };

export function MailDialog({
  userId,
  request,
  onClose,
}: {
  userId: number;
  /** What to send; null keeps the dialog closed. */
  request: MailRequest | null;
  onClose: () => void;
}) {
  const intl = useIntl();
  const [to, setTo] = useState<MailRecipients>({ role: '', login: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [keys] = useState(() => new RequestKeys());
  const requestKey = request ? JSON.stringify(request) : null;
  const [openedFor, setOpenedFor] = useState<string | null>(null);

  // Another request starts clean; the recipients typed are kept (they are usually the same people).
  useEffect(() => {
    if (requestKey !== null && requestKey !== openedFor) {
      setProblem(null);
      setOpenedFor(requestKey);
      keys.settle();
    }
  }, [requestKey, openedFor, keys]);

  const send = async () => {
    if (!request) return;
    const needsLogin = request.kind === 'receipt';
    if (!to.role.trim() && !(needsLogin && to.login.trim())) {
      setProblem(needsLogin ? 'counting.mail.needRecipient' : 'counting.mail.needRole');
      return;
    }
    setProblem(null);
    setBusy(true);
    const recipients = needsLogin ? to : { role: to.role, login: '' };
    const key = keys.keyFor(JSON.stringify([request, recipients]));
    try {
      if (request.kind === 'receipt') await mailReceipt(request.countId, request.site, recipients, key);
      else await mailMissingCount(userId, request.site, request.dateFiscale, recipients.role, key);
      keys.settle();
      notify.success('MailEnvoye');
      onClose();
    } catch (e) {
      // noDataError's catalogue text ("No data.") says too little here: nobody could be mailed.
      const outcome = failureOutcome(e, 'counting.online.mail', { noDataError: 'counting.mail.noRecipient' });
      if (outcome.settle) keys.settle();
      setProblem(outcome.messageId);
    } finally {
      setBusy(false);
    }
  };

  const values = { site: request?.libelle ?? '', date: request ? formatDate(request.dateFiscale) : '' };
  return (
    <OnlineDialogForm
      title={
        <FormattedMessage
          id={request?.kind === 'missing' ? 'counting.mail.missingTitle' : 'counting.mail.receiptTitle'}
          values={values}
        />
      }
      isOpen={request !== null}
      onClose={onClose}
      onSubmit={() => void send()}
      testId="mail-form"
      offlineNoticeId="counting.online.mailNotice"
      problemId={problem}
      submitLabelId="counting.mail.send"
      busy={busy}
    >
      <TextField
        label={intl.formatMessage({ id: 'counting.mail.role' })}
        description={intl.formatMessage({ id: 'counting.mail.roleHint' })}
        value={to.role}
        onChange={(role) => setTo((t) => ({ ...t, role }))}
        autoComplete="off"
      />
      {request?.kind === 'receipt' ? (
        <TextField
          label={intl.formatMessage({ id: 'counting.mail.login' })}
          value={to.login}
          onChange={(login) => setTo((t) => ({ ...t, login }))}
          autoComplete="off"
        />
      ) : null}
    </OnlineDialogForm>
  );
}

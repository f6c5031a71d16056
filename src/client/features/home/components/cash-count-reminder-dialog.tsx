/**
 * The confirmation of a reminder for a terminal not counted (home "coffre" widget, issue #19):
 * it says what the e-mail will tell and to whom, asks for the recipients' role (required, its
 * error at the field), and sends on confirmation (cash-count-reminder.ts). Offline it says so and
 * cannot send; a refusal shows in the dialog, translated, and the role typed stays. Success shows
 * MailEnvoye (SPEC.md §8) and closes. Loaded only when a reminder is asked for (safe-widget.tsx).
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { formatDate } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications.ts';
import { session } from '../../../lib/session.ts';
import { RequestKeys } from '../../../lib/request-keys.ts';
import { RequiredLabel } from '../../../ui/form.tsx';
import { OnlineDialogForm } from '../../../ui/online-dialog-form.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { reminderFailure, reminderFingerprint, remindMissingCashCount } from '../cash-count-reminder.ts';

/** A terminal of a site not counted on a fiscal date. */
export interface MissingTerminal {
  site: number;
  libelle: string;
  caisse: number;
  /** Wire YYYY-MM-DD. */
  dateFiscale: string;
}

/** The role typed, the last problem and whether a send is under way; kept across reopenings. */
function useReminderForm(onSent: () => void) {
  const { user } = useSnapshot(session);
  const [role, setRole] = useState('');
  const [roleMissing, setRoleMissing] = useState<object | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [keys] = useState(() => new RequestKeys());
  async function send(terminal: MissingTerminal) {
    if (!user) return;
    if (!role.trim()) {
      // A new object each time, so ValidatedForm focuses the field again.
      setRoleMissing({});
      return;
    }
    setRoleMissing(null);
    setProblem(null);
    setBusy(true);
    const reminder = {
      userId: user.id,
      site: terminal.site,
      caisse: terminal.caisse,
      dateFiscale: terminal.dateFiscale,
      role,
    };
    try {
      await remindMissingCashCount(reminder, keys.keyFor(reminderFingerprint(reminder)));
      keys.settle();
      notify.success('MailEnvoye');
      onSent();
    } catch (e) {
      const outcome = reminderFailure(e);
      if (outcome.settle) keys.settle();
      setProblem(outcome.messageId);
    } finally {
      setBusy(false);
    }
  }
  return { role, setRole, roleMissing, problem, setProblem, busy, send };
}

/** The dialog of the module comment; closed while `terminal` is null. */
export function CashCountReminderDialog({
  terminal,
  onClose,
}: {
  terminal: MissingTerminal | null;
  onClose: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const form = useReminderForm(onClose);
  const values = terminal
    ? { site: terminal.libelle, caisse: String(terminal.caisse), date: formatDate(terminal.dateFiscale) }
    : { site: '', caisse: '', date: '' };
  const close = () => {
    form.setProblem(null);
    onClose();
  };
  return (
    <OnlineDialogForm
      title={t('home.cash.remindTitle', values)}
      isOpen={terminal !== null}
      onClose={close}
      onSubmit={() => {
        if (terminal) void form.send(terminal);
      }}
      testId="cash-reminder-form"
      intro={<p>{t('home.cash.remindQuestion', values)}</p>}
      offlineNoticeId="home.cash.remindOffline"
      offlineDisablesSubmit
      problemId={form.problem}
      unknownProblemId="home.cash.remindFailed"
      refusal={form.roleMissing}
      submitLabelId="home.cash.remindSend"
      cancelLabelId="home.cash.remindCancel"
      busy={form.busy}
    >
      <TextField
        label={<RequiredLabel label={t('home.cash.remindRole')} mark={t('home.required')} />}
        description={t('home.cash.remindRoleHint')}
        value={form.role}
        onChange={form.setRole}
        isRequired
        isInvalid={form.roleMissing !== null && !form.role.trim()}
        errorMessage={t('home.cash.remindRoleRequired')}
        autoComplete="off"
      />
    </OnlineDialogForm>
  );
}

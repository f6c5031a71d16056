/**
 * A manager sets their own manager code (bo/setContreCode), the 4 to 6 digits they type to
 * countersign another manager's safe count. Typed twice, never shown, never stored on the device;
 * online only like the countersignature (safe-signatures.ts).
 */
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ManagerCodeSchema } from '../../../../contract/counting.ts';
import { notify } from '../../../lib/notifications.ts';
import { TextField } from '../../../ui/text-field.tsx';
import { OnlineDialogForm } from './online-dialog-form.tsx';
import { failureOutcome, RequestKeys, setOwnManagerCode } from '../safe-signatures.ts';

export function ManagerCodeDialog({
  userId,
  isOpen,
  onClose,
}: {
  userId: number;
  isOpen: boolean;
  onClose: () => void;
}) {
  const intl = useIntl();
  const [code, setCode] = useState('');
  const [again, setAgain] = useState('');
  const [problem, setProblem] = useState<{ field: 'code' | 'again' | 'attempt'; messageId: string } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
  const [keys] = useState(() => new RequestKeys());

  const close = () => {
    setCode('');
    setAgain('');
    setProblem(null);
    keys.settle();
    onClose();
  };

  const send = async () => {
    if (!ManagerCodeSchema.safeParse(code).success) {
      setProblem({ field: 'code', messageId: 'counting.error.managerCode' });
      return;
    }
    if (again !== code) {
      setProblem({ field: 'again', messageId: 'counting.safe.codeMismatch' });
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      await setOwnManagerCode(userId, code, keys.keyFor(code));
      notify.success('managerCodeSaved');
      close();
    } catch (e) {
      const outcome = failureOutcome(e, 'counting.online.managerCode');
      if (outcome.settle) keys.settle();
      setProblem({ field: 'attempt', messageId: outcome.messageId });
    } finally {
      setBusy(false);
    }
  };

  const text = (field: 'code' | 'again' | 'attempt') =>
    problem?.field === field
      ? intl.messages[problem.messageId]
        ? intl.formatMessage({ id: problem.messageId })
        : intl.formatMessage({ id: 'app.unexpectedError' })
      : undefined;

  return (
    <OnlineDialogForm
      title={<FormattedMessage id="counting.safe.managerCodeTitle" />}
      isOpen={isOpen}
      onClose={close}
      onSubmit={() => void send()}
      testId="manager-code-form"
      offlineNoticeId="counting.online.managerCodeNotice"
      problemId={problem?.field === 'attempt' ? problem.messageId : null}
      submitLabelId="counting.safe.saveManagerCode"
      busy={busy}
    >
      <TextField
        label={intl.formatMessage({ id: 'counting.safe.newManagerCode' })}
        description={intl.formatMessage({ id: 'counting.safe.managerCodeHint' })}
        value={code}
        onChange={setCode}
        type="password"
        inputMode="numeric"
        autoComplete="new-password"
        isRequired
        isInvalid={problem?.field === 'code'}
        errorMessage={text('code')}
      />
      <TextField
        label={intl.formatMessage({ id: 'counting.safe.newManagerCodeAgain' })}
        value={again}
        onChange={setAgain}
        type="password"
        inputMode="numeric"
        autoComplete="new-password"
        isRequired
        isInvalid={problem?.field === 'again'}
        errorMessage={text('again')}
      />
    </OnlineDialogForm>
  );
}

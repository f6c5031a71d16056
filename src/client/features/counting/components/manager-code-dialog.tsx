/**
 * A manager sets their own manager code (bo/setContreCode), the 4 to 6 digits they type to
 * countersign another manager's safe count. Typed twice, never shown, never stored on the device;
 * online only like the countersignature (safe-signatures.ts).
 */
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ManagerCodeSchema } from '../../../../contract/counting.ts';
import { notify } from '../../../lib/notifications.ts';
import { ManagerCodeField } from './manager-code-field.tsx';
import { OnlineDialogForm } from '../../../ui/online-dialog-form.tsx';
import { RequestKeys } from '../../../lib/request-keys.ts';
import { failureOutcome, setOwnManagerCode } from '../safe-signatures.ts';

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

  /** Message id of the problem with `field`, or undefined. */
  const problemOf = (field: 'code' | 'again') => (problem?.field === field ? problem.messageId : undefined);

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
      <ManagerCodeField
        label={intl.formatMessage({ id: 'counting.safe.newManagerCode' })}
        description={intl.formatMessage({ id: 'counting.safe.managerCodeHint' })}
        value={code}
        onChange={setCode}
        autoComplete="new-password"
        problemId={problemOf('code')}
      />
      <ManagerCodeField
        label={intl.formatMessage({ id: 'counting.safe.newManagerCodeAgain' })}
        value={again}
        onChange={setAgain}
        autoComplete="new-password"
        problemId={problemOf('again')}
      />
    </OnlineDialogForm>
  );
}

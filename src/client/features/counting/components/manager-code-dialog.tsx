/**
 * A manager sets their own manager code (bo/setContreCode), the 4 to 6 digits they type to
 * countersign another manager's safe count. Typed twice, never shown, never stored on the device;
 * online only like the countersignature (safe-signatures.ts).
 */
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ManagerCodeSchema } from '../../../../contract/counting.ts';
import { notify } from '../../../lib/notifications.ts';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import { failureOutcome, RequestKeys, setOwnManagerCode } from '../safe-signatures.ts';
import { useOnline } from '../use-online.ts';

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
  const online = useOnline();
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
    <Dialog
      title={<FormattedMessage id="counting.safe.managerCodeTitle" />}
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) close();
      }}
    >
      <form
        className="counting-dialog"
        data-testid="manager-code-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        {online ? null : (
          <p className="counting-dialog__offline" role="status" data-testid="offline-notice">
            <FormattedMessage id="counting.online.managerCodeNotice" />
          </p>
        )}
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
        {problem?.field === 'attempt' ? (
          <p className="counting-dialog__problem" role="alert" data-testid="manager-code-problem">
            {text('attempt')}
          </p>
        ) : null}
        <div className="counting-dialog__actions">
          <Button onPress={close}>
            <FormattedMessage id="sync.cancel" />
          </Button>
          <Button type="submit" variant="primary" isDisabled={busy}>
            <FormattedMessage id="counting.safe.saveManagerCode" />
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The frame of the safe screen's online-only dialogs (countersignature, e-mails, own manager
 * code; decision record 0004): a dialog holding one form that says at once when the device is
 * offline, shows the last problem as an alert, and ends with Cancel and its submit button.
 * Closing the dialog (Escape, outside press, Cancel) calls `onClose`; what was typed is the
 * caller's state and stays with it.
 */
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { useOnline } from '../../../lib/use-online.ts';

/**
 * The text of a problem's message id (undefined without one): an id the catalogue lacks, such
 * as an unforeseen error code, reads as the unexpected error.
 */
export function useProblemText(): (id: string | null | undefined) => string | undefined {
  const intl = useIntl();
  return (id) =>
    id ? intl.formatMessage({ id: intl.messages[id] ? id : 'app.unexpectedError' }) : undefined;
}

export interface OnlineDialogFormProps {
  title: ReactNode;
  isOpen: boolean;
  onClose: () => void;
  onSubmit: () => void;
  /** `data-testid` of the form; the problem alert gets `<testId minus -form>-problem`. */
  testId: string;
  /** Message shown while the device is offline. */
  offlineNoticeId: string;
  /** Message id of the last problem (an unknown id reads as the unexpected error), or null. */
  problemId: string | null;
  submitLabelId: string;
  busy: boolean;
  children: ReactNode;
}

export function OnlineDialogForm({
  title,
  isOpen,
  onClose,
  onSubmit,
  testId,
  offlineNoticeId,
  problemId,
  submitLabelId,
  busy,
  children,
}: OnlineDialogFormProps) {
  const problemText = useProblemText();
  const online = useOnline();
  return (
    <Dialog
      title={title}
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <form
        className="counting-dialog"
        data-testid={testId}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {online ? null : (
          <p className="counting-dialog__offline" role="status" data-testid="offline-notice">
            <FormattedMessage id={offlineNoticeId} />
          </p>
        )}
        {children}
        {problemId ? (
          <p
            className="counting-dialog__problem"
            role="alert"
            data-testid={`${testId.replace(/-form$/, '')}-problem`}
          >
            {problemText(problemId)}
          </p>
        ) : null}
        <div className="counting-dialog__actions">
          <Button onPress={onClose}>
            <FormattedMessage id="sync.cancel" />
          </Button>
          <Button type="submit" variant="primary" isDisabled={busy}>
            <FormattedMessage id={submitLabelId} />
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

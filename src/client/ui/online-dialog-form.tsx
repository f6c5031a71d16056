/**
 * The frame of the online-only dialogs (the safe's countersignature, e-mails and manager code;
 * the home's cash count reminder: decision record 0004): a dialog holding one form that says at
 * once when the device is offline, shows the last problem as an alert, and ends with Cancel and
 * its submit button. Closing the dialog (Escape, outside press, Cancel) calls `onClose`; what was
 * typed is the caller's state and stays with it, so a refused or failed send loses nothing. The
 * form is a {@link ValidatedForm}: field errors are the app's own, at the field, and a refused
 * submit (`refusal`) moves the focus to the first invalid field.
 */
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useOnline } from '../lib/use-online.ts';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { ValidatedForm } from './form.tsx';
import './online-dialog-form.css';

/**
 * The text of a problem's message id (undefined without one): an id the catalogue lacks, such
 * as an unforeseen error code, reads as `fallbackId` (by default the unexpected error).
 */
export function useProblemText(
  fallbackId = 'app.unexpectedError',
): (id: string | null | undefined) => string | undefined {
  const intl = useIntl();
  return (id) => (id ? intl.formatMessage({ id: intl.messages[id] ? id : fallbackId }) : undefined);
}

export interface OnlineDialogFormProps {
  title: ReactNode;
  isOpen: boolean;
  onClose: () => void;
  /** Called on submit; never while offline when `offlineDisablesSubmit`. */
  onSubmit: () => void;
  /** `data-testid` of the form; the problem alert gets `<testId minus -form>-problem`. */
  testId: string;
  /** What the dialog asks, shown first (above the offline notice), if anything. */
  intro?: ReactNode;
  /** Message shown while the device is offline (`data-testid="offline-notice"`). */
  offlineNoticeId: string;
  /**
   * True: offline, the submit button is disabled (the notice says why). False (default): it can
   * still be pressed, and the caller shows the failure it gets (what was typed stays).
   */
  offlineDisablesSubmit?: boolean;
  /** Message id of the last problem, or null. */
  problemId: string | null;
  /** What a problem id the catalogue lacks reads as (default `app.unexpectedError`). */
  unknownProblemId?: string;
  /** The last refused submit ({@link ValidatedForm}'s `refusal`): focuses the first invalid field. */
  refusal?: unknown;
  submitLabelId: string;
  /** Message id of the Cancel button (default `sync.cancel`). */
  cancelLabelId?: string;
  /** True while sending: the submit button is disabled. */
  busy: boolean;
  children: ReactNode;
}

/** The dialog of the module comment. */
export function OnlineDialogForm(props: OnlineDialogFormProps) {
  const { testId, problemId, offlineDisablesSubmit = false } = props;
  const problemText = useProblemText(props.unknownProblemId);
  const online = useOnline();
  const blocked = offlineDisablesSubmit && !online;
  return (
    <Dialog
      title={props.title}
      isOpen={props.isOpen}
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <ValidatedForm
        className="ui-online-dialog"
        data-testid={testId}
        onSubmit={() => {
          if (!blocked) props.onSubmit();
        }}
        refusal={props.refusal}
      >
        {props.intro}
        {online ? null : (
          <p className="ui-online-dialog__offline" role="status" data-testid="offline-notice">
            <FormattedMessage id={props.offlineNoticeId} />
          </p>
        )}
        {props.children}
        {problemId ? (
          <p
            className="ui-online-dialog__problem"
            role="alert"
            data-testid={`${testId.replace(/-form$/, '')}-problem`}
          >
            {problemText(problemId)}
          </p>
        ) : null}
        <div className="ui-online-dialog__actions">
          <Button onPress={props.onClose}>
            <FormattedMessage id={props.cancelLabelId ?? 'sync.cancel'} />
          </Button>
          <Button type="submit" variant="primary" isDisabled={props.busy || blocked}>
            <FormattedMessage id={props.submitLabelId} />
          </Button>
        </div>
      </ValidatedForm>
    </Dialog>
  );
}

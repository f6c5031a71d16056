/**
 * The confirmation before removing one thing, with the removal itself (SPEC.md §5 "deleting asks
 * for confirmation"): the one dialog of the administration's remove buttons (companies, groups,
 * users, profiles, messages), and of any screen built next that removes something (integrations,
 * recurrences…). Build a new one from it rather than from {@link ConfirmDialog}.
 *
 * What it guarantees, on top of ConfirmDialog (an `alertdialog` whose Cancel has the focus, so
 * Enter on arrival removes nothing; Escape and Cancel close it; buttons at least 44 px high):
 * - while the removal runs, both buttons are disabled and nothing closes the dialog, so a second
 *   press never sends a second removal;
 * - a refusal stays inside the dialog, in the user's language (`refusalText`), read by screen
 *   readers (`role="alert"`), and the dialog stays open so the user sees what to do first
 *   ("still used by …"); the next press clears it;
 * - once removed, or on Cancel / Escape, `onClose` is called and the refusal forgotten; the focus
 *   goes back to the button that opened the dialog (react-aria's modal restores it) when that
 *   button is still on the page.
 */
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog.tsx';

export interface RemovalDialogProps<T> {
  /** What is to be removed; null while the dialog is closed. */
  target: T | null;
  /** The dialog's title ("Remove the company?"), in the user's language. */
  title: string;
  /** The sentence naming what goes, for `target`. */
  body: (target: T) => ReactNode;
  /** The red button's label ("Remove for good"). */
  confirmLabel: string;
  cancelLabel: string;
  /**
   * The removal of `target`: resolves once the server removed it (the caller tells the success,
   * usually through its mutation), rejects with the failure.
   */
  remove: (target: T) => Promise<unknown>;
  /** The text of a failed removal in the user's language (an ApiFailure's code, translated). */
  refusalText: (error: unknown) => ReactNode;
  /** Called when the dialog closes: after the removal, on Cancel, on Escape. */
  onClose: () => void;
}

/** The dialog of the module comment. */
export function RemovalDialog<T>(props: RemovalDialogProps<T>) {
  const { target, remove, refusalText, onClose } = props;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ReactNode>(null);
  function close() {
    setProblem(null);
    onClose();
  }
  async function confirm(what: T) {
    setBusy(true);
    setProblem(null);
    try {
      await remove(what);
      close();
    } catch (e) {
      setProblem(refusalText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <ConfirmDialog
      isOpen={target !== null}
      title={props.title}
      body={target === null ? null : props.body(target)}
      problem={problem}
      confirmLabel={props.confirmLabel}
      cancelLabel={props.cancelLabel}
      busy={busy}
      onConfirm={() => {
        if (target !== null && !busy) void confirm(target);
      }}
      onCancel={close}
    />
  );
}

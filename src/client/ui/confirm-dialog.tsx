/**
 * The confirmation asked before deleting or emptying something (SPEC.md §5): an `alertdialog`
 * naming what goes, a red confirm button and a cancel button that has the focus, so Enter on
 * arrival does not delete. While `busy` nothing can close it; a refusal (`problem`, already in
 * the user's language) shows inside it, read by screen readers, and the dialog stays open so the
 * user knows what to do first (e.g. "still used by …").
 */
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import './confirm-dialog.css';
import './page.css';

export interface ConfirmDialogProps {
  /** Open while true. */
  isOpen: boolean;
  title: string;
  /** What will be removed, in a sentence. */
  body: ReactNode;
  /** The refusal to show (null/undefined: none). */
  problem?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** True while the removal runs: buttons disabled, not dismissable. */
  busy: boolean;
  onConfirm: () => void;
  /** Cancel, Escape or a click outside. */
  onCancel: () => void;
}

/** The confirmation of the module comment. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <Dialog
      role="alertdialog"
      title={props.title}
      isOpen={props.isOpen}
      onOpenChange={(isOpen) => {
        if (!isOpen) props.onCancel();
      }}
      isDismissable={!props.busy}
    >
      <p>{props.body}</p>
      {props.problem ? (
        <p className="ui-confirm__problem" role="alert">
          {props.problem}
        </p>
      ) : null}
      <div className="ui-buttons">
        <Button className="ui-button--danger" isDisabled={props.busy} onPress={props.onConfirm}>
          {props.confirmLabel}
        </Button>
        <Button autoFocus onPress={props.onCancel} isDisabled={props.busy}>
          {props.cancelLabel}
        </Button>
      </div>
    </Dialog>
  );
}

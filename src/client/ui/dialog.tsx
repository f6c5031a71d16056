/**
 * Modal dialog (react-aria-components Modal + Dialog): focus trapped, Escape closes, title
 * announced. Controlled by `isOpen` / `onOpenChange`; `isDismissable` lets a click outside close it.
 */
import type { ReactNode } from 'react';
import { Dialog as AriaDialog } from 'react-aria-components/Dialog';
import { Heading } from 'react-aria-components/Heading';
import { Modal, ModalOverlay } from 'react-aria-components/Modal';

export interface DialogProps {
  title: ReactNode;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  isDismissable?: boolean;
  /** `alertdialog` for confirmations (SPEC.md §5: deleting, emptying ask for confirmation). */
  role?: 'dialog' | 'alertdialog';
  children: ReactNode;
}

export function Dialog({
  title,
  isOpen,
  onOpenChange,
  isDismissable = true,
  role = 'dialog',
  children,
}: DialogProps) {
  return (
    <ModalOverlay
      className="ui-modal-overlay"
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={isDismissable}
    >
      <Modal className="ui-modal">
        <AriaDialog className="ui-dialog" role={role}>
          <Heading slot="title" className="ui-dialog__title">
            {title}
          </Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/**
 * The confirmation before deleting an event (SPEC.md §5: deleting asks for confirmation): the
 * house's alert dialog (ui/confirm-dialog.tsx) naming the event and its period, the focus on
 * Cancel. A refusal (the event changed elsewhere, the network down) shows inside it, in the
 * user's language; success closes it and is told by the mutation (`SuccessMod`).
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { LocalEvent } from '../../../../contract/events.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { formatDate } from '../../../lib/format.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { useDeleteEventMutation } from '../event-queries.ts';

/** The dialog of the module comment; `event` null keeps it closed. */
export function EventDeleteDialog({ event, onClose }: { event: LocalEvent | null; onClose: () => void }) {
  const intl = useIntl();
  const remove = useDeleteEventMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const close = () => {
    setProblem(null);
    onClose();
  };
  async function confirm() {
    if (!event) return;
    try {
      await remove.mutateAsync(event.uuid_evt);
      close();
    } catch (e) {
      const id = e instanceof ApiFailure ? `error.${e.code}` : '';
      setProblem(intl.formatMessage({ id: id in intl.messages ? id : 'error.savedError' }));
    }
  }
  return (
    <ConfirmDialog
      isOpen={event !== null}
      title={intl.formatMessage({ id: 'events.deleteTitle' })}
      body={
        event
          ? intl.formatMessage(
              { id: 'events.deleteQuestion' },
              { name: event.designation, from: formatDate(event.dateDebut), to: formatDate(event.dateFin) },
            )
          : ''
      }
      problem={problem}
      confirmLabel={intl.formatMessage({ id: 'events.deleteConfirm' })}
      cancelLabel={intl.formatMessage({ id: 'events.cancel' })}
      busy={remove.isPending}
      onConfirm={() => void confirm()}
      onCancel={close}
    />
  );
}

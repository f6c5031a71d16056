/**
 * The confirmation before deleting an event (SPEC.md §5: deleting asks for confirmation), an
 * alert dialog naming the event and its period. The deletion's outcome is told by the mutation
 * (`SuccessMod`, or the failure).
 */
import { useIntl } from 'react-intl';
import type { LocalEvent } from '../../../../contract/events.ts';
import { formatDate } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { useDeleteEventMutation } from '../event-queries.ts';

/** The dialog of the module comment; `event` null keeps it closed. */
export function EventDeleteDialog({ event, onClose }: { event: LocalEvent | null; onClose: () => void }) {
  const intl = useIntl();
  const remove = useDeleteEventMutation();
  return (
    <Dialog
      title={intl.formatMessage({ id: 'events.deleteTitle' })}
      isOpen={event !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      role="alertdialog"
    >
      {event ? (
        <p>
          {intl.formatMessage(
            { id: 'events.deleteQuestion' },
            { name: event.designation, from: formatDate(event.dateDebut), to: formatDate(event.dateFin) },
          )}
        </p>
      ) : null}
      <div className="ev-buttons">
        <Button
          variant="primary"
          isDisabled={remove.isPending}
          onPress={async () => {
            if (!event) return;
            await remove.mutateAsync(event.uuid_evt).catch(() => undefined);
            onClose();
          }}
        >
          {intl.formatMessage({ id: 'events.deleteConfirm' })}
        </Button>
        <Button onPress={onClose} isDisabled={remove.isPending}>
          {intl.formatMessage({ id: 'events.cancel' })}
        </Button>
      </div>
    </Dialog>
  );
}

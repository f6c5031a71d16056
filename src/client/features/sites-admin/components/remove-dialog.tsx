/**
 * The confirmation before removing a company (SPEC.md §5). The server refuses while the company
 * has sites (`InUse`): the dialog then stays open and names them, so the user knows what to move
 * or remove first.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Societe } from '../../../../contract/administration.ts';
import { notify } from '../../../lib/notifications.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { type AdminRefusal, adminRefusal } from '../admin-failure.ts';
import { removeCompany, removeGroup } from '../sites-admin-queries.ts';

export interface RemoveDialogProps {
  /** What is removed (null: closed): its id and the name the dialog shows. */
  target: { id: number; name: string } | null;
  /** `company` or `group`: the call and the texts. */
  kind: 'company' | 'group';
  onClose: () => void;
}

/** The confirmation of the module comment, for a company or a group. */
export function RemoveDialog({ target, kind, onClose }: RemoveDialogProps) {
  const intl = useIntl();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<AdminRefusal | null>(null);
  const prefix = kind === 'company' ? 'sitesAdmin.company.remove' : 'groupsAdmin.remove';
  const close = () => {
    setRefusal(null);
    onClose();
  };

  async function confirm(id: number) {
    setBusy(true);
    setRefusal(null);
    try {
      await (kind === 'company' ? removeCompany(id) : removeGroup(id));
      notify.success('SuccessMod');
      close();
    } catch (e) {
      setRefusal(adminRefusal(e, intl.messages));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      isOpen={target !== null}
      title={intl.formatMessage({ id: `${prefix}.title` })}
      body={target ? intl.formatMessage({ id: `${prefix}.body` }, { name: target.name }) : null}
      problem={
        refusal
          ? intl.formatMessage(
              { id: refusal.inUse ? `${prefix}.inUse` : refusal.messageId },
              { names: refusal.inUse?.join(', ') ?? '' },
            )
          : null
      }
      confirmLabel={intl.formatMessage({ id: 'sitesAdmin.remove.confirm' })}
      cancelLabel={intl.formatMessage({ id: 'sitesAdmin.cancel' })}
      busy={busy}
      onConfirm={() => {
        if (target) void confirm(target.id);
      }}
      onCancel={close}
    />
  );
}

/** The company removal of the module comment. */
export function RemoveCompanyDialog({ company, onClose }: { company: Societe | null; onClose: () => void }) {
  return (
    <RemoveDialog
      kind="company"
      target={company ? { id: company.id, name: company.raisonSociale } : null}
      onClose={onClose}
    />
  );
}

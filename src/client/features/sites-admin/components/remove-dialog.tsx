/**
 * The confirmation before removing a company or a group (SPEC.md §5), on ui/removal-dialog.tsx.
 * The server refuses while the company has sites or the group is still used (`InUse`): the
 * dialog then stays open and names them, so the user knows what to move or remove first.
 */
import { useIntl } from 'react-intl';
import type { Societe } from '../../../../contract/administration.ts';
import { notify } from '../../../lib/notifications.ts';
import { RemovalDialog } from '../../../ui/removal-dialog.tsx';
import { adminRefusal } from '../admin-failure.ts';
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
  const prefix = kind === 'company' ? 'sitesAdmin.company.remove' : 'groupsAdmin.remove';
  return (
    <RemovalDialog
      target={target}
      title={intl.formatMessage({ id: `${prefix}.title` })}
      body={(t) => intl.formatMessage({ id: `${prefix}.body` }, { name: t.name })}
      confirmLabel={intl.formatMessage({ id: 'sitesAdmin.remove.confirm' })}
      cancelLabel={intl.formatMessage({ id: 'sitesAdmin.cancel' })}
      remove={async (t) => {
        await (kind === 'company' ? removeCompany(t.id) : removeGroup(t.id));
        notify.success('SuccessMod');
      }}
      refusalText={(e) => {
        const refusal = adminRefusal(e, intl.messages);
        return intl.formatMessage(
          { id: refusal.inUse ? `${prefix}.inUse` : refusal.messageId },
          { names: refusal.inUse?.join(', ') ?? '' },
        );
      }}
      onClose={onClose}
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

/**
 * /config/profils (SPEC.md §2 Administration, issue #18): every profile with its rights, its
 * site scope and how many users hold it; create and edit in a dialog (profile-form.tsx); remove
 * after a confirmation (SPEC.md §5), refused while users hold it (InUse, naming them). On a
 * phone the table's rows read as cards (users-admin.css).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Droit, Profile, Societe } from '../../../../contract/administration.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { Button } from '../../../ui/button.tsx';
import { EditDialog, ListPage, ListReads } from '../../../ui/list-page.tsx';
import { RemovalDialog } from '../../../ui/removal-dialog.tsx';
import { Table } from '../../../ui/table.tsx';
import { profileRefusal } from '../profile-form-model.ts';
import { scopeText } from '../profile-scope-text.ts';
import { removeProfile, useUsersAdminMutation, usersAdminQueries } from '../users-admin-queries.ts';
import { useProblemText } from './form-parts.tsx';
import { ProfileForm } from './profile-form.tsx';
import { labelled, listTexts } from './list-parts.tsx';
import './users-admin.css';

type Editing = null | 'new' | number;

/** The /config/profils screen of the module comment. */
export function ProfilesPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const profiles = useQuery(usersAdminQueries.profiles());
  const rights = useQuery(usersAdminQueries.rights(language));
  const companies = useQuery(usersAdminQueries.companies());
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Profile | null>(null);
  const edited = typeof editing === 'number' ? profiles.data?.find((p) => p.id === editing) : undefined;

  return (
    <ListPage
      title={intl.formatMessage({ id: 'profilesAdmin.title' })}
      actions={
        <Button variant="primary" onPress={() => setEditing('new')} isDisabled={!rights.data}>
          {intl.formatMessage({ id: 'profilesAdmin.new' })}
        </Button>
      }
    >
      <ListReads reads={[profiles]} texts={listTexts(intl)}>
        {() => (
          <ProfileTable
            profiles={profiles.data ?? []}
            rights={rights.data ?? []}
            companies={companies.data ?? []}
            onEdit={setEditing}
            onRemove={setRemoving}
          />
        )}
      </ListReads>
      <EditDialog
        title={intl.formatMessage(
          { id: edited ? 'profilesAdmin.edit.title' : 'profilesAdmin.new.title' },
          { titre: edited?.titre ?? '' },
        )}
        isOpen={editing === 'new' || edited !== undefined}
        onClose={() => setEditing(null)}
      >
        {rights.data ? (
          <ProfileForm
            key={edited?.id ?? 'new'}
            profile={edited ?? null}
            rights={rights.data}
            companies={companies.data ?? []}
            onSaved={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <p className="ui-muted">{intl.formatMessage({ id: 'usersAdmin.loading' })}</p>
        )}
      </EditDialog>
      <RemoveProfileDialog profile={removing} onClose={() => setRemoving(null)} />
    </ListPage>
  );
}

/** The profiles as a table (cards on a phone): title, rights, scope, users, and the actions. */
function ProfileTable(props: {
  profiles: readonly Profile[];
  rights: readonly Droit[];
  companies: readonly Societe[];
  onEdit: (id: number) => void;
  onRemove: (profile: Profile) => void;
}) {
  const intl = useIntl();
  const col = (id: string) => intl.formatMessage({ id: `profilesAdmin.column.${id}` });
  const rightName = (code: string) => props.rights.find((r) => r.code === code)?.libelle ?? code;
  const columns = ['titre', 'droits', 'scope', 'users', 'actions'].map((key) => ({
    key,
    label: col(key),
    isRowHeader: key === 'titre',
    align: key === 'users' ? ('end' as const) : undefined,
  }));
  const rows = [...props.profiles]
    .sort((a, b) => a.titre.localeCompare(b.titre))
    .map((p) => ({
      id: String(p.id),
      cells: {
        titre: p.titre,
        droits: labelled(col('droits'), p.droits.map(rightName).join(', ') || '—'),
        scope: labelled(col('scope'), scopeText(intl, p, props.companies)),
        users: labelled(col('users'), p.users),
        actions: (
          <div className="ua-row-actions">
            <Button
              onPress={() => props.onEdit(p.id)}
              aria-label={intl.formatMessage({ id: 'profilesAdmin.edit.label' }, { titre: p.titre })}
            >
              {intl.formatMessage({ id: 'profilesAdmin.edit' })}
            </Button>
            <Button
              className="ui-danger"
              onPress={() => props.onRemove(p)}
              aria-label={intl.formatMessage({ id: 'profilesAdmin.remove.label' }, { titre: p.titre })}
            >
              {intl.formatMessage({ id: 'profilesAdmin.remove' })}
            </Button>
          </div>
        ),
      },
    }));
  return (
    <Table
      className="ua-table"
      label={intl.formatMessage({ id: 'profilesAdmin.list' })}
      columns={columns}
      rows={rows}
      empty={intl.formatMessage({ id: 'profilesAdmin.empty' })}
    />
  );
}

/** The confirmation before removing `profile` (SPEC.md §5, ui/removal-dialog.tsx); InUse names the users holding it. */
function RemoveProfileDialog({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const intl = useIntl();
  const text = useProblemText();
  const remove = useUsersAdminMutation(removeProfile);
  return (
    <RemovalDialog
      target={profile}
      title={intl.formatMessage({ id: 'profilesAdmin.remove.title' })}
      body={(p) => intl.formatMessage({ id: 'profilesAdmin.remove.body' }, { titre: p.titre })}
      confirmLabel={intl.formatMessage({ id: 'profilesAdmin.remove.confirm' })}
      cancelLabel={intl.formatMessage({ id: 'usersAdmin.cancel' })}
      remove={(p) => remove.mutateAsync(p.id)}
      refusalText={(e) => text(profileRefusal(e).form ?? { id: 'app.unexpectedError' })}
      onClose={onClose}
    />
  );
}

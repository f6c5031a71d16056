/**
 * /config/users (SPEC.md §2 Administration, issue #18): every user with login, e-mail, profile,
 * active and how many sites they reach; search by login or e-mail and filters by profile, site
 * and active; create and edit in a dialog (user-form.tsx) with the user's sites by name and the
 * other actions (user-actions.tsx). On a phone the table's rows read as cards (users-admin.css).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { Profile, Utilisateur } from '../../../../contract/administration.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { Button } from '../../../ui/button.tsx';
import { EditDialog, ListPage, ListReads } from '../../../ui/list-page.tsx';
import { Select } from '../../../ui/select.tsx';
import { Table } from '../../../ui/table.tsx';
import { TextField } from '../../../ui/text-field.tsx';
import {
  filterUsers,
  NO_FILTER,
  type SiteName,
  siteNames,
  type UserFilter,
  visibleSites,
} from '../user-list-model.ts';
import { usersAdminQueries } from '../users-admin-queries.ts';
import { labelled, listTexts } from './list-parts.tsx';
import { EffectiveSites, RemoveUserDialog, UserActions } from './user-actions.tsx';
import { UserForm } from './user-form.tsx';
import './users-admin.css';

/** Which dialog is open: none, the new user's, or an existing user's (by id, so it follows the list). */
type Editing = null | 'new' | number;

/** The /config/users screen of the module comment. */
export function UsersPage() {
  const intl = useIntl();
  const [language] = useLanguage();
  const users = useQuery(usersAdminQueries.users());
  const profiles = useQuery(usersAdminQueries.profiles());
  const companies = useQuery(usersAdminQueries.companies());
  const [filter, setFilter] = useState<UserFilter>(NO_FILTER);
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Utilisateur | null>(null);
  const sites = visibleSites(companies.data ?? []);
  const edited = typeof editing === 'number' ? users.data?.find((u) => u.id === editing) : undefined;

  return (
    <ListPage
      title={intl.formatMessage({ id: 'usersAdmin.title' })}
      actions={
        <Button variant="primary" onPress={() => setEditing('new')} isDisabled={!profiles.data}>
          {intl.formatMessage({ id: 'usersAdmin.new' })}
        </Button>
      }
    >
      <UserFilters filter={filter} onChange={setFilter} profiles={profiles.data ?? []} sites={sites} />
      <ListReads reads={[users]} texts={listTexts(intl)}>
        {() => <UserTable users={filterUsers(users.data ?? [], filter)} sites={sites} onEdit={setEditing} />}
      </ListReads>
      <EditDialog
        title={intl.formatMessage(
          { id: edited ? 'usersAdmin.edit.title' : 'usersAdmin.new.title' },
          { login: edited?.login ?? '' },
        )}
        isOpen={editing === 'new' || edited !== undefined}
        onClose={() => setEditing(null)}
      >
        {edited ? <EffectiveSites names={siteNames(edited.sites, sites)} /> : null}
        <UserForm
          key={edited?.id ?? 'new'}
          user={edited ?? null}
          profiles={profiles.data ?? []}
          companies={companies.data ?? []}
          language={language}
          onSaved={() => setEditing(null)}
          onCancel={() => setEditing(null)}
        />
        {edited ? (
          <UserActions
            user={edited}
            onRemove={() => {
              setEditing(null);
              setRemoving(edited);
            }}
          />
        ) : null}
      </EditDialog>
      <RemoveUserDialog user={removing} onClose={() => setRemoving(null)} />
    </ListPage>
  );
}

const ANY = 'any';

/** Search and filters of the list; "any" is the first choice of each filter. */
function UserFilters(props: {
  filter: UserFilter;
  onChange: (filter: UserFilter) => void;
  profiles: readonly Profile[];
  sites: readonly SiteName[];
}) {
  const intl = useIntl();
  const { filter } = props;
  const any = { id: ANY, label: intl.formatMessage({ id: 'usersAdmin.filter.any' }) };
  const set = (change: Partial<UserFilter>) => props.onChange({ ...filter, ...change });
  return (
    <search className="ua-filters" aria-label={intl.formatMessage({ id: 'usersAdmin.filters' })}>
      <TextField
        label={intl.formatMessage({ id: 'usersAdmin.search' })}
        type="search"
        value={filter.search}
        onChange={(search) => set({ search })}
        autoComplete="off"
      />
      <Select
        label={intl.formatMessage({ id: 'usersAdmin.field.profile' })}
        options={[any, ...props.profiles.map((p) => ({ id: p.id, label: p.titre }))]}
        value={filter.profileId ?? ANY}
        onChange={(k) => set({ profileId: k === ANY ? null : Number(k) })}
      />
      <Select
        label={intl.formatMessage({ id: 'usersAdmin.filter.site' })}
        options={[any, ...props.sites.map((s) => ({ id: s.restaurantId, label: s.libelle }))]}
        value={filter.restaurantId ?? ANY}
        onChange={(k) => set({ restaurantId: k === ANY ? null : Number(k) })}
      />
      <Select
        label={intl.formatMessage({ id: 'usersAdmin.filter.active' })}
        options={[
          any,
          { id: 'active', label: intl.formatMessage({ id: 'usersAdmin.active.yes' }) },
          { id: 'inactive', label: intl.formatMessage({ id: 'usersAdmin.active.no' }) },
        ]}
        value={filter.active === null ? ANY : filter.active ? 'active' : 'inactive'}
        onChange={(k) => set({ active: k === ANY ? null : k === 'active' })}
      />
    </search>
  );
}

/** The users as a table (cards on a phone), each with its edit button. */
function UserTable(props: {
  users: readonly Utilisateur[];
  sites: readonly SiteName[];
  onEdit: (id: number) => void;
}) {
  const intl = useIntl();
  const col = (id: string) => intl.formatMessage({ id: `usersAdmin.column.${id}` });
  const columns = ['login', 'email', 'profile', 'active', 'sites', 'actions'].map((key) => ({
    key,
    label: col(key),
    isRowHeader: key === 'login',
    align: key === 'sites' ? ('end' as const) : undefined,
  }));
  const rows = props.users.map((u) => ({
    id: String(u.id),
    cells: {
      login: u.login,
      email: labelled(col('email'), u.email ?? '—'),
      profile: labelled(col('profile'), u.profileTitre),
      active: labelled(
        col('active'),
        intl.formatMessage({ id: u.active ? 'usersAdmin.active.yes' : 'usersAdmin.active.no' }),
      ),
      sites: labelled(
        col('sites'),
        props.sites.length ? siteNames(u.sites, props.sites).length : u.sites.length,
      ),
      actions: (
        <Button
          onPress={() => props.onEdit(u.id)}
          aria-label={intl.formatMessage({ id: 'usersAdmin.edit.label' }, { login: u.login })}
        >
          {intl.formatMessage({ id: 'usersAdmin.edit' })}
        </Button>
      ),
    },
  }));
  return (
    <Table
      className="ua-table"
      label={intl.formatMessage({ id: 'usersAdmin.list' })}
      columns={columns}
      rows={rows}
      empty={intl.formatMessage({ id: 'usersAdmin.empty' })}
    />
  );
}

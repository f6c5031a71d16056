/**
 * /config/groupes (issue #18): the groups (regroupements) of sites, each with its own sites, the
 * companies added and removed, and the sites it then stands for; create, edit, and remove after a
 * confirmation (SPEC.md §5; refused while still used, naming by what).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { AdminRegroupement, Societe } from '../../../../contract/administration.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { EditDialog, Facts, ListPage, ListReads } from '../../../ui/list-page.tsx';
import { siteNames } from '../group-rules.ts';
import { listTexts } from '../list-texts.ts';
import { sitesAdminQueries } from '../sites-admin-queries.ts';
import { GroupForm } from './group-form.tsx';
import { RemoveDialog } from './remove-dialog.tsx';
import './sites-admin.css';

/** The /config/groupes screen. */
export function GroupsPage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const groups = useQuery(sitesAdminQueries.groups());
  const companies = useQuery(sitesAdminQueries.companies());
  const [editing, setEditing] = useState<{ group?: AdminRegroupement } | null>(null);
  const [removing, setRemoving] = useState<AdminRegroupement | null>(null);
  const close = () => setEditing(null);
  return (
    <ListPage
      title={t('groupsAdmin.title')}
      intro={t('groupsAdmin.intro')}
      actions={
        <Button variant="primary" onPress={() => setEditing({})} isDisabled={!companies.data}>
          {t('groupsAdmin.new')}
        </Button>
      }
    >
      <ListReads
        reads={[groups, companies]}
        texts={listTexts(intl, 'groupsAdmin.empty')}
        isEmpty={groups.data?.length === 0}
      >
        {() =>
          (groups.data ?? []).map((g) => (
            <GroupCard
              key={g.id}
              group={g}
              companies={companies.data ?? []}
              onEdit={() => setEditing({ group: g })}
              onRemove={() => setRemoving(g)}
            />
          ))
        }
      </ListReads>
      <EditDialog
        title={t(editing?.group ? 'groupsAdmin.edit.title' : 'groupsAdmin.new')}
        isOpen={editing !== null}
        onClose={close}
      >
        {editing && companies.data ? (
          <GroupForm group={editing.group} companies={companies.data} onSaved={close} onCancel={close} />
        ) : null}
      </EditDialog>
      <RemoveDialog
        kind="group"
        target={removing ? { id: removing.id, name: removing.raisonSociale } : null}
        onClose={() => setRemoving(null)}
      />
    </ListPage>
  );
}

/** One group: its sites, added and removed companies, effective sites, and its buttons. */
function GroupCard(props: {
  group: AdminRegroupement;
  companies: readonly Societe[];
  onEdit: () => void;
  onRemove: () => void;
}) {
  const intl = useIntl();
  const { group, companies } = props;
  const names = siteNames(companies);
  const companyName = new Map(companies.map((c) => [c.id, c.raisonSociale]));
  const none = intl.formatMessage({ id: 'sitesAdmin.none' });
  const list = (items: string[]) => (items.length === 0 ? none : items.join(', '));
  const sites = (ids: readonly number[]) => list(ids.map((id) => names.get(id) ?? `#${id}`));
  const firms = (ids: readonly number[]) => list(ids.map((id) => companyName.get(id) ?? `#${id}`));
  const facts: [string, string][] = [
    ['groupsAdmin.sites', sites(group.restaurantIds)],
    ['groupsAdmin.societesPlus', firms(group.societesPlus)],
    ['groupsAdmin.societesMoins', firms(group.societesMoins)],
    ['groupsAdmin.effectiveSites', sites(group.sites)],
  ];
  const headingId = `sa-group-${group.id}`;
  const name = { name: group.raisonSociale };
  return (
    <Card className="sa-card" labelledBy={headingId}>
      <CardTitle id={headingId}>{group.raisonSociale}</CardTitle>
      <Facts facts={facts.map(([id, value]) => [intl.formatMessage({ id }), value])} />
      <div className="ui-buttons">
        <Button
          onPress={props.onEdit}
          aria-label={intl.formatMessage({ id: 'groupsAdmin.edit.label' }, name)}
        >
          {intl.formatMessage({ id: 'sitesAdmin.edit' })}
        </Button>
        <Button
          className="ui-danger"
          onPress={props.onRemove}
          aria-label={intl.formatMessage({ id: 'groupsAdmin.remove.label' }, name)}
        >
          {intl.formatMessage({ id: 'sitesAdmin.remove' })}
        </Button>
      </div>
    </Card>
  );
}

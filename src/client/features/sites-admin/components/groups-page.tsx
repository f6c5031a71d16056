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
import { Card, CardTitle, cardClass } from '../../../ui/card.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { siteNames } from '../group-rules.ts';
import { sitesAdminQueries } from '../sites-admin-queries.ts';
import { GroupForm } from './group-form.tsx';
import { RemoveDialog } from './remove-dialog.tsx';
import './sites-admin.css';

/** The /config/groupes screen. */
export function GroupsPage() {
  const intl = useIntl();
  const groups = useQuery(sitesAdminQueries.groups());
  const companies = useQuery(sitesAdminQueries.companies());
  const [editing, setEditing] = useState<{ group?: AdminRegroupement } | null>(null);
  const [removing, setRemoving] = useState<AdminRegroupement | null>(null);
  const failed = groups.isError || companies.isError;
  const close = () => setEditing(null);
  return (
    <div className="sa-page">
      <div className="sa-head">
        <h1 className="sa-title">{intl.formatMessage({ id: 'groupsAdmin.title' })}</h1>
        <Button variant="primary" onPress={() => setEditing({})} isDisabled={!companies.data}>
          {intl.formatMessage({ id: 'groupsAdmin.new' })}
        </Button>
      </div>
      <p className="sa-muted">{intl.formatMessage({ id: 'groupsAdmin.intro' })}</p>
      {failed ? (
        <div className="sa-form-error" role="alert">
          <p>{intl.formatMessage({ id: 'sitesAdmin.loadFailed' })}</p>
          <Button
            onPress={() => {
              void groups.refetch();
              void companies.refetch();
            }}
          >
            {intl.formatMessage({ id: 'sitesAdmin.retry' })}
          </Button>
        </div>
      ) : !groups.data || !companies.data ? (
        <p className="sa-muted">{intl.formatMessage({ id: 'sitesAdmin.loading' })}</p>
      ) : groups.data.length === 0 ? (
        <p className={`${cardClass} sa-muted`}>{intl.formatMessage({ id: 'groupsAdmin.empty' })}</p>
      ) : (
        groups.data.map((g) => (
          <GroupCard
            key={g.id}
            group={g}
            companies={companies.data}
            onEdit={() => setEditing({ group: g })}
            onRemove={() => setRemoving(g)}
          />
        ))
      )}
      <Dialog
        title={intl.formatMessage({ id: editing?.group ? 'groupsAdmin.edit.title' : 'groupsAdmin.new' })}
        isOpen={editing !== null}
        onOpenChange={(open) => {
          if (!open) close();
        }}
        isDismissable={false}
      >
        {editing && companies.data ? (
          <GroupForm group={editing.group} companies={companies.data} onSaved={close} onCancel={close} />
        ) : null}
      </Dialog>
      <RemoveDialog
        kind="group"
        target={removing ? { id: removing.id, name: removing.raisonSociale } : null}
        onClose={() => setRemoving(null)}
      />
    </div>
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
      <dl className="sa-facts">
        {facts.map(([id, value]) => (
          <div key={id} className="sa-facts__row">
            <dt>{intl.formatMessage({ id })}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="sa-buttons">
        <Button
          onPress={props.onEdit}
          aria-label={intl.formatMessage({ id: 'groupsAdmin.edit.label' }, name)}
        >
          {intl.formatMessage({ id: 'sitesAdmin.edit' })}
        </Button>
        <Button
          className="sa-danger"
          onPress={props.onRemove}
          aria-label={intl.formatMessage({ id: 'groupsAdmin.remove.label' }, name)}
        >
          {intl.formatMessage({ id: 'sitesAdmin.remove' })}
        </Button>
      </div>
    </Card>
  );
}

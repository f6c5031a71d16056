/**
 * /config/sites (issue #18): the chain's companies, each with its sites. Companies are created,
 * edited and removed (removal asks first, SPEC.md §5, and is refused while the company has sites,
 * naming them); sites are created and edited with their terminals and sellers. A site labelled
 * 'NON REMPLI' is listed here, marked hidden, since this is the only screen that shows it
 * (SPEC.md §3).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { AdminSite, Societe } from '../../../../contract/administration.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { EditDialog, Facts, ListPage, ListReads } from '../../../ui/list-page.tsx';
import { listTexts } from '../list-texts.ts';
import { sitesAdminQueries } from '../sites-admin-queries.ts';
import { CompanyForm } from './company-form.tsx';
import { RemoveCompanyDialog } from './remove-dialog.tsx';
import { SiteForm } from './site-form.tsx';
import './sites-admin.css';

/** What the page's dialog is doing. */
type Editing =
  | { kind: 'company'; company?: Societe }
  | { kind: 'site'; site?: AdminSite; societeId?: number }
  | null;

/** The /config/sites screen. */
export function SitesPage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const companies = useQuery(sitesAdminQueries.companies());
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<Societe | null>(null);
  const list = companies.data ?? [];
  const close = () => setEditing(null);
  return (
    <ListPage
      title={t('sitesAdmin.title')}
      intro={t('sitesAdmin.intro')}
      actions={
        <div className="ui-buttons">
          <Button variant="primary" onPress={() => setEditing({ kind: 'company' })}>
            {t('sitesAdmin.company.new')}
          </Button>
          <Button onPress={() => setEditing({ kind: 'site' })} isDisabled={list.length === 0}>
            {t('sitesAdmin.site.new')}
          </Button>
        </div>
      }
    >
      <ListReads reads={[companies]} texts={listTexts(intl, 'sitesAdmin.empty')} isEmpty={list.length === 0}>
        {() =>
          list.map((c) => (
            <CompanyCard
              key={c.id}
              company={c}
              onEdit={() => setEditing({ kind: 'company', company: c })}
              onRemove={() => setRemoving(c)}
              onAddSite={() => setEditing({ kind: 'site', societeId: c.id })}
              onEditSite={(site) => setEditing({ kind: 'site', site })}
            />
          ))
        }
      </ListReads>
      <EditDialog title={t(dialogTitle(editing))} isOpen={editing !== null} onClose={close}>
        {editing?.kind === 'company' ? (
          <CompanyForm company={editing.company} onSaved={close} onCancel={close} />
        ) : editing?.kind === 'site' ? (
          <SiteForm
            site={editing.site}
            societeId={editing.societeId}
            companies={list}
            onSaved={close}
            onCancel={close}
          />
        ) : null}
      </EditDialog>
      <RemoveCompanyDialog company={removing} onClose={() => setRemoving(null)} />
    </ListPage>
  );
}

function dialogTitle(editing: Editing): string {
  if (editing?.kind === 'site') return editing.site ? 'sitesAdmin.site.edit.title' : 'sitesAdmin.site.new';
  return editing?.company ? 'sitesAdmin.company.edit.title' : 'sitesAdmin.company.new';
}

/** One company: its facts, its buttons, its sites. */
function CompanyCard(props: {
  company: Societe;
  onEdit: () => void;
  onRemove: () => void;
  onAddSite: () => void;
  onEditSite: (site: AdminSite) => void;
}) {
  const intl = useIntl();
  const { company } = props;
  const headingId = `sa-company-${company.id}`;
  const none = intl.formatMessage({ id: 'sitesAdmin.none' });
  const facts: [string, string | null][] = [
    ['sitesAdmin.company.enseigne', company.enseigne],
    ['sitesAdmin.company.siren', company.siren],
    ['sitesAdmin.company.siret', company.siret],
    ['sitesAdmin.company.codeLicence', company.codeLicence],
    ['sitesAdmin.company.codeImplant', company.codeImplant],
  ];
  const name = { name: company.raisonSociale };
  return (
    <Card className="sa-card" labelledBy={headingId}>
      <CardTitle id={headingId}>{company.raisonSociale}</CardTitle>
      <Facts facts={facts.map(([id, value]) => [intl.formatMessage({ id }), value ?? none])} />
      <div className="ui-buttons">
        <Button
          onPress={props.onEdit}
          aria-label={intl.formatMessage({ id: 'sitesAdmin.company.edit.label' }, name)}
        >
          {intl.formatMessage({ id: 'sitesAdmin.edit' })}
        </Button>
        <Button
          onPress={props.onAddSite}
          aria-label={intl.formatMessage({ id: 'sitesAdmin.site.add.label' }, name)}
        >
          {intl.formatMessage({ id: 'sitesAdmin.site.add' })}
        </Button>
        <Button
          className="ui-danger"
          onPress={props.onRemove}
          aria-label={intl.formatMessage({ id: 'sitesAdmin.company.remove.label' }, name)}
        >
          {intl.formatMessage({ id: 'sitesAdmin.remove' })}
        </Button>
      </div>
      <h3 className="sa-subtitle">
        {intl.formatMessage({ id: 'sitesAdmin.sites' }, { count: company.sites.length })}
      </h3>
      {company.sites.length === 0 ? (
        <p className="ui-muted">{intl.formatMessage({ id: 'sitesAdmin.company.noSites' })}</p>
      ) : (
        <ul className="ui-list">
          {company.sites.map((s) => (
            <SiteItem key={s.restaurantId} site={s} onEdit={() => props.onEditSite(s)} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** One site of a company: label (marked when hidden), codes, currency, zone, day start, terminals, sellers. */
function SiteItem({ site, onEdit }: { site: AdminSite; onEdit: () => void }) {
  const intl = useIntl();
  const none = intl.formatMessage({ id: 'sitesAdmin.none' });
  const list = (names: string[]) => (names.length === 0 ? none : names.join(', '));
  const facts: [string, string][] = [
    ['sitesAdmin.site.codeImplant', site.codeImplant ?? none],
    ['sitesAdmin.site.currency', site.currency],
    ['sitesAdmin.site.timeZone', site.timeZone],
    ['sitesAdmin.site.dayStart', site.dayStart],
    ['sitesAdmin.site.terminals', list(site.caisses.map((c) => c.libelle))],
    ['sitesAdmin.site.sellers', list(site.vendeurs.map((v) => v.nom))],
  ];
  return (
    <li className="ui-item sa-item" data-hidden={site.hidden || undefined}>
      <h4 className="ui-item__name">
        {site.libelle}
        {site.hidden ? (
          <span className="ui-badge">{intl.formatMessage({ id: 'sitesAdmin.site.hidden' })}</span>
        ) : null}
      </h4>
      {site.hidden ? (
        <p className="sa-note">{intl.formatMessage({ id: 'sitesAdmin.site.hiddenNote' })}</p>
      ) : null}
      <Facts facts={facts.map(([id, value]) => [intl.formatMessage({ id }), value])} />
      <Button
        onPress={onEdit}
        aria-label={intl.formatMessage({ id: 'sitesAdmin.site.edit.label' }, { name: site.libelle })}
      >
        {intl.formatMessage({ id: 'sitesAdmin.edit' })}
      </Button>
    </li>
  );
}

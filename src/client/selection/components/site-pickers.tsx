/**
 * Site, group, terminal and seller pickers (SPEC.md §1 "pick sites, groups, terminals and sellers").
 * They write the shared `selection` store; choosing sites drops terminals and sellers of sites no
 * longer chosen. Nothing chosen means all (all the user's sites, SPEC.md §5), and each summary says so.
 */
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { Regroupement, Site } from '../../../contract/api.ts';
import { appState } from '../../lib/app-state.ts';
import { Select } from '../../ui/select.tsx';
import { selection, sellerKey, terminalKey } from '../selection-state.ts';
import {
  effectiveSiteIds,
  groupsOfferChoice,
  offeredSites,
  pruneTerminalsAndSellers,
  searchSites,
} from '../site-scope.ts';
import { useSiteScope } from '../use-reference-data.ts';
import { MultiPicker, type PickerItem } from './multi-picker.tsx';
import './selection.css';

/** Re-reads the effective sites after a change and drops terminals/sellers outside them. */
function pruneAfterSiteChange(sites: readonly Site[], groups: readonly Regroupement[]): void {
  const ids = effectiveSiteIds(selection, sites, groups);
  Object.assign(selection, pruneTerminalsAndSellers(selection, ids));
}

/**
 * The one site of a user who has one: said, not offered as a choice (issue #32 D.13), so the
 * user still reads which site the screen is about.
 */
function OnlySite({ site }: { site: Site | undefined }) {
  const intl = useIntl();
  if (!site) return null;
  return (
    <p className="sel-only-site" data-testid="only-site">
      <span className="sel-only-site__label">{intl.formatMessage({ id: 'selection.sites.one' })}</span>{' '}
      <span className="sel-only-site__name">{site.libelle}</span>
    </p>
  );
}

/**
 * One site among those offered (LIMITATION_SITE, or /rapports' single-site mode: SPEC.md §5 "only
 * one site may be chosen"); the selection then holds that one site.
 */
function OneSitePicker({ offered, current }: { offered: readonly Site[]; current: number | undefined }) {
  const intl = useIntl();
  const scope = useSiteScope();
  return (
    <Select
      className="sel-one-site"
      label={intl.formatMessage({ id: 'selection.sites.one' })}
      options={offered.map((s) => ({ id: String(s.restaurantId), label: s.libelle }))}
      value={current === undefined ? null : String(current)}
      onChange={(key) => {
        selection.restaurantIds = [Number(key)];
        pruneAfterSiteChange(scope.sites, scope.groups);
      }}
    />
  );
}

/**
 * Choice of sites with search and select-all; sites labelled 'NON REMPLI' never appear. A user of
 * one site reads its name instead. On the report screen (`singleSiteMode`, /rapports), a user
 * limited to a site at a time (LIMITATION_SITE), or in the screen's single-site mode, chooses one.
 */
export function SitePicker({
  defaultExpanded,
  singleSiteMode = false,
}: {
  defaultExpanded?: boolean;
  singleSiteMode?: boolean;
}) {
  const scope = useSiteScope({ singleSiteMode });
  if (!scope.isLoading && scope.visible.length === 1) return <OnlySite site={scope.visible[0]} />;
  if (scope.single) return <OneSitePicker offered={scope.offered} current={scope.effective[0]} />;
  return <ManySitesPicker defaultExpanded={defaultExpanded} />;
}

function ManySitesPicker({ defaultExpanded }: { defaultExpanded?: boolean | undefined }) {
  const intl = useIntl();
  const scope = useSiteScope();
  const sel = useSnapshot(selection);
  const offeredIds = scope.offered.map((s) => s.restaurantId);
  const chosen = sel.restaurantIds.filter((id) => offeredIds.includes(id));
  const byId = new Map(scope.offered.map((s) => [String(s.restaurantId), s]));
  const items: PickerItem[] = scope.offered.map((s) => {
    const item: PickerItem = { id: String(s.restaurantId), label: s.libelle };
    if (s.extras.code_implant) item.detail = s.extras.code_implant;
    return item;
  });
  const group = sel.groupId === null ? undefined : scope.groups.find((g) => g.id === sel.groupId);
  const summary =
    chosen.length === 0
      ? group
        ? intl.formatMessage(
            { id: 'selection.sites.allInGroup' },
            { count: offeredIds.length, group: group.raisonSociale },
          )
        : intl.formatMessage({ id: 'selection.sites.all' }, { count: offeredIds.length })
      : chosen.length === 1
        ? (scope.offered.find((s) => s.restaurantId === chosen[0])?.libelle ?? '')
        : intl.formatMessage(
            { id: 'selection.sites.some' },
            { count: chosen.length, total: offeredIds.length },
          );
  return (
    <MultiPicker
      label={intl.formatMessage({ id: 'selection.sites.label' })}
      summary={summary}
      sections={[{ id: 'sites', items }]}
      selected={chosen.map(String)}
      onChange={(ids) => {
        selection.restaurantIds = ids.map(Number);
        pruneAfterSiteChange(scope.sites, scope.groups);
      }}
      searchable
      filter={(item, search) => {
        const site = byId.get(item.id);
        return site ? searchSites([site], search).length > 0 : false;
      }}
      emptyText={
        scope.isLoading
          ? intl.formatMessage({ id: 'selection.loading' })
          : intl.formatMessage({ id: 'selection.sites.none' })
      }
      defaultExpanded={defaultExpanded}
    />
  );
}

/** Choice of a group of sites (regroupement); hidden when no group narrows the user's sites (D.13). */
export function GroupPicker() {
  const intl = useIntl();
  const scope = useSiteScope();
  const sel = useSnapshot(selection);
  if (!groupsOfferChoice(scope.sites, scope.groups) && sel.groupId === null) return null;
  const options = [
    { id: 'all', label: intl.formatMessage({ id: 'selection.groups.all' }) },
    ...scope.groups.map((g) => ({ id: String(g.id), label: g.raisonSociale })),
  ];
  return (
    <Select
      className="sel-group"
      label={intl.formatMessage({ id: 'selection.groups.label' })}
      options={options}
      value={sel.groupId === null ? 'all' : String(sel.groupId)}
      onChange={(key) => {
        selection.groupId = key === 'all' ? null : Number(key);
        const offered = offeredSites(scope.sites, scope.groups, selection.groupId).map((s) => s.restaurantId);
        selection.restaurantIds = selection.restaurantIds.filter((id) => offered.includes(id));
        pruneAfterSiteChange(scope.sites, scope.groups);
      }}
    />
  );
}

/**
 * Multi-choice of what belongs to the chosen sites (`kind`: terminals or sellers), one section per
 * site, titled when there are several. Messages `selection.<kind>.*`; the chosen keys are
 * `selection[kind]`.
 */
function PerSitePicker(props: {
  kind: 'terminals' | 'sellers';
  sites: readonly { restaurantId: number; libelle: string; items: PickerItem[] }[];
  searchable: boolean;
}) {
  const { kind } = props;
  const intl = useIntl();
  const sel = useSnapshot(selection);
  const several = props.sites.length > 1;
  const sections = props.sites.map((s) => ({
    id: `site-${s.restaurantId}`,
    title: several ? s.libelle : undefined,
    items: s.items,
  }));
  const chosen = sel[kind].length;
  return (
    <MultiPicker
      label={intl.formatMessage({ id: `selection.${kind}.label` })}
      summary={
        chosen === 0
          ? intl.formatMessage({ id: `selection.${kind}.all` })
          : intl.formatMessage({ id: `selection.${kind}.some` }, { count: chosen })
      }
      sections={sections}
      selected={sel[kind]}
      onChange={(ids) => {
        selection[kind] = ids;
      }}
      searchable={props.searchable}
      emptyText={intl.formatMessage({ id: `selection.${kind}.none` })}
    />
  );
}

/**
 * Multi-choice of terminals (caisses) of the chosen sites, one section per site; in single-site
 * mode (`singleSiteMode`, see SitePicker), of the one site.
 */
export function TerminalPicker({ singleSiteMode = false }: { singleSiteMode?: boolean }) {
  const intl = useIntl();
  const scope = useSiteScope({ singleSiteMode });
  const sites = scope.siteTerminals.map((s) => ({
    restaurantId: s.restaurantId,
    libelle: s.libelle,
    items: s.caisses.map((c) => {
      const item: PickerItem = { id: terminalKey(s.restaurantId, c.id), label: c.libelle };
      // The number only when the label does not already say it ("Caisse 2").
      if (!c.libelle.includes(String(c.id))) {
        item.detail = intl.formatMessage({ id: 'selection.terminals.number' }, { number: c.id });
      }
      return item;
    }),
  }));
  const count = sites.reduce((n, s) => n + s.items.length, 0);
  return <PerSitePicker kind="terminals" sites={sites} searchable={count > 8} />;
}

/**
 * Multi-choice of sellers (vendeurs) of the chosen sites (of the one site in single-site mode);
 * absent for client type TOTAL (SPEC.md §4).
 */
export function SellerPicker({ singleSiteMode = false }: { singleSiteMode?: boolean }) {
  const scope = useSiteScope({ singleSiteMode });
  const app = useSnapshot(appState);
  if (app.client === 'TOTAL') return null;
  const sites = scope.siteSellers.map((s) => ({
    restaurantId: s.restaurantId,
    libelle: s.libelle,
    items: s.vendeurs.map((v) => ({ id: sellerKey(s.restaurantId, v.code), label: v.nom, detail: v.code })),
  }));
  return <PerSitePicker kind="sellers" sites={sites} searchable />;
}

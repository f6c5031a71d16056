/**
 * Reference data for components, read from the query cache that `loadReferenceData` fills.
 * The queries stay disabled until that load has finished (or failed), so SPEC.md §4's order is
 * kept: a picker mounting first never fires the four calls in parallel. A screen mounting before
 * anyone started the load starts it (the load is shared, never run twice at once).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { appState } from '../lib/app-state.ts';
import { session } from '../lib/session.ts';
import { loadReferenceData } from './load-reference-data.ts';
import { referenceQueries } from './reference-queries.ts';
import { referenceLoad, selection } from './selection-state.ts';
import {
  effectiveSiteIds,
  limitedToOneSite,
  offeredSites,
  sellersOfSites,
  terminalsOfSites,
  visibleSites,
} from './site-scope.ts';

/** Sites, groups, terminals and sellers of the signed-in user, with loading and error flags. */
export function useReferenceData() {
  useSnapshot(session);
  const load = useSnapshot(referenceLoad);
  const app = useSnapshot(appState);
  const enabled = load.loaded || load.failedCode !== null;
  const idle = !load.loaded && !load.loading && load.failedCode === null;
  useEffect(() => {
    if (idle && session.user) void loadReferenceData();
  }, [idle]);
  const sites = useQuery({ ...referenceQueries.sites(), enabled });
  const groups = useQuery({ ...referenceQueries.groups(), enabled });
  const terminals = useQuery({ ...referenceQueries.terminals(), enabled });
  const sellers = useQuery({ ...referenceQueries.sellers(), enabled: enabled && app.client !== 'TOTAL' });
  return {
    sites: sites.data ?? [],
    groups: groups.data ?? [],
    terminals: terminals.data ?? [],
    sellers: sellers.data ?? [],
    isLoading: !enabled || sites.isPending || groups.isPending,
    error: sites.error ?? groups.error ?? null,
    refetch: () => {
      void sites.refetch();
      void groups.refetch();
    },
  };
}

/**
 * The selection read against the reference data: visible sites, the sites offered under the chosen
 * group, the effective site ids (all when none chosen, SPEC.md §5), and their terminals and sellers.
 * `single` is true when the pickers choose one site: on the report screen (`singleSiteMode`,
 * /rapports, the views whose calls the server limits) when the user holds LIMITATION_SITE or the
 * selection's single-site mode is on; `effective` then holds one site at most. `limited` tells
 * whether the user holds LIMITATION_SITE.
 */
export function useSiteScope({ singleSiteMode = false }: { singleSiteMode?: boolean } = {}) {
  const ref = useReferenceData();
  const sel = useSnapshot(selection);
  const { user } = useSnapshot(session);
  const limited = limitedToOneSite(user?.droits ?? []);
  const single = singleSiteMode && (limited || sel.singleSite);
  const visible = visibleSites(ref.sites);
  const offered = offeredSites(ref.sites, ref.groups, sel.groupId);
  const effective = effectiveSiteIds(sel, ref.sites, ref.groups, single);
  return {
    ...ref,
    visible,
    offered,
    effective,
    single,
    limited,
    siteTerminals: terminalsOfSites(ref.terminals, effective),
    siteSellers: sellersOfSites(ref.sellers, effective),
  };
}

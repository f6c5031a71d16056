/**
 * Pure rules over the reference data: which sites are shown, which sites a selection stands for,
 * and which terminals and sellers belong to them. Kept apart from the components so /rapports,
 * /home and the tests share one reading of SPEC.md §3–§5.
 */
import type { Regroupement, Seller, Site, Terminal } from '../../contract/api.ts';
import { sellerKey, terminalKey } from './selection-state.ts';

/** Label of placeholder sites that are never shown (SPEC.md §3). */
export const HIDDEN_SITE_LABEL = 'NON REMPLI';

/** The terminals of one site, as bo/getCaisses answers them ('site+caisses', SPEC.md §7). */
export interface SiteTerminals {
  restaurantId: number;
  libelle: string;
  caisses: Terminal[];
}
/** The sellers of one site, as bo/getVendeurs answers them ('site+vendeurs', SPEC.md §7). */
export interface SiteSellers {
  restaurantId: number;
  libelle: string;
  vendeurs: Seller[];
}

/** Sites the user may pick: all but those labelled 'NON REMPLI' (SPEC.md §3), sorted by label. */
export function visibleSites(sites: readonly Site[]): Site[] {
  return sites
    .filter((s) => s.libelle.trim().toUpperCase() !== HIDDEN_SITE_LABEL)
    .sort((a, b) => a.libelle.localeCompare(b.libelle));
}

/** Sites of a group: those the group lists by id or that name the group in their `groupe`. */
export function sitesInGroup(sites: readonly Site[], group: Regroupement | undefined | null): Site[] {
  if (!group) return [...sites];
  return sites.filter(
    (s) => group.restaurantIds.includes(s.restaurantId) || s.groupe.includes(group.raisonSociale),
  );
}

/** The sites a picker offers: visible sites, narrowed to the chosen group. */
export function offeredSites(
  sites: readonly Site[],
  groups: readonly Regroupement[],
  groupId: number | null,
): Site[] {
  const group = groupId === null ? null : groups.find((g) => g.id === groupId);
  return sitesInGroup(visibleSites(sites), group);
}

/**
 * The restaurantIds a request is about: the chosen sites still offered, or — when none is chosen —
 * every offered site (SPEC.md §5 "with no sites chosen, all the user's sites are used"). With
 * `single` (LIMITATION_SITE, or /rapports' single-site mode: SPEC.md §5 "only one site may be
 * chosen"), at most one: the first chosen site still offered, else the first offered site.
 */
export function effectiveSiteIds(
  sel: { readonly restaurantIds: readonly number[]; readonly groupId: number | null },
  sites: readonly Site[],
  groups: readonly Regroupement[],
  single = false,
): number[] {
  const offered = offeredSites(sites, groups, sel.groupId).map((s) => s.restaurantId);
  const chosen =
    sel.restaurantIds.length === 0 ? offered : sel.restaurantIds.filter((id) => offered.includes(id));
  if (!single) return chosen;
  const one = chosen.length > 0 && sel.restaurantIds.length > 0 ? chosen[0] : offered[0];
  return one === undefined ? [] : [one];
}

/** The right that limits a profile's choices to one site at a time (SPEC.md §3, §5). */
export const ONE_SITE_RIGHT = 'LIMITATION_SITE';

/** True when `rights` hold {@link ONE_SITE_RIGHT}: site pickers then choose one site. */
export function limitedToOneSite(rights: readonly string[]): boolean {
  return rights.includes(ONE_SITE_RIGHT);
}

/**
 * True when choosing a group changes something (issue #32 D.13): some group holds at least one
 * of the visible sites but not all of them. A user of one site, or whose groups all hold the
 * same sites as "all", gets no group picker.
 */
export function groupsOfferChoice(sites: readonly Site[], groups: readonly Regroupement[]): boolean {
  const visible = visibleSites(sites);
  if (visible.length < 2) return false;
  return groups.some((g) => {
    const n = sitesInGroup(visible, g).length;
    return n > 0 && n < visible.length;
  });
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Sites whose label, site code (code_implant) or id contains `search`, ignoring case and accents. */
export function searchSites(sites: readonly Site[], search: string): Site[] {
  const q = fold(search.trim());
  if (q === '') return [...sites];
  return sites.filter(
    (s) =>
      fold(s.libelle).includes(q) ||
      fold(s.extras.code_implant ?? '').includes(q) ||
      String(s.restaurantId).includes(q),
  );
}

/** Terminals of the given sites, site by site, in the answer's order. */
export function terminalsOfSites(
  all: readonly SiteTerminals[],
  restaurantIds: readonly number[],
): SiteTerminals[] {
  return all.filter((t) => restaurantIds.includes(t.restaurantId));
}

/** Sellers of the given sites, site by site. */
export function sellersOfSites(all: readonly SiteSellers[], restaurantIds: readonly number[]): SiteSellers[] {
  return all.filter((t) => restaurantIds.includes(t.restaurantId));
}

/**
 * Drops chosen terminals and sellers that no longer belong to the effective sites, so changing
 * sites never sends a terminal of a site the report is not about.
 */
export function pruneTerminalsAndSellers(
  sel: { readonly terminals: readonly string[]; readonly sellers: readonly string[] },
  siteIds: readonly number[],
): { terminals: string[]; sellers: string[] } {
  const keep = (key: string) => siteIds.includes(Number(key.split(':')[0]));
  return { terminals: sel.terminals.filter(keep), sellers: sel.sellers.filter(keep) };
}

/** Keys of every terminal of the given sites ({@link terminalKey}). */
export function allTerminalKeys(list: readonly SiteTerminals[]): string[] {
  return list.flatMap((s) => s.caisses.map((c) => terminalKey(s.restaurantId, c.id)));
}
/** Keys of every seller of the given sites ({@link sellerKey}). */
export function allSellerKeys(list: readonly SiteSellers[]): string[] {
  return list.flatMap((s) => s.vendeurs.map((v) => sellerKey(s.restaurantId, v.code)));
}

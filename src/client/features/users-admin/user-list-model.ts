/**
 * The list of /config/users as data: the search (login or e-mail, without case or accents), the
 * filters (profile, site, active) and the names of sites and companies the screen shows in
 * place of ids. Sites labelled 'NON REMPLI' (SPEC.md §3) are left out of names and pickers.
 */
import type { Societe, Utilisateur } from '../../../contract/administration.ts';

/** The list's filters; null means "any". */
export interface UserFilter {
  search: string;
  profileId: number | null;
  restaurantId: number | null;
  active: boolean | null;
}

export const NO_FILTER: UserFilter = { search: '', profileId: null, restaurantId: null, active: null };

/** Lower case without accents, so « Élodie » is found by « elo ». */
export function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase();
}

/** The users that match `filter`, sorted by login. */
export function filterUsers(users: readonly Utilisateur[], filter: UserFilter): Utilisateur[] {
  const search = folded(filter.search.trim());
  return users
    .filter(
      (u) =>
        (search === '' || folded(u.login).includes(search) || folded(u.email ?? '').includes(search)) &&
        (filter.profileId === null || u.profile === filter.profileId) &&
        (filter.restaurantId === null || u.sites.includes(filter.restaurantId)) &&
        (filter.active === null || u.active === filter.active),
    )
    .sort((a, b) => a.login.localeCompare(b.login));
}

/** A visible site and its company, for pickers and names. */
export interface SiteName {
  restaurantId: number;
  libelle: string;
  societeId: number;
}

/** The sites of `companies` that are not hidden ('NON REMPLI'), sorted by name. */
export function visibleSites(companies: readonly Societe[]): SiteName[] {
  return companies
    .flatMap((c) => c.sites)
    .filter((s) => !s.hidden)
    .map((s) => ({ restaurantId: s.restaurantId, libelle: s.libelle, societeId: s.societeId }))
    .sort((a, b) => a.libelle.localeCompare(b.libelle));
}

/** The names of the sites `ids`, in name order; ids of hidden or unknown sites are left out. */
export function siteNames(ids: readonly number[], sites: readonly SiteName[]): string[] {
  const wanted = new Set(ids);
  return sites.filter((s) => wanted.has(s.restaurantId)).map((s) => s.libelle);
}

/** The names of the companies `ids`, in the order given; unknown ids shown as `#id`. */
export function companyNames(ids: readonly number[], companies: readonly Societe[]): string[] {
  return ids.map((id) => companies.find((c) => c.id === id)?.raisonSociale ?? `#${id}`);
}

/** How many of `ids` are visible sites (the list's count of effective sites). */
export function visibleCount(ids: readonly number[], sites: readonly SiteName[]): number {
  return siteNames(ids, sites).length;
}

/**
 * What an administrator may administer and grant (issue #32 C.2). Holding CONFIGURATION used to
 * make the whole chain administrable: a CONFIGURATION holder limited to one site gave their own
 * profile every right and all sites, created a user with the Administrateur profile, demoted it
 * and removed user 1. The rule now:
 *
 * - **Nobody grants what they do not hold**: a right (added to a profile), a site (a profile's
 *   sites, `allSites`, the sites of a company added to a profile or a user), or a profile (given
 *   to a user: its rights and sites must be the administrator's own).
 * - **A profile's site scope limits what its holder administers**: users, profiles, companies,
 *   sites and messages whose sites are all within the administrator's scope. A profile with
 *   `allSites` (the Administrateur profile among them) is changed or removed only by an
 *   all-sites administrator: one whose scope holds every site of the chain.
 *
 * Every refusal is 403 `Forbidden` with `details` naming what was not held (`rights`, `sites`).
 */
import type { Queryable } from '../db/queryable.ts';
import { siteScope } from '../auth/scope.ts';
import { type AdminActor, forbidden } from './user-guards.ts';

/** The administrator's own reach: their sites and whether those are every site of the chain. */
export interface AdminReach {
  droits: readonly string[];
  siteIds: ReadonlySet<number>;
  /** True when no site of the chain is outside `siteIds`. */
  allSites: boolean;
}

/** The reach of `actor` (their rights, their site scope, read now in `db`'s transaction). */
export async function adminReach(
  db: Queryable,
  actor: Pick<AdminActor, 'userId' | 'droits'>,
): Promise<AdminReach> {
  const siteIds = new Set(await siteScope(db, actor.userId));
  const { rows } = await db.query<{ outside: number }>(
    'SELECT count(*)::int AS outside FROM sites WHERE NOT (id = ANY($1))',
    [[...siteIds]],
  );
  return { droits: actor.droits, siteIds, allSites: (rows[0]?.outside ?? 0) === 0 };
}

/** A site scope as a profile or a user's companies describe it. */
export interface ScopeShape {
  allSites: boolean;
  restaurantIds: readonly number[];
  societesPlus: readonly number[];
  societesMoins: readonly number[];
}

/** The sites `shape` covers (SPEC.md §6: sites, plus companies' sites, minus companies' sites). */
async function sitesOf(db: Queryable, shape: ScopeShape): Promise<number[]> {
  const { rows } = await db.query<{ ids: number[] }>(
    `SELECT coalesce(array_agg(s.id ORDER BY s.id), '{}') AS ids FROM sites s
      WHERE ($1 OR s.id = ANY($2) OR s.company_id = ANY($3)) AND NOT (s.company_id = ANY($4))`,
    [shape.allSites, [...shape.restaurantIds], [...shape.societesPlus], [...shape.societesMoins]],
  );
  return rows[0]?.ids ?? [];
}

/**
 * Checks that `reach` holds every site of `shape` (and every site of the chain when `shape` has
 * `allSites`, so that sites created later stay out of a limited administrator's gift).
 * @throws DomainError forbidden `Forbidden` with `details.sites` (the sites not held).
 */
export async function requireSitesHeld(db: Queryable, reach: AdminReach, shape: ScopeShape, what: string) {
  if (shape.allSites && !reach.allSites) {
    throw forbidden(`${what}: every site needs an administrator of every site`, { sites: 'all' });
  }
  const outside = (await sitesOf(db, shape)).filter((id) => !reach.siteIds.has(id));
  if (outside.length > 0) throw forbidden(`${what}: sites outside your scope`, { sites: outside });
}

/**
 * Checks that `reach` holds every right of `droits` not already in `kept` (the rights a profile
 * had before the change: keeping them is no gift).
 * @throws DomainError forbidden `Forbidden` with `details.rights` (the rights not held).
 */
export function requireRightsHeld(
  reach: AdminReach,
  droits: readonly string[],
  kept: readonly string[] = [],
) {
  const missing = [...new Set(droits)].filter((d) => !reach.droits.includes(d) && !kept.includes(d));
  if (missing.length > 0) throw forbidden('rights you do not hold', { rights: missing });
}

/** The profile `id` as a scope and its rights, or null when there is none. */
async function profileShape(db: Queryable, id: number): Promise<(ScopeShape & { droits: string[] }) | null> {
  const { rows } = await db.query<{
    droits: string[];
    all_sites: boolean;
    restaurant_ids: number[];
    societes_plus: number[];
    societes_moins: number[];
  }>('SELECT droits, all_sites, restaurant_ids, societes_plus, societes_moins FROM profiles WHERE id = $1', [
    id,
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    droits: row.droits,
    allSites: row.all_sites,
    restaurantIds: row.restaurant_ids,
    societesPlus: row.societes_plus,
    societesMoins: row.societes_moins,
  };
}

/**
 * Checks that `reach` may change or remove profile `id`: its sites within the scope (an
 * `allSites` profile, the Administrateur's among them, only for an all-sites administrator).
 * An unknown profile passes (the caller answers its own 404).
 * @throws DomainError forbidden `Forbidden` (details.sites).
 */
export async function requireProfileAdministered(db: Queryable, reach: AdminReach, id: number) {
  const shape = await profileShape(db, id);
  if (shape) await requireSitesHeld(db, reach, shape, `profile ${id}`);
}

/**
 * Checks that `reach` may give profile `id` to a user: its rights and its sites are the
 * administrator's own. An unknown profile passes (the caller answers its own 400).
 * @throws DomainError forbidden `Forbidden` (details.rights or details.sites).
 */
export async function requireProfileHeld(db: Queryable, reach: AdminReach, id: number) {
  const shape = await profileShape(db, id);
  if (!shape) return;
  requireRightsHeld(reach, shape.droits);
  await requireSitesHeld(db, reach, shape, `profile ${id}`);
}

/**
 * Checks that `reach` may change or remove user `userId`: every site the user sees is within the
 * scope (a user who sees every site, user 1 among them, only for an all-sites administrator).
 * @throws DomainError forbidden `Forbidden` with `details.sites`.
 */
export async function requireUserAdministered(db: Queryable, reach: AdminReach, userId: number) {
  const sites = await siteScope(db, userId);
  const outside = sites.filter((id) => !reach.siteIds.has(id));
  const { rows } = await db.query<{ all_sites: boolean }>(
    'SELECT p.all_sites FROM users u JOIN profiles p ON p.id = u.profile_id WHERE u.id = $1',
    [userId],
  );
  if (rows[0]?.all_sites && !reach.allSites) {
    throw forbidden(`user ${userId} sees every site`, { sites: 'all' });
  }
  if (outside.length > 0) throw forbidden(`user ${userId} sees sites outside your scope`, { sites: outside });
}

/**
 * Checks that `reach` holds every site of the companies `companyIds` (added to a user's or a
 * group's `societesPlus`).
 * @throws DomainError forbidden `Forbidden` with `details.sites`.
 */
export async function requireCompaniesHeld(db: Queryable, reach: AdminReach, companyIds: readonly number[]) {
  if (companyIds.length === 0) return;
  await requireSitesHeld(
    db,
    reach,
    { allSites: false, restaurantIds: [], societesPlus: companyIds, societesMoins: [] },
    'companies',
  );
}

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

/** The sites an administrator reaches and whether those are every site of the chain. */
export interface SiteReach {
  siteIds: ReadonlySet<number>;
  /** True when no site of the chain is outside `siteIds`. */
  allSites: boolean;
}

/** The administrator's own reach: their rights and their sites. */
export interface AdminReach extends SiteReach {
  droits: readonly string[];
}

/**
 * The site reach of user `userId` (their site scope, SPEC.md §6, read now in `db`'s
 * transaction). A change made by no signed-in user (`null`: none of the administration's calls)
 * reaches no site.
 */
export async function siteReach(db: Queryable, userId: number | null): Promise<SiteReach> {
  const siteIds = new Set(userId === null ? [] : await siteScope(db, userId));
  const { rows } = await db.query<{ outside: number }>(
    'SELECT count(*)::int AS outside FROM sites WHERE NOT (id = ANY($1))',
    [[...siteIds]],
  );
  return { siteIds, allSites: (rows[0]?.outside ?? 0) === 0 };
}

/** The reach of `actor` (their rights, their site scope, read now in `db`'s transaction). */
export async function adminReach(
  db: Queryable,
  actor: Pick<AdminActor, 'userId' | 'droits'>,
): Promise<AdminReach> {
  return { droits: actor.droits, ...(await siteReach(db, actor.userId)) };
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
export async function requireSitesHeld(db: Queryable, reach: SiteReach, shape: ScopeShape, what: string) {
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
export async function requireProfileAdministered(db: Queryable, reach: SiteReach, id: number) {
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
export async function requireCompaniesHeld(db: Queryable, reach: SiteReach, companyIds: readonly number[]) {
  if (companyIds.length === 0) return;
  await requireSitesHeld(
    db,
    reach,
    { allSites: false, restaurantIds: [], societesPlus: companyIds, societesMoins: [] },
    'companies',
  );
}

/**
 * Checks that `reach` is an all-sites administrator: creating or removing a company is a change
 * of the chain's structure, which no site scope covers.
 * @throws DomainError forbidden `Forbidden` with `details.sites: 'all'`.
 */
export function requireAllSitesAdministrator(reach: SiteReach, what: string): void {
  if (!reach.allSites) throw forbidden(`${what}: needs an administrator of every site`, { sites: 'all' });
}

/**
 * Checks that `reach` may change site `siteId`: it is within the scope. An unknown site passes
 * (the caller answers its own 404 or 400).
 * @throws DomainError forbidden `Forbidden` with `details.sites: [siteId]`.
 */
export async function requireSiteAdministered(db: Queryable, reach: SiteReach, siteId: number) {
  const { rows } = await db.query('SELECT 1 FROM sites WHERE id = $1', [siteId]);
  if (rows.length > 0 && !reach.siteIds.has(siteId)) {
    throw forbidden(`site ${siteId} is outside your scope`, { sites: [siteId] });
  }
}

/**
 * Checks that `reach` may change company `companyId`: every one of its sites is within the
 * scope; a company without sites only for an all-sites administrator (no scope names it). An
 * unknown company passes (the caller answers its own 404 or 400).
 * @throws DomainError forbidden `Forbidden` with `details.sites` (the sites not held, or 'all').
 */
export async function requireCompanyAdministered(db: Queryable, reach: SiteReach, companyId: number) {
  const { rows } = await db.query<{ ids: number[] | null }>(
    `SELECT (SELECT array_agg(s.id ORDER BY s.id) FROM sites s WHERE s.company_id = c.id) AS ids
       FROM companies c WHERE c.id = $1`,
    [companyId],
  );
  const row = rows[0];
  if (!row) return;
  if (!row.ids) {
    requireAllSitesAdministrator(reach, `company ${companyId} has no site`);
    return;
  }
  const outside = row.ids.filter((id) => !reach.siteIds.has(id));
  if (outside.length > 0)
    throw forbidden(`company ${companyId} runs sites outside your scope`, { sites: outside });
}

/**
 * Checks, after a site was created or moved to another company in `db`'s transaction, that
 * user `userId` still reaches it: nobody creates or moves a site out of what they administer
 * (the transaction is then rolled back by the caller's error).
 * @throws DomainError forbidden `Forbidden` with `details.sites: [siteId]`.
 */
export async function requireSiteStillReached(db: Queryable, userId: number | null, siteId: number) {
  const reach = await siteReach(db, userId);
  if (!reach.siteIds.has(siteId)) {
    throw forbidden(`site ${siteId} would be outside your scope`, { sites: [siteId] });
  }
}

/** A group of sites as the administration saves it (administration/groups.ts GroupToSave). */
export interface GroupShape {
  restaurantIds: readonly number[];
  societesIdPlus: readonly number[];
  societesIdMoins: readonly number[];
}

/**
 * Checks that `reach` holds every site group `shape` gathers (its sites, plus its companies'
 * sites, minus the removed companies' sites).
 * @throws DomainError forbidden `Forbidden` with `details.sites`.
 */
export async function requireGroupSitesHeld(db: Queryable, reach: SiteReach, shape: GroupShape) {
  await requireSitesHeld(
    db,
    reach,
    {
      allSites: false,
      restaurantIds: shape.restaurantIds,
      societesPlus: shape.societesIdPlus,
      societesMoins: shape.societesIdMoins,
    },
    'group',
  );
}

/**
 * Checks that `reach` may change or remove group `groupId`: every site it gathers now is within
 * the scope. An unknown group passes (the caller answers its own 404).
 * @throws DomainError forbidden `Forbidden` with `details.sites`.
 */
export async function requireGroupAdministered(db: Queryable, reach: SiteReach, groupId: number) {
  const { rows } = await db.query<{
    restaurant_ids: number[];
    societes_plus: number[];
    societes_moins: number[];
  }>(
    `SELECT array(SELECT gs.site_id FROM group_sites gs WHERE gs.group_id = g.id) AS restaurant_ids,
            g.societes_plus, g.societes_moins
       FROM groups g WHERE g.id = $1`,
    [groupId],
  );
  const row = rows[0];
  if (!row) return;
  await requireGroupSitesHeld(db, reach, {
    restaurantIds: row.restaurant_ids,
    societesIdPlus: row.societes_plus,
    societesIdMoins: row.societes_moins,
  });
}

/** Whom a message is for (messages/admin-messages.ts): sites and profiles; none = everybody. */
export interface MessageTargets {
  restaurantIds: readonly number[];
  profileIds: readonly number[];
}

/**
 * Checks that `reach` may address a message to `targets`: its sites within the scope, its
 * profiles administered by them ({@link requireProfileAdministered}), and a message for
 * everybody (no site, no profile) only from an all-sites administrator.
 * @throws DomainError forbidden `Forbidden` with `details.sites`.
 */
export async function requireMessageTargetsHeld(db: Queryable, reach: SiteReach, targets: MessageTargets) {
  if (targets.restaurantIds.length === 0 && targets.profileIds.length === 0) {
    requireAllSitesAdministrator(reach, 'a message for everybody');
    return;
  }
  await requireSitesHeld(
    db,
    reach,
    { allSites: false, restaurantIds: targets.restaurantIds, societesPlus: [], societesMoins: [] },
    'message',
  );
  for (const id of targets.profileIds) await requireProfileAdministered(db, reach, id);
}

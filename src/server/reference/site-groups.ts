/**
 * Groups of sites (regroupements, SPEC.md §3): the one definition of a group's effective sites,
 * and the groups as GET bo/infra/getRegroupements?id lists them to a user (SPEC.md §6).
 *
 * A group's effective sites are its own sites (`group_sites`) plus the sites of the companies it
 * adds (`groups.societes_plus`), minus the sites of the companies it removes
 * (`groups.societes_moins`): removal wins, as in a user's scope (auth/scope.ts). Every reader of
 * group membership uses {@link GROUP_SITES_SQL} — bo/getSites' `groupe` (sites.ts), this file's
 * getRegroupements?id, the report's filtre=GROUPE and regroupement=GROUPE (reports/request.ts),
 * the administration's list (administration/groups.ts) — so a group means the same sites
 * everywhere.
 *
 * No server cache holds group membership (the session caches the user's sites, the report-site
 * cache each site's clock, currency and brand: db/changes.ts), so it is read afresh on every call
 * and a change to `groups`, `group_sites` or a site's company shows at once, with no trigger.
 */
import type { Regroupement } from '../../contract/api.ts';
import type { Queryable } from '../db/queryable.ts';

/**
 * SQL of a relation with columns `group_id` and `site_id` (int, one row per pair): every group's
 * effective sites (this module's header). Use it in a FROM clause with an alias, e.g.
 * `FROM ${GROUP_SITES_SQL} gs JOIN groups g ON g.id = gs.group_id`. It reads all of
 * `group_sites` and the sites of the added companies: a few rows per group.
 */
export const GROUP_SITES_SQL = `(SELECT m.group_id, m.site_id
     FROM (SELECT own.group_id, own.site_id FROM group_sites own
           UNION
           SELECT plus.id, ps.id FROM groups plus JOIN sites ps ON ps.company_id = ANY(plus.societes_plus)) m
     JOIN groups mg ON mg.id = m.group_id JOIN sites ms ON ms.id = m.site_id
    WHERE NOT ms.company_id = ANY(mg.societes_moins))`;

/**
 * The groups holding one of the sites `siteIds` (a user's scope), by name, each restricted to
 * those sites: `restaurantIds` are its effective sites (see {@link GROUP_SITES_SQL}) within
 * `siteIds`, ascending, and `raisonsSociales` the companies running them. The company additions
 * and removals are already applied to `restaurantIds`, so `societesPlus` and `societesMoins` are
 * empty here (the administration's answer, administration/groups.ts, has them).
 */
export async function listSiteGroups(db: Queryable, siteIds: readonly number[]): Promise<Regroupement[]> {
  const { rows } = await db.query<{
    id: number;
    raison_sociale: string;
    raisons_sociales: string[];
    restaurant_ids: number[];
  }>(
    `SELECT g.id, g.raison_sociale,
          array_agg(DISTINCT c.raison_sociale ORDER BY c.raison_sociale) AS raisons_sociales,
          array_agg(DISTINCT s.id ORDER BY s.id) AS restaurant_ids
     FROM groups g JOIN ${GROUP_SITES_SQL} gs ON gs.group_id = g.id
          JOIN sites s ON s.id = gs.site_id JOIN companies c ON c.id = s.company_id
    WHERE s.id = ANY($1::int[]) GROUP BY g.id ORDER BY g.raison_sociale`,
    [siteIds],
  );
  return rows.map((r) => ({
    id: r.id,
    raisonSociale: r.raison_sociale,
    raisonsSociales: r.raisons_sociales,
    restaurantIds: r.restaurant_ids,
    societesPlus: [],
    societesMoins: [],
  }));
}

/**
 * Groups of sites (regroupements, SPEC.md §3) as GET bo/infra/getRegroupements lists them:
 * those holding at least one site of the user's scope, each restricted to those sites (SPEC.md §6).
 */
import type { Regroupement } from '../../contract/api.ts';
import type { Queryable } from '../db/queryable.ts';

/**
 * The groups holding one of the sites `siteIds`, by name, with the raisons sociales of the
 * companies running their sites of `siteIds`. Groups are plain lists of sites here: they hold
 * no company additions or removals (`societesPlus` and `societesMoins` are empty).
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
     FROM groups g JOIN group_sites gs ON gs.group_id = g.id
          JOIN sites s ON s.id = gs.site_id JOIN companies c ON c.id = s.company_id
    WHERE s.id = ANY($1) GROUP BY g.id ORDER BY g.raison_sociale`,
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

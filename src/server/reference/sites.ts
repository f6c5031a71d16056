/**
 * The sites of a user's scope as GET bo/getSites lists them (SPEC.md §3, §4's loading order),
 * with the names of the groups holding each. Terminals and sellers come from terminals.ts and
 * sellers.ts (their own calls), so a site is listed here with empty `caisses` and `vendeurs`.
 */
import type { Site } from '../../contract/api.ts';
import type { Queryable } from '../db/queryable.ts';
import { GROUP_SITES_SQL } from './site-groups.ts';

/** SPEC.md §3: a site in no group, or any site when the client type is TOTAL, is in group 'TOUS'. */
export const ALL_GROUP = 'TOUS';

/** The distribution (client type, SPEC.md §4) for which every site is in {@link ALL_GROUP}. */
const TOTAL_DISTRIBUTION = 'TOTAL';

interface SiteRow {
  id: number;
  libelle: string;
  company_id: number;
  currency: string;
  time_zone: string;
  code_implant: string | null;
  extras: Record<string, unknown>;
  groupes: string[];
}

/**
 * The sites `siteIds` (a user's scope), ascending restaurantId. `groupe` names the groups
 * holding the site among their effective sites (site-groups.ts: own sites, plus the sites of
 * added companies, minus those of removed ones), alphabetically, or `['TOUS']` when none does or when `distribution` is
 * `TOTAL`; `extras` is the site's free data plus its `code_implant` (null when unknown).
 */
export async function listSites(
  db: Queryable,
  siteIds: readonly number[],
  distribution: string,
): Promise<Site[]> {
  const total = distribution === TOTAL_DISTRIBUTION;
  const { rows } = await db.query<SiteRow>(
    `SELECT s.id, s.libelle, s.company_id, s.currency, s.time_zone, s.code_implant, s.extras,
          coalesce(array_agg(g.raison_sociale ORDER BY g.raison_sociale) FILTER (WHERE g.id IS NOT NULL), '{}') AS groupes
     FROM sites s LEFT JOIN ${GROUP_SITES_SQL} gs ON gs.site_id = s.id LEFT JOIN groups g ON g.id = gs.group_id
    WHERE s.id = ANY($1) GROUP BY s.id ORDER BY s.id`,
    [siteIds],
  );
  return rows.map(
    (r): Site => ({
      restaurantId: r.id,
      libelle: r.libelle,
      societeId: r.company_id,
      currency: r.currency,
      timeZone: r.time_zone,
      caisses: [],
      vendeurs: [],
      groupe: total || r.groupes.length === 0 ? [ALL_GROUP] : r.groupes,
      extras: { ...r.extras, code_implant: r.code_implant },
    }),
  );
}

/**
 * The site scope of a user (SPEC.md §6): the sites of their profile (every site when the
 * profile has `allSites`), plus the sites of the companies in the profile's and the user's
 * `societesPlus`, minus the sites of the companies in their `societesMoins`. Computed in one
 * query so every route and report (src/server/reports) sees the same scope.
 */
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

/**
 * Ids of the sites user `userId` may see, ascending; empty for an unknown user.
 * Removal wins: a site of a company in `societesMoins` is out even when listed by the profile.
 */
export async function siteScope(pool: Queryable, userId: number): Promise<number[]> {
  const { rows } = await pool.query<{ ids: number[] }>(`SELECT ${siteScopeSql('$1')} AS ids`, [userId]);
  return rows[0]?.ids ?? [];
}

/**
 * The scope of {@link siteScope} as an SQL expression giving an int[] (ascending, never null),
 * for the user whose id is the SQL expression `userIdSql` (a parameter like `$1` or a column), so
 * a caller can fetch it in the same query as other things (the session check does).
 */
export function siteScopeSql(userIdSql: string): string {
  return `(WITH scope_user AS (
       SELECT p.all_sites, p.restaurant_ids,
              p.societes_plus || su.societes_plus AS plus,
              p.societes_moins || su.societes_moins AS moins
         FROM users su JOIN profiles p ON p.id = su.profile_id
        WHERE su.id = ${userIdSql})
     SELECT coalesce(array_agg(s.id ORDER BY s.id), '{}') FROM sites s, scope_user x
      WHERE (x.all_sites OR s.id = ANY(x.restaurant_ids) OR s.company_id = ANY(x.plus))
        AND NOT s.company_id = ANY(x.moins))`;
}

/**
 * The sites of `requested` that are in `scope`, ascending; all of `scope` when `requested` is
 * empty or absent (SPEC.md §5: "with no sites chosen, all the user's sites are used").
 *
 * A request naming some sites in scope and some outside keeps the former and drops the others
 * (a selection kept from an earlier scope still shows what it can). A request naming sites of
 * which NONE is in scope is refused (issue #18's rights matrix: a user asking only for a site
 * outside their scope gets 403), the same way whether those sites exist or not, so the answer
 * tells nothing about which ids exist. Favourites keep their own rule (favourites/
 * user-favourites.ts: out-of-scope sites dropped, 400 `NoSitesSelected` when none is left).
 * @throws DomainError forbidden `Forbidden` when `requested` names sites and none is in `scope`.
 */
export function restrictToScope(
  requested: readonly number[] | undefined,
  scope: readonly number[],
): number[] {
  if (!requested || requested.length === 0) return [...scope];
  const wanted = new Set(requested);
  const kept = scope.filter((id) => wanted.has(id));
  if (kept.length === 0) {
    throw new DomainError('forbidden', 'Forbidden', 'none of the requested sites is in your scope');
  }
  return kept;
}

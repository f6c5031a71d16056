/**
 * The site scope of a user (SPEC.md §6): the sites of their profile (every site when the
 * profile has `allSites`), plus the sites of the companies in the profile's and the user's
 * `societesPlus`, minus the sites of the companies in their `societesMoins`. Computed in one
 * query so every route and report (src/server/reports) sees the same scope.
 */
import type pg from 'pg';

/**
 * Ids of the sites user `userId` may see, ascending; empty for an unknown user.
 * Removal wins: a site of a company in `societesMoins` is out even when listed by the profile.
 */
export async function siteScope(pool: pg.Pool | pg.PoolClient, userId: number): Promise<number[]> {
  const { rows } = await pool.query<{ id: number }>(
    `WITH u AS (
       SELECT p.all_sites, p.restaurant_ids,
              p.societes_plus || u.societes_plus AS plus,
              p.societes_moins || u.societes_moins AS moins
         FROM users u JOIN profiles p ON p.id = u.profile_id
        WHERE u.id = $1)
     SELECT s.id FROM sites s, u
      WHERE (u.all_sites OR s.id = ANY(u.restaurant_ids) OR s.company_id = ANY(u.plus))
        AND NOT s.company_id = ANY(u.moins)
      ORDER BY s.id`,
    [userId],
  );
  return rows.map((r) => r.id);
}

/**
 * The sites of `requested` that are in `scope`, ascending; all of `scope` when `requested` is
 * empty or absent (SPEC.md §5: "with no sites chosen, all the user's sites are used").
 * Sites outside the scope are dropped, never an error: a user cannot learn which ids exist.
 */
export function restrictToScope(
  requested: readonly number[] | undefined,
  scope: readonly number[],
): number[] {
  if (!requested || requested.length === 0) return [...scope];
  const wanted = new Set(requested);
  return scope.filter((id) => wanted.has(id));
}

/**
 * What a report says over a purged period (issue #30): for the report's sites and fiscal dates,
 * each purge whose period overlaps them, with where its detail was archived and the grand totals
 * kept in `fiscal_day_totals` (integer cents) over the overlapping days.
 */
import type { ArchivedPeriod } from '../../contract/purge.ts';
import type { Queryable } from '../db/queryable.ts';

/**
 * The purged periods of `siteIds` overlapping `dateDebut..dateFin` (wire dates, included), by
 * site then period; empty when none (the common case costs one indexed probe).
 */
export async function archivedPeriods(
  db: Queryable,
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
): Promise<ArchivedPeriod[]> {
  const { rows } = await db.query<ArchivedPeriod>(
    `SELECT p.site_id AS "restaurantId",
            to_char(greatest(p.from_date, $2::date), 'YYYY-MM-DD') AS debut,
            to_char(least(p.to_date, $3::date), 'YYYY-MM-DD') AS fin,
            p.archive_path AS archive,
            coalesce(sum(k.tickets), 0)::int AS tickets,
            coalesce(sum(k.net_cents), 0)::float8 AS "netCents",
            coalesce(sum(k.net_excl_cents), 0)::float8 AS "netExclCents",
            coalesce(sum(k.tax_cents), 0)::float8 AS "taxCents"
       FROM data_purges p
       LEFT JOIN fiscal_day_totals k
         ON k.purge_id = p.id AND k.site_id = p.site_id AND k.fiscal_date BETWEEN $2::date AND $3::date
      WHERE p.site_id = ANY($1::int[]) AND p.from_date <= $3::date AND p.to_date >= $2::date
      GROUP BY p.site_id, p.id
      ORDER BY p.site_id, p.from_date, p.id`,
    [siteIds, dateDebut, dateFin],
  );
  return rows;
}

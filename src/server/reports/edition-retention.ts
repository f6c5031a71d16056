/**
 * Retention of the report history (issue #17 item 6, decision record 0018): editions older than
 * COMPTOIR_EDITIONS_DAYS (config.ts, default 400 days: a year and its comparison month) are
 * deleted by the job queue's daily `report.editions.clean` (jobs/kinds.ts, once for the whole
 * chain), in batches of {@link RETENTION_BATCH} rows, each its own short statement found through
 * `report_editions_generated_idx`, so no run holds a long transaction or locks the history the
 * exports list reads.
 */
import type pg from 'pg';

/** Rows deleted per statement. */
export const RETENTION_BATCH = 5000;

/**
 * Deletes the editions generated more than `days` days ago, `batch` rows per statement, until
 * none is left.
 * @returns how many were deleted.
 */
export async function deleteOldEditions(
  pool: pg.Pool,
  days: number,
  batch: number = RETENTION_BATCH,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `DELETE FROM report_editions
        WHERE id IN (SELECT id FROM report_editions
                      WHERE generated_at < now() - make_interval(days => $1)
                      ORDER BY generated_at LIMIT $2)`,
      [days, batch],
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < batch) return deleted;
  }
}

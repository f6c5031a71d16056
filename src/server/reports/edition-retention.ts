/**
 * Retention of the report history (issue #17 item 6, decision record 0018): editions older than
 * COMPTOIR_EDITIONS_DAYS (config.ts, default 400 days: a year and its comparison month) are
 * deleted by a daily job, in batches of {@link RETENTION_BATCH} rows, each its own short
 * statement found through `report_editions_generated_idx`, so no run holds a long transaction or
 * locks the history the exports list reads.
 */
import { Cron } from 'croner';
import type pg from 'pg';
import { closeEditions } from './editions.ts';

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

/** What {@link startEditionUpkeep} answers. */
export interface EditionUpkeep {
  /** Stops the job and writes the editions still queued (graceful stop; before the pool ends). */
  stop(): Promise<void>;
}

/** Where the job reports (the server's logger). */
export interface UpkeepLog {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * Starts the daily retention job on `pool` (03:17 server time, a quiet hour for a chain's
 * back-office; never two runs at once) and answers how to stop it.
 */
export function startEditionUpkeep(pool: pg.Pool, days: number, log: UpkeepLog): EditionUpkeep {
  const job = new Cron('17 3 * * *', { protect: true, unref: true }, async function retention() {
    try {
      const deleted = await deleteOldEditions(pool, days);
      if (deleted > 0) log.info({ deleted, days }, 'old report editions deleted');
    } catch (err) {
      log.error({ err }, 'report editions retention failed');
    }
  });
  return {
    async stop() {
      job.stop();
      await closeEditions(pool);
    },
  };
}

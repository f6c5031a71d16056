/**
 * The run history of the job queue (`job_runs`, schema-jobs.ts): written by the queue as a run
 * is queued, started and ended, read by the screens and the modules that give the queue work
 * (e.g. the run history of one subscription: `listRuns(pool, { data: { subscriptionId: 12 } })`).
 */
import type { Queryable } from '../db/queryable.ts';

/** Where a run stands: queued, running, succeeded, failed (no try left) or retrying (a try failed). */
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'retrying';

/** A file a run produced: its `name`, size in `bytes`, and where it was written when kept. */
export interface RunFile {
  name: string;
  bytes: number;
  path?: string;
}

/** One run as the history shows it; instants are `Date`s, `attempts` counts the tries started. */
export interface JobRun {
  id: string;
  kind: string;
  data: unknown;
  singletonKey: string | null;
  plannedAt: Date;
  queuedAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
  status: RunStatus;
  attempts: number;
  error: string | null;
  files: RunFile[];
  mails: number;
}

const RUN_COLUMNS = `id, kind, data, singleton_key AS "singletonKey", planned_at AS "plannedAt",
  queued_at AS "queuedAt", started_at AS "startedAt", ended_at AS "endedAt", status, attempts,
  error, files, mails`;

/**
 * Records a queued run, unless a run of `kind` under `singletonKey` exists already.
 * @returns the new run's id, or null when the key was taken (the item is queued once).
 */
export async function insertRun(
  db: Queryable,
  run: { kind: string; data: unknown; singletonKey: string | null; plannedAt: Date },
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO job_runs (kind, data, singleton_key, planned_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (kind, singleton_key) WHERE singleton_key IS NOT NULL DO NOTHING RETURNING id`,
    [run.kind, JSON.stringify(run.data ?? {}), run.singletonKey, run.plannedAt],
  );
  return rows[0]?.id ?? null;
}

/** Marks try `attempt` (1, 2…) of run `id` as running; answers the run, or null when it is gone. */
export async function startRun(db: Queryable, id: string, attempt: number): Promise<JobRun | null> {
  const { rows } = await db.query<JobRun>(
    `UPDATE job_runs SET status = 'running', started_at = now(), ended_at = NULL,
            attempts = greatest(attempts + 1, $2)
      WHERE id = $1 RETURNING ${RUN_COLUMNS}`,
    [id, attempt],
  );
  return rows[0] ?? null;
}

/** Ends the current try of run `id` with `status` (and the error's message when it failed). */
export async function endRun(
  db: Queryable,
  id: string,
  status: RunStatus,
  error: string | null,
): Promise<void> {
  await db.query('UPDATE job_runs SET status = $2, ended_at = now(), error = $3 WHERE id = $1', [
    id,
    status,
    error,
  ]);
}

/** Adds `file` to the files of run `id`. */
export async function addRunFile(db: Queryable, id: string, file: RunFile): Promise<void> {
  await db.query('UPDATE job_runs SET files = files || $2::jsonb WHERE id = $1', [
    id,
    JSON.stringify([file]),
  ]);
}

/** Adds one to the mails run `id` queued. */
export async function countRunMail(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE job_runs SET mails = mails + 1 WHERE id = $1', [id]);
}

/** Which runs {@link listRuns} answers: of a `kind`, whose data contains `data`, newest first. */
export interface RunFilter {
  kind?: string;
  /** JSON the run's data must contain (PostgreSQL `@>`), e.g. `{ subscriptionId: 12 }`. */
  data?: Record<string, unknown>;
  /** Runs queued before this run (the last one of the previous page); absent: the newest. */
  before?: { queuedAt: Date; id: string };
  /** Page size, 1–500 (default 50). */
  limit?: number;
}

/** The runs matching `filter`, newest queued first, one page of `limit`. */
export async function listRuns(db: Queryable, filter: RunFilter = {}): Promise<JobRun[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  if (filter.kind !== undefined) {
    values.push(filter.kind);
    where.push(`kind = $${values.length}`);
  }
  if (filter.data !== undefined) {
    values.push(JSON.stringify(filter.data));
    where.push(`data @> $${values.length}::jsonb`);
  }
  if (filter.before !== undefined) {
    values.push(filter.before.queuedAt, filter.before.id);
    where.push(`(queued_at, id) < ($${values.length - 1}, $${values.length})`);
  }
  values.push(Math.min(Math.max(filter.limit ?? 50, 1), 500));
  const { rows } = await db.query<JobRun>(
    `SELECT ${RUN_COLUMNS} FROM job_runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY queued_at DESC, id DESC LIMIT $${values.length}`,
    values,
  );
  return rows;
}

/** One run by id, or null. */
export async function getRun(db: Queryable, id: string): Promise<JobRun | null> {
  const { rows } = await db.query<JobRun>(`SELECT ${RUN_COLUMNS} FROM job_runs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

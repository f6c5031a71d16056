/**
 * The long database operations (backup, restore, reindex), run one at a time across every server
 * process on the database (operation-lock.ts) in the background and recorded in `job_runs`
 * (run-records.ts) under the kinds
 * `database.backup`, `database.restore`, `database.reindex` (decision 0039: not on the pg-boss
 * queue, whose own tables a restore replaces). The run's `data.step` follows its progress, so
 * the screen follows a run after a reload. A run cut short by a stop or a crash is marked
 * `failed` (`interrupted`) at the next start ({@link failInterruptedRuns}).
 */
import type pg from 'pg';
import { recordAudit, type AuditActor } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { endRun, getRun, insertRun, type JobRun, startRun } from '../jobs/run-records.ts';
import { dropAbandonedRestores } from './restore.ts';
import { tryOperationLock } from './operation-lock.ts';

/** The kinds of the database operations in `job_runs`. */
export const DATABASE_KINDS = [
  'database.backup',
  'database.restore',
  'database.reindex',
  'database.autobackup',
] as const;

/** One database operation kind. */
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

/** The message a run cut short by a stop or a crash ends with. */
export const INTERRUPTED = 'interrupted: the server stopped during the operation';

/**
 * Marks the database runs still queued or running as failed (call at start, before any new run);
 * the automatic backup's runs are the job queue's, which retries them itself. Only call it while
 * holding the operation lock ({@link recoverInterrupted}): another process's run is not interrupted.
 */
export async function failInterruptedRuns(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE job_runs SET status = 'failed', ended_at = now(), error = $2
      WHERE kind = ANY($1) AND status IN ('queued', 'running', 'retrying')`,
    [DATABASE_KINDS.filter((k) => k !== 'database.autobackup'), INTERRUPTED],
  );
  return rowCount ?? 0;
}

/**
 * What a crash or a stop cut short, cleared at start: the runs left queued or running marked failed
 * ({@link failInterruptedRuns}) and the half-restored databases dropped (restore.ts
 * dropAbandonedRestores) — only when no process runs an operation on the database (the
 * operation lock is free): another server's backup or restore under way is left alone.
 * @returns whether it ran (false: an operation is under way elsewhere).
 * @throws the database's error.
 */
export async function recoverInterrupted(
  pool: pg.Pool,
  log: { warn(fields: Record<string, unknown>, message: string): void },
): Promise<boolean> {
  const lock = await tryOperationLock(pool);
  if (!lock) return false;
  try {
    await failInterruptedRuns(pool).catch((e: unknown) =>
      log.warn({ err: e }, 'interrupted runs not marked'),
    );
    await dropAbandonedRestores(pool).catch((e: unknown) =>
      log.warn({ err: e }, 'abandoned restores not dropped'),
    );
    return true;
  } finally {
    await lock.release();
  }
}

/** The latest database runs, newest first (at most `limit`). */
export async function latestRuns(db: Queryable, limit = 20): Promise<JobRun[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM job_runs WHERE kind = ANY($1) ORDER BY queued_at DESC LIMIT $2',
    [DATABASE_KINDS, limit],
  );
  const runs: JobRun[] = [];
  for (const r of rows) {
    const run = await getRun(db, r.id);
    if (run) runs.push(run);
  }
  return runs;
}

/** What an operation's body gets: `step(name)` records its progress. */
export interface OperationContext {
  step(name: string): Promise<void>;
}

/** What an operation's body answers: the data merged into the run's `data` at the end. */
export type OperationOutcome = Record<string, unknown>;

/**
 * The one-at-a-time runner of one process, guarded database-wide by the operation lock
 * (operation-lock.ts): a second operation, in this process or another on the same database, is
 * refused while one runs. {@link start} takes the lock, records the run and answers its id at
 * once; the body runs after, in the background, and the lock is released when it ended.
 */
export class DatabaseOperations {
  private running: Promise<void> | null = null;
  /** True while {@link start} takes the lock and records a run (two requests at once). */
  private claiming = false;
  private readonly pool: pg.Pool;
  private readonly log: { error(fields: Record<string, unknown>, message: string): void };

  /** @param log where a failed operation is reported (its message only, never a secret). */
  constructor(pool: pg.Pool, log: { error(fields: Record<string, unknown>, message: string): void }) {
    this.pool = pool;
    this.log = log;
  }

  /** True while an operation runs in this process (another process's is not seen here). */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves when the operation under way (if any) ended. */
  async idle(): Promise<void> {
    await this.running;
  }

  /**
   * Records a run of `kind` with `data` (audit-logged as `audit` by `actor` in `tx`) and starts
   * `body` in the background.
   * @returns the run's id, or null when an operation already runs, in this process or in
   *   another on the same database (nothing recorded).
   * @throws the database's error (the lock released).
   */
  async start(
    tx: Queryable,
    actor: AuditActor | null,
    kind: DatabaseKind,
    data: Record<string, unknown>,
    body: (ctx: OperationContext) => Promise<OperationOutcome>,
  ): Promise<string | null> {
    if (this.running || this.claiming) return null;
    this.claiming = true;
    try {
      const lock = await tryOperationLock(this.pool);
      if (!lock) return null;
      try {
        const id = await insertRun(this.pool, { kind, data, singletonKey: null, plannedAt: new Date() });
        if (!id) {
          await lock.release();
          return null;
        }
        if (actor) await recordAudit(tx, actor, { action: kind, targetId: id, after: data });
        this.running = this.execute(id, kind, data, actor, body).finally(async () => {
          await lock.release();
          this.running = null;
        });
        return id;
      } catch (e) {
        await lock.release();
        throw e;
      }
    } finally {
      this.claiming = false;
    }
  }

  private async execute(
    id: string,
    kind: DatabaseKind,
    data: Record<string, unknown>,
    actor: AuditActor | null,
    body: (ctx: OperationContext) => Promise<OperationOutcome>,
  ): Promise<void> {
    // Leave the request's transaction time to commit before the body starts.
    await new Promise((r) => setImmediate(r));
    const started = await startRun(this.pool, id, 1).catch(() => null);
    if (!started) return;
    const ctx: OperationContext = {
      step: async (name) => {
        await this.pool.query(
          `UPDATE job_runs SET data = data || jsonb_build_object('step', $2::text) WHERE id = $1`,
          [id, name],
        );
      },
    };
    try {
      const outcome = await body(ctx);
      await this.finish(id, kind, data, actor, started.startedAt, 'succeeded', null, outcome);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      this.log.error({ kind, run: id, err: message }, 'database operation failed');
      const details = (e as { reason?: unknown; details?: unknown }).reason
        ? { reason: (e as { reason: unknown }).reason, details: (e as { details?: unknown }).details ?? {} }
        : {};
      await this.finish(id, kind, data, actor, started.startedAt, 'failed', message, details).catch(() => {});
    }
  }

  /**
   * Ends run `id`. After a restore the pool reads the restored database, where the run does not
   * exist yet: it is written there whole.
   */
  private async finish(
    id: string,
    kind: DatabaseKind,
    data: Record<string, unknown>,
    actor: AuditActor | null,
    startedAt: Date | null,
    status: 'succeeded' | 'failed',
    error: string | null,
    outcome: OperationOutcome,
  ): Promise<void> {
    const full = { ...data, ...outcome, step: 'done' };
    const { rowCount } = await this.pool.query(`UPDATE job_runs SET data = data || $2::jsonb WHERE id = $1`, [
      id,
      JSON.stringify(full),
    ]);
    if (rowCount === 0) {
      await this.pool.query(
        `INSERT INTO job_runs (id, kind, data, planned_at, queued_at, started_at, status, attempts)
         VALUES ($1, $2, $3, $4, $4, $4, 'running', 1)`,
        [id, kind, JSON.stringify(full), startedAt ?? new Date()],
      );
      if (actor) await recordAudit(this.pool, actor, { action: kind, targetId: id, after: full });
    }
    await endRun(this.pool, id, status, error);
  }
}

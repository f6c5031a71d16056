/**
 * The job queue (issue #28, DESIGN.md §3 "mail & jobs"): pg-boss in its own schema (`pgboss`),
 * with our run history in `job_runs` (run-records.ts). What it guarantees:
 *
 * - A run is recorded and handed to pg-boss in one transaction: no run is recorded that pg-boss
 *   does not hold, and the reverse.
 * - A due item is queued once: its `singletonKey` is unique per kind in `job_runs`, whichever
 *   instance or clock tick queues it.
 * - One instance runs a job at a time (pg-boss claims with `SKIP LOCKED`); a throwing job retries
 *   with backoff up to its `retryLimit`, then shows `failed` with its error and attempts. A job
 *   whose instance died is retried when pg-boss finds it expired.
 * - The clock (clock.ts) runs once a minute on one instance (a pg-boss schedule).
 * - With `work: false` (COMPTOIR_JOBS=0) the instance queues but runs nothing.
 */
import { PgBoss } from 'pg-boss';
import type pg from 'pg';
import type { Queryable } from '../db/queryable.ts';
import { MAIL_SEND_KIND, recordMail } from '../mail/mail-job.ts';
import type { MailMessage } from '../mail/transport.ts';
import { CLOCK_KIND, tickClock } from './clock.ts';
import type { DueSource, JobContext, JobDefinition } from './contract.ts';
import { addRunFile, countRunMail, endRun, insertRun, startRun } from './run-records.ts';

/** pg-boss's schema, apart from ours. */
export const JOBS_SCHEMA = 'pgboss';

/** Where the queue reports (the server's logger). */
export interface QueueLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** What {@link JobQueue} needs. */
export interface JobQueueOptions {
  /** The app's pool: run records, and what jobs get as `ctx.pool`. */
  pool: pg.Pool;
  /** Run jobs here (COMPTOIR_JOBS); false: queue only. */
  work: boolean;
  log: QueueLog;
  /** The current time (tests fix it); default `new Date()`. */
  now?: () => Date;
  /** Seconds between two polls of an idle worker (default 2; a local send wakes it at once). */
  pollSeconds?: number;
  /**
   * When working, the kinds this instance runs (default every registered kind); the others it
   * only queues. E.g. an instance kept for report runs, or a test's worker of one kind.
   */
  workKinds?: readonly string[];
}

/** Options of {@link JobQueue.enqueue}. */
export interface EnqueueOptions {
  /** Queue the item once per kind under this key (a due item's key). */
  singletonKey?: string;
  /** When the run was due (default now). */
  plannedAt?: Date;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of job kinds holds every kind's own data type.
type AnyJob = JobDefinition<any>;

/** Retry delay (seconds) before backoff doubles it, for kinds that do not set theirs. */
const RETRY_DELAY_SECONDS = 30;

/** The app's job queue; see the module comment. Register kinds and sources, then {@link start}. */
export class JobQueue {
  readonly #options: JobQueueOptions;
  readonly #jobs = new Map<string, AnyJob>();
  readonly #sources: DueSource[] = [];
  /** The pg-boss worker ids of each kind this instance works (one per concurrent run). */
  readonly #workers = new Map<string, string[]>();
  #boss: PgBoss | null = null;
  /** Kinds queued in callers' transactions since the last {@link wake}. */
  readonly #wakePending = new Set<string>();

  constructor(options: JobQueueOptions) {
    this.#options = options;
  }

  /** Adds a job kind; before {@link start}. @throws Error when the kind is taken. */
  registerJob<Data>(definition: JobDefinition<Data>): void {
    if (this.#jobs.has(definition.kind)) throw new Error(`job kind ${definition.kind} registered twice`);
    this.#jobs.set(definition.kind, definition);
  }

  /** Adds a source of due items asked by the clock every minute; before {@link start}. */
  registerDueSource(source: DueSource): void {
    this.#sources.push(source);
  }

  /** The current time of the queue (options.now). */
  now(): Date {
    return this.#options.now?.() ?? new Date();
  }

  /**
   * Starts pg-boss on the pool's database (installing or upgrading its schema), creates a queue
   * per kind, and, when working, the workers. The clock is {@link startClock}'s.
   */
  async start(): Promise<void> {
    const { pool, work } = this.#options;
    const boss = new PgBoss({
      ...connectionOf(pool),
      schema: JOBS_SCHEMA,
      max: 3,
      application_name: 'comptoir-jobs',
      supervise: work,
      schedule: work,
    });
    boss.on('error', (err) => this.#options.log.error({ err }, 'job queue error'));
    await boss.start();
    this.#boss = boss;
    for (const definition of this.#jobs.values()) await this.#ensureQueue(definition);
    await this.#ensureQueue({ kind: CLOCK_KIND, retryLimit: 0, run: async () => {} });
    if (!work) return;
    const only = this.#options.workKinds;
    for (const definition of this.#jobs.values()) {
      if (!only || only.includes(definition.kind)) await this.#work(definition);
    }
  }

  /**
   * Starts the clock: a pg-boss schedule every minute (run by one instance of the chain), whose
   * job calls {@link tick}. Needs {@link start} with `work`.
   */
  async startClock(): Promise<void> {
    const boss = this.#started();
    const pollingIntervalSeconds = this.#options.pollSeconds ?? 2;
    await boss.work(CLOCK_KIND, { pollingIntervalSeconds }, async () => {
      await this.tick(this.now());
    });
    await boss.schedule(CLOCK_KIND, '* * * * *');
  }

  /** Stops taking work, lets running jobs finish (up to 20 s), and closes pg-boss's connections. */
  async stop(): Promise<void> {
    const boss = this.#boss;
    this.#boss = null;
    await boss?.stop({ graceful: true, timeout: 20_000 });
  }

  /**
   * Queues a run of `kind` with `data` (JSON, no secret: it is stored and shown).
   * @returns the run's id, or null when a run under `options.singletonKey` exists already.
   * @throws Error when the queue is not started or the kind unknown.
   */
  async enqueue(kind: string, data: unknown, options: EnqueueOptions = {}): Promise<string | null> {
    return this.#inTransaction(kind, (db) => this.#enqueueIn(db, kind, data, options));
  }

  /**
   * Queues a run like {@link enqueue}, inside the caller's transaction `db` (a request's): the run
   * is queued if and only if that transaction commits; the local workers are woken at the next
   * {@link wake} (the app calls it after each answer).
   * @returns the run's id, or null when a run under `options.singletonKey` exists already.
   * @throws Error when the queue is not started or the kind unknown.
   */
  async enqueueIn(
    db: Queryable,
    kind: string,
    data: unknown,
    options: EnqueueOptions = {},
  ): Promise<string | null> {
    const runId = await this.#enqueueIn(db, kind, data, options);
    if (runId !== null) this.#wakePending.add(kind);
    return runId;
  }

  /**
   * Queues `message` for the `mail.send` job once per (`key`, recipients): a repeat queues nothing.
   * `runId` is the run that queues it (its mail count grows), if any.
   * @returns whether it was queued now (false: it was already).
   */
  async queueMail(message: MailMessage, key: string, runId?: string): Promise<boolean> {
    return this.#inTransaction(MAIL_SEND_KIND, async (db) => {
      const recipients = await recordMail(db, message, key, runId ?? null);
      if (recipients === null) return false;
      await this.#enqueueIn(
        db,
        MAIL_SEND_KIND,
        { key, recipients },
        { singletonKey: `${key}|${recipients}` },
      );
      if (runId) await countRunMail(db, runId);
      return true;
    });
  }

  /**
   * Queues `message` like {@link queueMail}, inside the caller's transaction `db` (a request's):
   * the mail is queued if and only if that transaction commits. The local workers are woken at
   * the next {@link wake} (the app calls it after each answer).
   * @returns whether it was queued now (false: it was already under this key).
   */
  async queueMailIn(db: Queryable, message: MailMessage, key: string): Promise<boolean> {
    const recipients = await recordMail(db, message, key, null);
    if (recipients === null) return false;
    await this.#enqueueIn(db, MAIL_SEND_KIND, { key, recipients }, { singletonKey: `${key}|${recipients}` });
    this.#wakePending.add(MAIL_SEND_KIND);
    return true;
  }

  /** Wakes this instance's workers when something was queued in a caller's transaction since the last wake. */
  wake(): void {
    for (const kind of this.#wakePending) this.#notify(kind);
    this.#wakePending.clear();
  }

  /**
   * The clock's minute: asks every due source for (last tick, `now`] and queues what they answer
   * (clock.ts). Called by the schedule on one instance; tests call it with a chosen `now`.
   * @returns how many runs were queued.
   */
  async tick(now: Date): Promise<number> {
    return tickClock(this.#options.pool, this.#sources, now, (item) =>
      this.enqueue(item.kind, item.data, { singletonKey: item.singletonKey, plannedAt: item.plannedAt }),
    );
  }

  /**
   * Runs try `attempt` of run `runId` here and now, as a worker does: records it running, then
   * succeeded, or retrying/failed with the error (rethrown). `lastTry` says whether a failure is
   * final. Exposed for the worker and for tests that drive a run without waiting for a poll.
   */
  async runNow(runId: string, attempt: number, lastTry: boolean): Promise<void> {
    const { pool } = this.#options;
    const run = await startRun(pool, runId, attempt);
    if (!run) return; // its record is gone: nothing to do
    const definition = this.#jobs.get(run.kind);
    if (!definition) throw new Error(`unknown job kind ${run.kind}`);
    try {
      await definition.run(run.data, this.#context(runId, run.plannedAt, attempt));
      await endRun(pool, runId, 'succeeded', null);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await endRun(pool, runId, lastTry ? 'failed' : 'retrying', message);
      throw err;
    }
  }

  #context(runId: string, plannedAt: Date, attempt: number): JobContext {
    const { pool } = this.#options;
    return {
      pool,
      runId,
      plannedAt,
      attempt,
      queueMail: async (message, key) => {
        await this.queueMail(message, key, runId);
      },
      recordFile: (file) => addRunFile(pool, runId, file),
      now: () => this.now(),
    };
  }

  async #enqueueIn(
    db: Queryable,
    kind: string,
    data: unknown,
    options: EnqueueOptions,
  ): Promise<string | null> {
    const boss = this.#started();
    const definition = this.#jobs.get(kind);
    if (!definition) throw new Error(`unknown job kind ${kind}`);
    const runId = await insertRun(db, {
      kind,
      data,
      singletonKey: options.singletonKey ?? null,
      plannedAt: options.plannedAt ?? this.now(),
    });
    if (runId === null) return null;
    await boss.send(kind, { runId }, { db: { executeSql: (text, values) => db.query(text, values) } });
    return runId;
  }

  /** Runs `body` in a transaction on a client of the pool; wakes the local workers of `kind` after commit. */
  async #inTransaction<T>(kind: string, body: (db: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#options.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await body(client);
      await client.query('COMMIT');
      this.#notify(kind);
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async #ensureQueue(definition: AnyJob): Promise<void> {
    const boss = this.#started();
    if (await boss.getQueue(definition.kind)) return;
    const delay = definition.retryDelaySeconds ?? RETRY_DELAY_SECONDS;
    try {
      await boss.createQueue(definition.kind, {
        retryLimit: definition.retryLimit ?? 3,
        retryDelay: delay,
        ...(delay > 0 ? { retryBackoff: true, retryDelayMax: 3600 } : {}),
        expireInSeconds: definition.expireSeconds ?? 900,
      });
    } catch (e) {
      // Another instance created it between our look and our creation: that queue is the one.
      if (!(await boss.getQueue(definition.kind))) throw e;
    }
  }

  /**
   * Wakes the local workers of `kind`: their next fetch is now, not after a poll interval. Only
   * that kind's: a woken worker with nothing to do still asks PostgreSQL, and a burst commits
   * thousands of times (decision record 0047).
   */
  #notify(kind: string): void {
    for (const id of this.#workers.get(kind) ?? []) this.#boss?.notifyWorker(id);
  }

  /**
   * Starts `definition.concurrency` workers of its kind (each fetching one job at a time, so a
   * slow run never holds others it fetched with it). Each worker id is its own: pg-boss's
   * `localConcurrency` answers only the first one, and a worker woken by id must be the one idle.
   */
  async #work(definition: AnyJob): Promise<void> {
    const boss = this.#started();
    const pollingIntervalSeconds = this.#options.pollSeconds ?? 2;
    const options = { pollingIntervalSeconds, batchSize: 1, includeMetadata: true } as const;
    const ids: string[] = [];
    this.#workers.set(definition.kind, ids);
    for (let i = 0; i < Math.max(1, definition.concurrency ?? 1); i++) {
      let self: string | undefined;
      self = await boss.work<{ runId: string }, void, typeof options>(
        definition.kind,
        options,
        async ([job]) => {
          if (!job) return;
          try {
            await this.runNow(job.data.runId, job.retryCount + 1, job.retryCount >= job.retryLimit);
          } catch (err) {
            this.#options.log.warn({ err, kind: definition.kind, runId: job.data.runId }, 'job run failed');
            throw err;
          } finally {
            // Fetch the next job at once rather than after a poll interval: a backlog drains.
            if (self) boss.notifyWorker(self);
          }
        },
      );
      ids.push(self);
    }
  }

  #started(): PgBoss {
    if (!this.#boss) throw new Error('the job queue is not started');
    return this.#boss;
  }
}

/** pg-boss's connection settings for the database of `pool` (its own few connections). */
function connectionOf(pool: pg.Pool): Record<string, unknown> {
  const o = pool.options;
  const picked: Record<string, unknown> = {};
  for (const key of ['connectionString', 'host', 'port', 'user', 'password', 'database', 'ssl'] as const) {
    if (o[key] !== undefined) picked[key] = o[key];
  }
  return picked;
}

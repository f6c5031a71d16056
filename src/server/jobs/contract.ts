/**
 * The one way to add work that runs while nobody is signed in (DESIGN.md §3 "mail & jobs",
 * issue #28): a job kind declares what it does with its data; the queue (pg-boss, in
 * `src/server/jobs/`) runs it with retries and backoff, records each run in `job_runs`, and runs
 * it once even with several server instances on one database. A recurring job is found due by a
 * {@link DueSource} asked every minute; each due item is queued under a singleton key derived
 * from its planned time, so two instances asking at the same minute queue it once.
 *
 * This file is the contract between the queue and the modules that give it work (report
 * subscriptions, alerts, FEC, integrations, backups): they import only these types.
 */
import { availableParallelism } from 'node:os';
import type pg from 'pg';
import type { MailMessage } from '../mail/transport.ts';

/** What a running job may use. */
export interface JobContext {
  /** The app's pool; each statement commits on its own unless the job opens a transaction. */
  pool: pg.Pool;
  /** The run's row in `job_runs` (uuid). */
  runId: string;
  /** When the run was planned (the due minute for a recurring job, the queueing time otherwise). */
  plannedAt: Date;
  /** 1 on the first try, then 2, 3… after retries. */
  attempt: number;
  /**
   * Queues one mail (one recipient or one recipient list) for the mail job, at most once per
   * (`key`, recipients): a retried run queues nothing twice and no mail leaves twice.
   * `key` names the purpose, e.g. `subscription:12:2026-12-07T05:00Z`.
   */
  queueMail(message: MailMessage, key: string): Promise<void>;
  /** Records a file the run produced (shown in the run history). `bytes` is its size in bytes. */
  recordFile(file: { name: string; bytes: number; path?: string }): Promise<void>;
  /** The current time (a test may fix it). */
  now(): Date;
}

/**
 * The {@link JobDefinition.concurrency} of kinds that come in bursts (report runs and their
 * mails, decision record 0047): one run per core, at least 2 (a run waits on PostgreSQL about
 * half its time) and at most 4 (each run in flight holds a connection of the app's pool of 10,
 * which the HTTP requests share).
 */
export const BURST_CONCURRENCY = Math.min(4, Math.max(2, availableParallelism()));

/** A kind of job. `Data` is JSON (it is stored by the queue). */
export interface JobDefinition<Data> {
  /** Unique name, `domain.action` (e.g. `subscription.run`). */
  kind: string;
  /** Does the work; throwing makes the run retry with backoff, up to `retryLimit`, then fail. */
  run(data: Data, ctx: JobContext): Promise<void>;
  /** Retries after the first try (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry, doubled at each next one (default 30; 0: retry at once). */
  retryDelaySeconds?: number;
  /** Seconds a try may run before it counts as lost and is retried (default 900). */
  expireSeconds?: number;
  /**
   * Runs of this kind one instance works at once (default 1; decision record 0047). More than one
   * lets a burst of runs that wait on PostgreSQL or the disk use the cores; each run in flight
   * holds its own data (e.g. a rendered report), so this also bounds the memory a burst takes.
   */
  concurrency?: number;
}

/** One due item found by a {@link DueSource}. */
export interface DueItem<Data> {
  kind: string;
  data: Data;
  /** When it was due (the minute, UTC). */
  plannedAt: Date;
  /** Identifies the item among all runs of its kind, e.g. `subscription:12:2026-12-07T05:00Z`. */
  singletonKey: string;
}

/**
 * Asked every minute by the queue's clock: the items due in (`from`, `to`] (UTC instants).
 * Must be pure over the database (no side effect): the clock may ask twice for one minute.
 */
export interface DueSource {
  name: string;
  due(pool: pg.Pool, from: Date, to: Date): Promise<DueItem<unknown>[]>;
}

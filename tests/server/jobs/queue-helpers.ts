/**
 * Helpers of the job queue's tests: a queue on a test database that reports into an array, and
 * waiting (by polling the database, never by sleeping a fixed time) for runs to reach a status.
 */
import type pg from 'pg';
import type { JobDefinition } from '../../../src/server/jobs/contract.ts';
import { JobQueue, type QueueLog } from '../../../src/server/jobs/queue.ts';

/** A log that keeps nothing (the tests read the run records instead). */
export const quietLog: QueueLog = { info() {}, warn() {}, error() {} };

/** A started queue on `pool` with `jobs`, polling every half second. */
export async function startQueue(
  pool: pg.Pool,
  // biome-ignore lint/suspicious/noExplicitAny: test kinds of any data.
  jobs: JobDefinition<any>[],
  options: { work?: boolean; sources?: Parameters<JobQueue['registerDueSource']>[0][] } = {},
): Promise<JobQueue> {
  const queue = new JobQueue({ pool, work: options.work ?? true, log: quietLog, pollSeconds: 0.5 });
  for (const job of jobs) queue.registerJob(job);
  for (const source of options.sources ?? []) queue.registerDueSource(source);
  await queue.start();
  return queue;
}

/** Polls `check` every 100 ms until it answers true; throws after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many runs of `kind` have `status`. */
export async function runsWith(pool: pg.Pool, kind: string, status: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM job_runs WHERE kind = $1 AND status = $2',
    [kind, status],
  );
  return rows[0]!.n;
}

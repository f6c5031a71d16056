/**
 * The purge on the job queue (issue #30: "long runs go on the job queue with a job_runs record so
 * the screen shows progress and a reload follows it", decision 0040). The routes check the call
 * and queue a `database.purge` run in their own transaction; the run does the archive-first purge
 * (purge.ts) in one transaction of its own, then records each archive as a file of the run.
 * No retry: a purge that failed (an archive that did not verify) deleted nothing, and is asked
 * again by a person once the cause is fixed.
 */
import path from 'node:path';
import type { PurgeRun, SitePurge } from '../../contract/purge.ts';
import { beginTransaction, rollback } from '../db/transaction.ts';
import type { Queryable } from '../db/queryable.ts';
import type { JobDefinition } from '../jobs/contract.ts';
import { type JobRun, listRuns } from '../jobs/run-records.ts';
import { ArchiveError } from './archive.ts';
import { lockPurgedTables, manifestOf, purgeSitePeriod, purgeWholeSites } from './purge.ts';

/** The job kind. */
export const PURGE_KIND = 'database.purge';

/** Prefix of a failed run's error when the archive could not be written or verified. */
const ARCHIVE_FAILED = 'PurgeArchiveFailed';

/** What a queued purge carries (JSON): who asked, from where, why, and what. */
export interface PurgeJobData {
  userId: number;
  address: string | null;
  comment: string;
  code: 'EmptyOk' | 'EmptyPartielOk';
  /** A partial empty: its site and period; null for an empty of `siteIds`. */
  siteId: number | null;
  debut: string | null;
  fin: string | null;
  /** An empty: the sites of the caller's scope when asked. */
  siteIds: number[];
}

/** Runs the purge of `data` in one transaction on `pool`. @throws as purge.ts (rolled back). */
async function runPurge(
  ctx: Parameters<JobDefinition<PurgeJobData>['run']>[1],
  data: PurgeJobData,
  dataDir: string,
) {
  const options = { dataDir, archiveDir: path.join(dataDir, 'archives'), now: ctx.now() };
  const actor = { userId: data.userId, address: data.address };
  const tx = await beginTransaction(ctx.pool);
  let purges: SitePurge[];
  try {
    await lockPurgedTables(tx);
    if (data.siteId !== null && data.debut !== null && data.fin !== null) {
      const input = { siteId: data.siteId, fromDate: data.debut, toDate: data.fin, comment: data.comment };
      const purge = await purgeSitePeriod(tx, actor, input, options);
      purges = purge ? [purge] : [];
    } else {
      purges = await purgeWholeSites(tx, actor, data.siteIds, data.comment, options);
    }
    await tx.query('COMMIT');
    tx.release();
  } catch (error) {
    await rollback(tx);
    if (error instanceof ArchiveError)
      throw new Error(`${ARCHIVE_FAILED}: ${error.message}`, { cause: error });
    throw error;
  }
  for (const p of purges)
    await ctx.recordFile({ name: path.basename(p.archive), bytes: p.bytes, path: p.archive });
}

/** The `database.purge` job kind; archives go to `DATA_DIR/archives`. */
export function purgeJob(options: { dataDir: string }): JobDefinition<PurgeJobData> {
  return {
    kind: PURGE_KIND,
    retryLimit: 0,
    // A whole chain's empty archives every line: hours at most, never the default 15 minutes.
    expireSeconds: 6 * 3600,
    run: (data, ctx) => runPurge(ctx, data, options.dataDir),
  };
}

const STATUS: Record<JobRun['status'], PurgeRun['statut']> = {
  queued: 'QUEUED',
  running: 'RUNNING',
  retrying: 'RUNNING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
};

/** The purges of a succeeded run, read back from `data_purges` by their archive paths. */
async function runPurges(db: Queryable, run: JobRun): Promise<SitePurge[]> {
  const archives = run.files.map((f) => f.path).filter((p): p is string => !!p);
  if (archives.length === 0) return [];
  const { rows } = await db.query<Omit<SitePurge, 'manifest' | 'bytes'>>(
    `SELECT id AS "purgeId", site_id AS "restaurantId", to_char(from_date, 'YYYY-MM-DD') AS debut,
            to_char(to_date, 'YYYY-MM-DD') AS fin, archive_path AS archive, archive_sha256 AS sha256,
            row_counts AS rows
       FROM data_purges WHERE archive_path = ANY($1::text[]) ORDER BY site_id, id`,
    [archives],
  );
  return rows.map((r) => ({
    ...r,
    manifest: manifestOf(r.archive),
    bytes: run.files.find((f) => f.path === r.archive)?.bytes ?? 0,
  }));
}

/** One run as GET bo/purgeRuns answers it. */
async function purgeRun(db: Queryable, run: JobRun): Promise<PurgeRun> {
  const data = run.data as PurgeJobData;
  const statut = STATUS[run.status];
  return {
    runId: run.id,
    code: data.code,
    statut,
    restaurantId: data.siteId,
    debut: data.debut,
    fin: data.fin,
    planifie: run.queuedAt.toISOString(),
    termine: statut === 'SUCCEEDED' || statut === 'FAILED' ? (run.endedAt?.toISOString() ?? null) : null,
    erreur:
      statut === 'FAILED' ? (run.error?.startsWith(ARCHIVE_FAILED) ? ARCHIVE_FAILED : 'InternalError') : null,
    purges: statut === 'SUCCEEDED' ? await runPurges(db, run) : [],
  };
}

/** The purge runs `userId` asked for, newest first, at most `limit`. */
export async function purgeRunsOf(db: Queryable, userId: number, limit = 20): Promise<PurgeRun[]> {
  const runs = await listRuns(db, { kind: PURGE_KIND, data: { userId }, limit });
  return Promise.all(runs.map((run) => purgeRun(db, run)));
}

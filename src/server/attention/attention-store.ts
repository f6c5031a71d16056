/**
 * The "Needs attention" list of /home (issues #29 and #30, decision 0045): the scheduled work
 * whose last run ended failed after its retries (`job_runs.status = 'failed'`) and has not
 * succeeded since, read-only over the run history:
 *
 * - the automatic backup (`database.autobackup`): its newest ended run failed;
 * - each partner integration (`integration.<partner>`, test files left out): its newest ended
 *   run failed and the integration still exists;
 * - each FEC recurrence (`fec.recurrence.run`): its newest ended run failed, the recurrence still
 *   exists and every site of its company is in the caller's scope (as its screen asks);
 * - each report subscription (`subscription.run`): its newest ended run failed and it is still
 *   active; and each active subscription suspended because its owner can no longer run it (one
 *   line: suspended, whatever its last run did).
 *
 * "Ended" is succeeded or failed: a run still queued, running or retrying neither adds a line nor
 * removes one. The caller says which kinds its rights open (contract/attention-kinds.ts); a kind
 * not asked for is not read.
 */
import type { AttentionKind } from '../../contract/attention-kinds.ts';
import type { AttentionItem } from '../../contract/attention.ts';
import { type Partner, PARTNERS } from '../../contract/integrations.ts';
import { AUTO_BACKUP_KIND } from '../database/auto-backup.ts';
import type { Queryable } from '../db/queryable.ts';
import { companyWithinScope } from '../fec/company-fec.ts';
import { FEC_RECURRENCE_RUN } from '../fec/recurrence-store.ts';
import { integrationKind } from '../integrations/run.ts';
import { SUBSCRIPTION_RUN_KIND, SUSPENDED_SQL } from '../subscriptions/subscription-store.ts';
import { failureReason } from './failure-reason.ts';

/** Who asks: the kinds their rights open and the sites of their scope. */
export interface AttentionReader {
  kinds: readonly AttentionKind[];
  /** The caller's sites (session.siteIds): a FEC recurrence shows only when its whole company is in. */
  siteIds: readonly number[];
}

/** The newest ended run of one thing, when it failed. */
interface FailedRun {
  key: string;
  endedAt: Date;
  attempts: number;
  error: string | null;
}

/**
 * For each thing of `kinds` (a thing: one value of the run data's `keyField`, or the kind itself
 * when null), its newest ended run, kept when it failed.
 */
async function lastFailedRuns(
  db: Queryable,
  kinds: readonly string[],
  keyField: string | null,
): Promise<(FailedRun & { kind: string })[]> {
  const key = keyField === null ? 'kind' : `data->>'${keyField}'`;
  const { rows } = await db.query<FailedRun & { kind: string; status: string }>(
    `SELECT * FROM (
       SELECT DISTINCT ON (kind, ${key}) kind, ${key} AS key, status, ended_at AS "endedAt", attempts, error
         FROM job_runs
        WHERE kind = ANY($1) AND status IN ('succeeded', 'failed') AND ended_at IS NOT NULL
          AND NOT coalesce(data->>'test', 'false') = 'true'
        ORDER BY kind, ${key}, queued_at DESC, id DESC) last
      WHERE status = 'failed'`,
    [kinds],
  );
  return rows;
}

/** One line from a failed run. */
function line(
  run: FailedRun,
  fields: Pick<AttentionItem, 'type' | 'libelle' | 'partenaire' | 'ecran'>,
): AttentionItem {
  return {
    ...fields,
    quand: run.endedAt.toISOString(),
    ...failureReason(run.error),
    tentatives: run.attempts,
  };
}

async function backupLines(db: Queryable): Promise<AttentionItem[]> {
  const runs = await lastFailedRuns(db, [AUTO_BACKUP_KIND], null);
  return runs.map((run) =>
    line(run, { type: 'backup', libelle: null, partenaire: null, ecran: '/config/bdd' }),
  );
}

async function integrationLines(db: Queryable): Promise<AttentionItem[]> {
  const byKind = new Map<string, Partner>(PARTNERS.map((p) => [integrationKind(p), p]));
  const runs = await lastFailedRuns(db, [...byKind.keys()], 'integrationId');
  const { rows } = await db.query<{ id: string }>(
    'SELECT id::text AS id FROM integrations WHERE id = ANY($1::int[])',
    [runs.map((r) => Number(r.key))],
  );
  const existing = new Set(rows.map((r) => r.id));
  return runs
    .filter((run) => existing.has(run.key))
    .map((run) => {
      const partner = byKind.get(run.kind)!;
      return line(run, {
        type: 'integration',
        libelle: null,
        partenaire: partner,
        ecran: `/config/${partner}`,
      });
    });
}

async function fecLines(db: Queryable, siteIds: readonly number[]): Promise<AttentionItem[]> {
  const runs = await lastFailedRuns(db, [FEC_RECURRENCE_RUN], 'recurrenceId');
  const { rows } = await db.query<{ id: string; libelle: string; companyId: number }>(
    'SELECT id::text AS id, libelle, company_id AS "companyId" FROM fec_recurrences WHERE id = ANY($1::int[])',
    [runs.map((r) => Number(r.key))],
  );
  const lines: AttentionItem[] = [];
  for (const run of runs) {
    const recurrence = rows.find((r) => r.id === run.key);
    if (!recurrence || !(await companyWithinScope(db, recurrence.companyId, siteIds))) continue;
    lines.push(
      line(run, {
        type: 'fecRecurrence',
        libelle: recurrence.libelle,
        partenaire: null,
        ecran: '/fec/recurrencesfec',
      }),
    );
  }
  return lines;
}

async function subscriptionLines(db: Queryable): Promise<AttentionItem[]> {
  const runs = await lastFailedRuns(db, [SUBSCRIPTION_RUN_KIND], 'subscriptionId');
  const { rows } = await db.query<{ id: string; libelle: string }>(
    `SELECT s.id::text AS id, s.libelle
       FROM report_subscriptions s
       LEFT JOIN users u ON u.id = s.owner_id
       LEFT JOIN profiles p ON p.id = u.profile_id
      WHERE s.active AND NOT ${SUSPENDED_SQL} AND s.id = ANY($1::int[])`,
    [runs.map((r) => Number(r.key))],
  );
  const names = new Map(rows.map((r) => [r.id, r.libelle]));
  return runs
    .filter((run) => names.has(run.key))
    .map((run) =>
      line(run, {
        type: 'subscription',
        libelle: names.get(run.key)!,
        partenaire: null,
        ecran: '/config/recurrences',
      }),
    );
}

async function suspendedLines(db: Queryable): Promise<AttentionItem[]> {
  const { rows } = await db.query<{ libelle: string; updatedAt: Date }>(
    `SELECT s.libelle, s.updated_at AS "updatedAt"
       FROM report_subscriptions s
       LEFT JOIN users u ON u.id = s.owner_id
       LEFT JOIN profiles p ON p.id = u.profile_id
      WHERE s.active AND ${SUSPENDED_SQL}`,
  );
  return rows.map((r) => ({
    type: 'subscriptionSuspended',
    libelle: r.libelle,
    partenaire: null,
    quand: r.updatedAt.toISOString(),
    raison: 'OwnerCannotRun',
    statutHttp: null,
    tentatives: 0,
    ecran: '/config/recurrences',
  }));
}

/**
 * What needs `reader`'s attention (see the module comment), newest first.
 * @returns the lines of the kinds `reader.kinds` names, sorted by `quand` descending.
 */
export async function readAttention(db: Queryable, reader: AttentionReader): Promise<AttentionItem[]> {
  const wants = (kind: AttentionKind) => reader.kinds.includes(kind);
  const parts = await Promise.all([
    wants('backup') ? backupLines(db) : [],
    wants('integration') ? integrationLines(db) : [],
    wants('fecRecurrence') ? fecLines(db, reader.siteIds) : [],
    wants('subscription') ? subscriptionLines(db) : [],
    wants('subscriptionSuspended') ? suspendedLines(db) : [],
  ]);
  return parts.flat().sort((a, b) => b.quand.localeCompare(a.quand));
}

/**
 * The FEC recurrences of a company and the files their runs kept (issue #29 "FEC recurrences",
 * docs/decisions/0043, tables fec_recurrences and fec_files of migration 0023): read, saved and
 * removed with their audit entry in the caller's transaction; runs read from `job_runs`.
 */
import type { FecFile, FecRecurrence, FecRecurrenceFields, FecRun } from '../../contract/fec-recurrences.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import type { JobRun } from '../jobs/run-records.ts';
import { listRuns } from '../jobs/run-records.ts';

/** The job kind that runs one recurrence for one planned minute. */
export const FEC_RECURRENCE_RUN = 'fec.recurrence.run';

const COLUMNS = `id, company_id AS societe, libelle, type, week_days AS jours, month_day AS "jourDuMois",
  last_day AS "dernierJour", hour AS heure, minute, period AS periode, recipients AS destinataires,
  language AS langue, active`;

/** A run of `job_runs` as the screens show it. */
export function fecRunOf(run: JobRun): FecRun {
  return {
    runId: run.id,
    planifie: run.plannedAt.toISOString(),
    statut: run.status.toUpperCase() as FecRun['statut'],
    tentatives: run.attempts,
    mails: run.mails,
    erreur: run.error,
  };
}

/** The newest run of recurrence `id`, or null. */
async function lastRun(db: Queryable, id: number): Promise<FecRun | null> {
  const [run] = await listRuns(db, { kind: FEC_RECURRENCE_RUN, data: { recurrenceId: id }, limit: 1 });
  return run ? fecRunOf(run) : null;
}

/** Recurrence `id` as stored, without its run; null when it does not exist. */
export async function findRecurrence(
  db: Queryable,
  id: number,
): Promise<Omit<FecRecurrence, 'dernierEnvoi'> | null> {
  const { rows } = await db.query<Omit<FecRecurrence, 'dernierEnvoi'>>(
    `SELECT ${COLUMNS} FROM fec_recurrences WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** The recurrences of company `companyId`, by id, each with its newest run. */
export async function companyRecurrences(db: Queryable, companyId: number): Promise<FecRecurrence[]> {
  const { rows } = await db.query<Omit<FecRecurrence, 'dernierEnvoi'>>(
    `SELECT ${COLUMNS} FROM fec_recurrences WHERE company_id = $1 ORDER BY id`,
    [companyId],
  );
  return Promise.all(rows.map(async (r) => ({ ...r, dernierEnvoi: await lastRun(db, r.id) })));
}

/**
 * Recurrence `id` of company `companyId`.
 * @throws DomainError notFound `NotFound` when it does not exist or is another company's.
 */
export async function companyRecurrence(
  db: Queryable,
  companyId: number,
  id: number,
): Promise<Omit<FecRecurrence, 'dernierEnvoi'>> {
  const found = await findRecurrence(db, id);
  if (!found || found.societe !== companyId)
    throw new DomainError('notFound', 'NotFound', 'no such recurrence');
  return found;
}

/**
 * Creates (no `input.id`) or replaces recurrence `input.id` of company `companyId`, with the
 * audit entry `fecRecurrence.save` (before / after). Run it in the write's transaction `tx`.
 * @throws DomainError `NotFound` for an unknown company or recurrence.
 */
export async function saveRecurrence(
  tx: Queryable,
  actor: AuditActor,
  companyId: number,
  input: FecRecurrenceFields,
): Promise<FecRecurrence> {
  const company = await tx.query('SELECT 1 FROM companies WHERE id = $1', [companyId]);
  if (company.rowCount === 0) throw new DomainError('notFound', 'NotFound', 'no such company');
  const before = input.id === undefined ? null : await companyRecurrence(tx, companyId, input.id);
  const values = [
    input.libelle,
    input.type,
    input.type === 'WEEKLY' ? [...new Set(input.jours)].sort() : [],
    input.type === 'MONTHLY' && !input.dernierJour ? input.jourDuMois : null,
    input.type === 'MONTHLY' && input.dernierJour,
    input.heure,
    input.minute,
    input.periode,
    [...new Set(input.destinataires.map((d) => d.toLowerCase()))],
    input.langue,
    input.active,
  ];
  const { rows } = before
    ? await tx.query<{ id: number }>(
        `UPDATE fec_recurrences SET libelle = $2, type = $3, week_days = $4, month_day = $5, last_day = $6,
                hour = $7, minute = $8, period = $9, recipients = $10, language = $11, active = $12
          WHERE id = $1 RETURNING id`,
        [before.id, ...values],
      )
    : await tx.query<{ id: number }>(
        `INSERT INTO fec_recurrences (company_id, libelle, type, week_days, month_day, last_day, hour, minute,
                                      period, recipients, language, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [companyId, ...values],
      );
  const id = rows[0]!.id;
  const after = await companyRecurrence(tx, companyId, id);
  await recordAudit(tx, actor, { action: 'fecRecurrence.save', targetId: id, before, after });
  return { ...after, dernierEnvoi: await lastRun(tx, id) };
}

/**
 * Removes recurrence `id` of company `companyId` (its files stay, listed without it), with the
 * audit entry `fecRecurrence.remove`. Run it in the write's transaction `tx`.
 * @throws DomainError `NotFound`.
 */
export async function removeRecurrence(
  tx: Queryable,
  actor: AuditActor,
  companyId: number,
  id: number,
): Promise<void> {
  const before = await companyRecurrence(tx, companyId, id);
  await tx.query('DELETE FROM fec_recurrences WHERE id = $1', [id]);
  await recordAudit(tx, actor, { action: 'fecRecurrence.remove', targetId: id, before });
}

/** A kept file as stored: where it is (relative to DATA_DIR) and what it is. */
export interface StoredFecFile {
  id: number;
  companyId: number;
  fileName: string;
  path: string;
}

/** The files kept for company `companyId`, newest first (200 at most), each with its run. */
export async function companyFiles(db: Queryable, companyId: number): Promise<FecFile[]> {
  const { rows } = await db.query<Omit<FecFile, 'run'> & { runId: string | null }>(
    `SELECT f.id, f.recurrence_id AS "recurrenceId", f.libelle, to_char(f.date_debut, 'YYYY-MM-DD') AS "dateDebut",
            to_char(f.date_fin, 'YYYY-MM-DD') AS "dateFin", f.file_name AS nom, f.bytes AS octets,
            to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS cree, f.run_id AS "runId",
            f.excluded_sites AS "sitesExclus"
       FROM fec_files f WHERE f.company_id = $1 ORDER BY f.created_at DESC, f.id DESC LIMIT 200`,
    [companyId],
  );
  const runs = await db.query<JobRun>(
    `SELECT id, status, attempts, mails, error, planned_at AS "plannedAt" FROM job_runs WHERE id = ANY($1::uuid[])`,
    [rows.map((r) => r.runId).filter((r) => r !== null)],
  );
  const byId = new Map(runs.rows.map((r) => [r.id, fecRunOf(r)]));
  return rows.map(({ runId, ...f }) => ({ ...f, run: runId ? (byId.get(runId) ?? null) : null }));
}

/**
 * Kept file `fileId` of company `companyId`.
 * @throws DomainError notFound `NotFound` when it does not exist or is another company's.
 */
export async function companyFile(db: Queryable, companyId: number, fileId: number): Promise<StoredFecFile> {
  const { rows } = await db.query<StoredFecFile>(
    `SELECT id, company_id AS "companyId", file_name AS "fileName", path FROM fec_files WHERE id = $1`,
    [fileId],
  );
  const file = rows[0];
  if (!file || file.companyId !== companyId) throw new DomainError('notFound', 'NotFound', 'no such file');
  return file;
}

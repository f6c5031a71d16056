/**
 * The archive-first purge of one site's period (issue #30 "Empty / partial empty", SPEC.md §7
 * bo/emptyPartialDataBase and bo/emptyDataBase, decision 0040). In the caller's transaction:
 *
 * 1. the detail tables are locked against writes (a row added during the purge would be deleted
 *    without being archived), then the site's rows of the period are written to a compressed
 *    archive with its SHA-256 manifest (archive.ts), read back from disk and verified;
 * 2. the grand totals of each fiscal date are kept in `fiscal_day_totals` and the purge in
 *    `data_purges` (migration 0020: both append-only), before anything is deleted;
 * 3. the rows are deleted — exactly as many per table as were archived, else the whole
 *    transaction fails — and the per-day aggregates are rebuilt for what remains;
 * 4. the purge is written to the audit log (never purged).
 *
 * Any failure throws, the caller rolls back, and nothing is deleted; the archive file of a
 * failed purge is removed. The audit log, `fiscal_day_totals` and `data_purges` are never purged.
 */
import path from 'node:path';
import { rm } from 'node:fs/promises';
import type pg from 'pg';
import type { SitePurge } from '../../contract/purge.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import { refreshDailySales } from '../db/aggregates.ts';
import {
  type ArchivedTable,
  type ArchiveManifest,
  manifestPath,
  verifyArchive,
  writeArchive,
} from './archive.ts';

/** The detail tables of a site's fiscal date, in archive and lock order; the first three hang on `tickets`. */
export const PURGED_TABLES = [
  'tickets',
  'ticket_lines',
  'payments',
  'losses',
  'cash_counts',
  'safe_counts',
  'manager_receipts',
] as const;

/** Primary-key order of each purged table (archive row order). */
const ORDER_BY: Record<(typeof PURGED_TABLES)[number], string> = {
  tickets: 'ticket_id',
  ticket_lines: 'ticket_id, line_no',
  payments: 'ticket_id, payment_no',
  losses: 'loss_id',
  cash_counts: 'id',
  safe_counts: 'id',
  manager_receipts: 'id',
};

/** The rows of `table` for site $1 and fiscal dates $2..$3, as SQL after `FROM <table> t`. */
function periodFilter(table: (typeof PURGED_TABLES)[number]): string {
  if (table === 'ticket_lines' || table === 'payments') {
    return `WHERE t.site_id = $1 AND t.ticket_id IN (
      SELECT ticket_id FROM tickets WHERE site_id = $1 AND fiscal_date BETWEEN $2::date AND $3::date)`;
  }
  return 'WHERE t.site_id = $1 AND t.fiscal_date BETWEEN $2::date AND $3::date';
}

/** What one site's purge needs. */
export interface SitePurgeInput {
  siteId: number;
  /** First and last fiscal dates (`YYYY-MM-DD`, included). */
  fromDate: string;
  toDate: string;
  /** The mandatory reason (SPEC.md `commentaire`), already trimmed and checked. */
  comment: string;
}

/** Where archives go and what the purge may call. */
export interface PurgeOptions {
  /** The data folder (archive paths are recorded relative to it when under it). */
  dataDir: string;
  /** The archive folder (default `DATA_DIR/archives`). */
  archiveDir: string;
  /** The moment of the purge (names the file). */
  now: Date;
  /**
   * Called between writing and verifying the archive, with its path: lets a test damage the
   * file to prove that an archive that does not verify deletes nothing. Never set by the app.
   */
  beforeVerify?: (file: string) => Promise<void>;
}

/** The archive file of a purge: `purge-site<id>-<from>-<to>-<UTC instant to the ms>.jsonl.gz`. */
function archiveFile(options: PurgeOptions, input: SitePurgeInput): string {
  const at = options.now.toISOString().replace(/[-:]/g, '');
  return path.join(
    options.archiveDir,
    `purge-site${input.siteId}-${input.fromDate}-${input.toDate}-${at}.jsonl.gz`,
  );
}

/** The manifest of the archive `archive` (as shown: relative or absolute), beside it. */
export function manifestOf(archive: string): string {
  return manifestPath(archive);
}

/** `file` relative to the data folder when under it, else absolute (as recorded and shown). */
function shownPath(options: PurgeOptions, file: string): string {
  const relative = path.relative(options.dataDir, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/**
 * Takes the locks of a purge on `tx`: every purged table against concurrent writes (reads go on),
 * for the rest of the transaction. Two purges run one after the other.
 */
export async function lockPurgedTables(tx: pg.PoolClient): Promise<void> {
  await tx.query(`LOCK TABLE ${PURGED_TABLES.join(', ')} IN SHARE ROW EXCLUSIVE MODE`);
}

/** The fiscal dates of `siteId` that hold detail, first and last; null when the site has none. */
export async function siteDetailRange(
  tx: pg.PoolClient,
  siteId: number,
): Promise<{ fromDate: string; toDate: string } | null> {
  const parts = ['tickets', 'losses', 'cash_counts', 'safe_counts', 'manager_receipts'].map(
    (table) => `SELECT min(fiscal_date) AS lo, max(fiscal_date) AS hi FROM ${table} WHERE site_id = $1`,
  );
  const { rows } = await tx.query<{ lo: string | null; hi: string | null }>(
    `SELECT to_char(min(lo), 'YYYY-MM-DD') AS lo, to_char(max(hi), 'YYYY-MM-DD') AS hi
       FROM (${parts.join(' UNION ALL ')}) r`,
    [siteId],
  );
  const { lo, hi } = rows[0] ?? { lo: null, hi: null };
  return lo && hi ? { fromDate: lo, toDate: hi } : null;
}

/** True when `input`'s site holds at least one detail row in its period (ticket lines hang on tickets). */
async function hasDetail(tx: pg.PoolClient, input: SitePurgeInput): Promise<boolean> {
  const probes = ['tickets', 'losses', 'cash_counts', 'safe_counts', 'manager_receipts'].map(
    (table) => `SELECT 1 FROM ${table} t ${periodFilter(table as (typeof PURGED_TABLES)[number])}`,
  );
  const { rows } = await tx.query(`SELECT EXISTS (${probes.join(' UNION ALL ')}) AS found`, [
    input.siteId,
    input.fromDate,
    input.toDate,
  ]);
  return rows[0]?.found === true;
}

/** Writes the archive of `input`'s rows. @throws ArchiveError (nothing left on disk) */
async function archiveRows(
  tx: pg.PoolClient,
  input: SitePurgeInput,
  options: PurgeOptions,
  file: string,
  actor: AuditActor,
): Promise<ArchiveManifest> {
  const values = [input.siteId, input.fromDate, input.toDate];
  const tables: ArchivedTable[] = PURGED_TABLES.map((name) => ({
    name,
    sql: `SELECT row_to_json(t)::text AS j FROM ${name} t ${periodFilter(name)} ORDER BY ${ORDER_BY[name]}`,
    values,
  }));
  const manifest = await writeArchive(tx, file, tables, {
    siteId: input.siteId,
    fromDate: input.fromDate,
    toDate: input.toDate,
    comment: input.comment,
    userId: actor.userId,
    at: options.now.toISOString(),
  });
  return manifest;
}

/** Keeps the grand totals of each purged fiscal date of the site (the rules of `daily_sales`). */
async function keepTotals(tx: pg.PoolClient, purgeId: number, input: SitePurgeInput): Promise<void> {
  await tx.query(
    `INSERT INTO fiscal_day_totals (site_id, fiscal_date, purge_id, tickets, net_cents, net_excl_cents, tax_cents)
     SELECT $1, fiscal_date, $4, count(*) FILTER (WHERE kind = 'SALE')::int, sum(total_cents)::bigint,
            sum(total_excl_cents)::bigint, sum(tax_cents)::bigint
       FROM tickets
      WHERE site_id = $1 AND fiscal_date BETWEEN $2::date AND $3::date AND NOT training_mode
      GROUP BY fiscal_date`,
    [input.siteId, input.fromDate, input.toDate, purgeId],
  );
}

/** Deletes the archived rows; each table must lose exactly its archived count. @throws Error otherwise */
async function deleteArchived(
  tx: pg.PoolClient,
  input: SitePurgeInput,
  manifest: ArchiveManifest,
): Promise<void> {
  const values = [input.siteId, input.fromDate, input.toDate];
  // Lines and payments first: their filter reads the tickets.
  const order = [
    'ticket_lines',
    'payments',
    'tickets',
    'losses',
    'cash_counts',
    'safe_counts',
    'manager_receipts',
  ] as const;
  for (const table of order) {
    const { rowCount } = await tx.query(`DELETE FROM ${table} t ${periodFilter(table)}`, values);
    const archived = manifest.tables[table]?.rows ?? 0;
    if ((rowCount ?? 0) !== archived) {
      throw new Error(`purge of ${table}: ${rowCount} rows deleted, ${archived} archived`);
    }
  }
}

/**
 * Purges the detail of one site's period on `tx` (a transaction the caller commits, whose
 * {@link lockPurgedTables} it took): archive, verify, keep totals, delete, rebuild aggregates,
 * audit (`database.emptyPartial`). See the module comment.
 * @returns the purge as the answer lists it; null when the site has no detail in the period
 *   (nothing to archive: no file, no record).
 * @throws ArchiveError when the archive cannot be written or verified (nothing deleted, file removed);
 *   the database's error otherwise (the caller rolls back).
 */
export async function purgeSitePeriod(
  tx: pg.PoolClient,
  actor: AuditActor,
  input: SitePurgeInput,
  options: PurgeOptions,
): Promise<SitePurge | null> {
  if (!(await hasDetail(tx, input))) return null;
  const file = archiveFile(options, input);
  const manifest = await archiveRows(tx, input, options, file, actor);
  try {
    await options.beforeVerify?.(file);
    await verifyArchive(file, manifest);
    const rows = Object.fromEntries(Object.entries(manifest.tables).map(([name, d]) => [name, d.rows]));
    const archive = shownPath(options, file);
    const { rows: inserted } = await tx.query<{ id: number }>(
      `INSERT INTO data_purges (site_id, from_date, to_date, archive_path, archive_sha256, row_counts, comment, user_id, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        input.siteId,
        input.fromDate,
        input.toDate,
        archive,
        manifest.sha256,
        rows,
        input.comment,
        actor.userId,
        options.now,
      ],
    );
    const purgeId = inserted[0]!.id;
    await keepTotals(tx, purgeId, input);
    await deleteArchived(tx, input, manifest);
    await refreshDailySales(tx, input.siteId, input.fromDate, input.toDate);
    const purge: SitePurge = {
      purgeId,
      restaurantId: input.siteId,
      debut: input.fromDate,
      fin: input.toDate,
      archive,
      manifest: manifestOf(archive),
      sha256: manifest.sha256,
      bytes: manifest.bytes,
      rows,
    };
    await recordAudit(tx, actor, {
      action: 'database.emptyPartial',
      targetId: input.siteId,
      before: null,
      after: { ...purge, commentaire: input.comment },
    });
    return purge;
  } catch (error) {
    await rm(file, { force: true }).catch(() => {});
    await rm(manifestPath(file), { force: true }).catch(() => {});
    throw error;
  }
}

/**
 * Purges every date of each site of `siteIds` (ascending) that holds detail, with
 * {@link purgeSitePeriod} on `tx` (whose {@link lockPurgedTables} the caller took): one archive
 * per site, from its first to its last fiscal date. A site without detail is skipped.
 * @returns the purges, by site.
 * @throws as {@link purgeSitePeriod}; the caller rolls back every site's purge.
 */
export async function purgeWholeSites(
  tx: pg.PoolClient,
  actor: AuditActor,
  siteIds: readonly number[],
  comment: string,
  options: PurgeOptions,
): Promise<SitePurge[]> {
  const purges: SitePurge[] = [];
  for (const siteId of [...siteIds].sort((a, b) => a - b)) {
    const range = await siteDetailRange(tx, siteId);
    const purge = range ? await purgeSitePeriod(tx, actor, { siteId, ...range, comment }, options) : null;
    if (purge) purges.push(purge);
  }
  return purges;
}

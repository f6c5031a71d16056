/**
 * The report editions (schema-exports.ts `report_editions`): every report generated through
 * bo/getReport is recorded with its normalised request, which makes the user's last report the
 * "report in state" of bo/getResultsData (SPEC.md §8 NoReportInState) and feeds the exports list
 * and GET exports/status. Also records loads of sales data (`data_loads`).
 *
 * Visibility: a user sees the editions whose sites all lie in their scope (SPEC.md §6), whoever
 * generated them; the user's own last edition is theirs alone.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import type { Edition } from '../../contract/exports.ts';
import { LANGUAGES, type Language, REPORT_FORMATS, REPORT_VARIANTS } from '../../contract/reports.ts';
import type { EditionStatus } from '../db/schema-exports.ts';
import { hasMessage, message } from '../i18n.ts';
import { findReportClass } from './registry.ts';
import type { RawReportInput, ResolvedReport } from './request.ts';

/** What {@link recordEdition} stores. */
export interface EditionRecord {
  userId: number;
  login: string;
  report: ResolvedReport;
  /** The request as received (normalised); its sites are replaced by the resolved ones. */
  input: RawReportInput;
  status: EditionStatus;
  /** Size of the document in bytes, when known now. */
  bytes: number | null;
  rows: number | null;
  /**
   * Where it came from: bo/getReport and its variants (default), or the all-reports ZIP, whose
   * PDFs are listed but never become the user's report in state.
   */
  origin?: 'report' | 'archive';
}

/**
 * The last of the edition writes started by {@link inBackground}. They run one after the other,
 * in the order the reports were answered, so the history keeps that order (ids and
 * `generated_at` ascend with it). Every reader of this module waits for the chain first, so within
 * this server process a report that was answered is always in the history a later call reads
 * (bo/getResultsData, exports/list, exports/status, metrics).
 */
let lastWrite: Promise<unknown> = Promise.resolve();

/**
 * Waits for the edition writes started so far (failures were already logged); for a query
 * outside this module that reads `report_editions` (exports/status).
 */
export async function editionsWritten(): Promise<void> {
  await lastWrite;
}

/**
 * Runs `write` (an edition insert or update) after the ones already started, without holding up
 * the answer it records: the write starts on the event loop's next turn (setImmediate), once the
 * answer handed to Fastify in this turn has gone to the connection (a whole JSON answer or
 * document; a streamed one has started), so even sending the statement (pool checkout, encoding,
 * the socket write) does not delay it. A failed write is given to `onError` (the
 * request's logger) and the promise answers null: losing a line of history must not fail a
 * report already sent.
 * @returns the write's result (the edition id for {@link recordEdition}), or null when it failed.
 */
export function inBackground<T>(
  write: () => Promise<T>,
  onError: (error: unknown) => void,
): Promise<T | null> {
  const promise = lastWrite
    .then(() => nextTurn())
    .then(write)
    .catch((error: unknown) => {
      onError(error);
      return null;
    });
  lastWrite = promise;
  return promise;
}

/**
 * Stores one edition; answers its id. The history of generated reports is a convenience record,
 * not fiscal data: its insert commits without waiting for the WAL to reach the disk, so a
 * report's answer does not wait for an fsync. One statement, one round trip: `set_config(…, true)`
 * in the statement's own (implicit) transaction turns `synchronous_commit` off for that commit
 * only — PostgreSQL reads the setting when it commits and resets it just after. The row is
 * visible to every later query at once; a crash of the database server in the next fraction of a
 * second could lose it, and nothing else.
 */
export async function recordEdition(pool: pg.Pool, record: EditionRecord): Promise<number> {
  const { request } = record.report;
  const siteIds = request.sites.map((s) => s.id);
  const stored: RawReportInput & { origin: string } = {
    ...record.input,
    sites: siteIds,
    origin: record.origin ?? 'report',
  };
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO report_editions (user_id, login, class_name, variant, format, language, date_debut, date_fin,
                                  fiscal_dates, site_ids, request, bytes, rows, status)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14
       FROM (SELECT set_config('synchronous_commit', 'off', true) AS setting) async_commit
      WHERE async_commit.setting = 'off'
     RETURNING id`,
    [
      record.userId,
      record.login,
      request.className,
      request.variant,
      request.format,
      request.language,
      request.dateDebut,
      request.dateFin,
      request.fiscalDates,
      siteIds,
      stored,
      record.bytes,
      record.rows,
      record.status,
    ],
  );
  return Number(rows[0]!.id);
}

/** Sets the size of edition `id` once its streamed document has been sent. */
export async function setEditionBytes(pool: pg.Pool, id: number, bytes: number): Promise<void> {
  await pool.query('UPDATE report_editions SET bytes = $2 WHERE id = $1', [id, bytes]);
}

/**
 * The stored request of user `userId`'s last report (bo/getReport or a variant; the PDFs of the
 * all-reports ZIP do not count), or null when they generated none.
 */
export async function lastEditionRequest(pool: pg.Pool, userId: number): Promise<RawReportInput | null> {
  await editionsWritten();
  const { rows } = await pool.query<{ request: RawReportInput }>(
    `SELECT request FROM report_editions
      WHERE user_id = $1 AND coalesce(request->>'origin', 'report') <> 'archive'
      ORDER BY generated_at DESC, id DESC LIMIT 1`,
    [userId],
  );
  return rows[0]?.request ?? null;
}

/** The stored request of edition `id` when every site of it is in `scope`, else null. */
export async function editionRequest(
  pool: pg.Pool,
  id: number,
  scope: readonly number[],
): Promise<RawReportInput | null> {
  await editionsWritten();
  const { rows } = await pool.query<{ request: RawReportInput }>(
    'SELECT request FROM report_editions WHERE id = $1 AND site_ids <@ $2::int[]',
    [id, scope],
  );
  return rows[0]?.request ?? null;
}

interface EditionRow {
  id: string;
  class_name: string;
  variant: string;
  format: string;
  language: string;
  date_debut: string;
  date_fin: string;
  fiscal_dates: string[] | null;
  sites: Array<{ restaurantId: number; libelle: string }>;
  bytes: string | number | null;
  rows: number | null;
  status: EditionStatus;
  login: string;
  generated_at: Date;
}

function pick<T extends string>(values: readonly T[], value: string, fallback: T): T {
  return (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/**
 * Editions visible in `scope`, newest first, titled in `language`.
 * @param page.limit at most this many (1–200); `page.offset` skips the newest ones.
 * @param page.userId only this user's editions.
 * @returns the editions and whether older ones remain.
 */
export async function listEditions(
  pool: pg.Pool,
  scope: readonly number[],
  language: Language,
  page: { limit: number; offset: number; userId?: number | undefined },
): Promise<{ editions: Edition[]; more: boolean }> {
  await editionsWritten();
  const { rows } = await pool.query<EditionRow>(
    `SELECT e.id, e.class_name, e.variant, e.format, e.language, e.date_debut::text AS date_debut,
            e.date_fin::text AS date_fin, e.fiscal_dates::text[] AS fiscal_dates, e.bytes, e.rows, e.status,
            e.login, e.generated_at,
            coalesce((SELECT json_agg(json_build_object('restaurantId', s.id, 'libelle', s.libelle) ORDER BY s.id)
                        FROM sites s WHERE s.id = ANY(e.site_ids)), '[]'::json) AS sites
       FROM report_editions e
      WHERE e.site_ids <@ $1::int[] AND ($4::int IS NULL OR e.user_id = $4)
      ORDER BY e.generated_at DESC, e.id DESC
      LIMIT $2 OFFSET $3`,
    [scope, page.limit + 1, page.offset, page.userId ?? null],
  );
  const editions = rows.slice(0, page.limit).map((r): Edition => {
    const cls = findReportClass(r.class_name);
    const titleId = cls?.titleId ?? `report.${r.class_name}.title`;
    return {
      id: Number(r.id),
      className: r.class_name,
      localisedTitle: hasMessage(language, titleId) ? message(language, titleId) : r.class_name,
      variant: pick(REPORT_VARIANTS, r.variant, 'Daily'),
      format: pick(REPORT_FORMATS, r.format, 'PDF'),
      language: pick(LANGUAGES, r.language, 'fr'),
      dateDebut: r.date_debut,
      dateFin: r.date_fin,
      fiscalDates: r.fiscal_dates,
      sites: r.sites,
      bytes: r.bytes === null ? null : Number(r.bytes),
      rows: r.rows,
      status: r.status,
      login: r.login,
      generatedAt: r.generated_at.toISOString(),
    };
  });
  return { editions, more: rows.length > page.limit };
}

/** Per class, how many reports user `userId` generated (status OK) and when last. */
export async function editionCounts(
  pool: pg.Pool,
  userId: number,
): Promise<Map<string, { generated: number; lastGeneratedAt: string }>> {
  await editionsWritten();
  const { rows } = await pool.query<{ class_name: string; generated: number; last: Date }>(
    `SELECT class_name, count(*)::int AS generated, max(generated_at) AS last
       FROM report_editions WHERE user_id = $1 AND status = 'OK' GROUP BY class_name`,
    [userId],
  );
  return new Map(
    rows.map((r) => [r.class_name, { generated: r.generated, lastGeneratedAt: r.last.toISOString() }]),
  );
}

export { type DataLoad, recordDataLoad } from '../db/data-loads.ts';

/**
 * The report editions (schema-exports.ts `report_editions`): every report generated through
 * bo/getReport is recorded with its normalised request, which makes the user's last report the
 * "report in state" of bo/getResultsData (SPEC.md §8 NoReportInState) and feeds the exports list
 * and GET exports/status. Also records loads of sales data (`data_loads`).
 *
 * Visibility: a user sees the editions whose sites all lie in their scope (SPEC.md §6), whoever
 * generated them; the user's own last edition is theirs alone.
 *
 * Writing (issue #17 item 6, decision record 0018): editions go through a bounded queue
 * (batch-queue.ts, {@link EDITION_QUEUE_BOUND} rows) and are written in batches, one INSERT per
 * batch; a report waits for room only when the queue is full. A graceful stop writes what is
 * queued ({@link closeEditions}); a crash may lose what the queue held. Retention: editions
 * older than COMPTOIR_EDITIONS_DAYS are deleted in batches (edition-retention.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import type { Edition } from '../../contract/exports.ts';
import { LANGUAGES, type Language, REPORT_FORMATS, REPORT_VARIANTS } from '../../contract/reports.ts';
import type { EditionStatus } from '../db/schema-exports.ts';
import { hasMessage, message } from '../i18n.ts';
import { BatchQueue, type BatchQueueStats } from './batch-queue.ts';
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

/** Most editions held in memory waiting for their write (decision record 0018). */
export const EDITION_QUEUE_BOUND = 1000;
/** Most editions per INSERT. */
export const EDITION_BATCH = 250;

/** One edition as written: the record reduced to its columns at once, so no request object is kept. */
interface QueuedRow {
  userId: number;
  login: string;
  className: string;
  variant: string;
  format: string;
  language: string;
  dateDebut: string;
  dateFin: string;
  /** PostgreSQL array literal (`{2026-11-02,2026-11-03}`) or null. */
  fiscalDates: string | null;
  /** PostgreSQL array literal of the site ids. */
  siteIds: string;
  /** The stored request, as JSON text. */
  request: string;
  bytes: number | null;
  rows: number | null;
  status: EditionStatus;
  /** When the report was answered (not when its row is written). */
  generatedAt: Date;
}

/**
 * Writes `rows` in one statement (one round trip): the columns travel as arrays and come back as
 * rows through `unnest … WITH ORDINALITY`; the ids are drawn in that order, so ids and
 * `generated_at` ascend with the order reports were answered. An author deleted since their
 * report is stored as no author (null), as `ON DELETE SET NULL` would have made it, instead of
 * failing the whole batch on the foreign key. `set_config(…, true)` turns `synchronous_commit`
 * off for this statement's own commit only: the history is a convenience record, not fiscal
 * data, and a report's pace must not be an fsync's (decision record 0018 says what a crash loses).
 * @returns the ids, in the order of `rows`.
 */
async function insertEditions(pool: pg.Pool, rows: readonly QueuedRow[]): Promise<number[]> {
  const column = <K extends keyof QueuedRow>(key: K) => rows.map((r) => r[key]);
  const { rows: ids } = await pool.query<{ id: string }>(
    `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true) AS setting),
          input AS (
            SELECT nextval(pg_get_serial_sequence('report_editions', 'id')) AS id, u.*
              FROM async_commit,
                   unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::date[],
                          $8::date[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::int[],
                          $14::text[], $15::timestamptz[])
                     WITH ORDINALITY AS u(user_id, login, class_name, variant, format, language, date_debut,
                                          date_fin, fiscal_dates, site_ids, request, bytes, rows, status,
                                          generated_at, ord)
             WHERE async_commit.setting = 'off'
             ORDER BY u.ord),
          inserted AS (
            INSERT INTO report_editions (id, user_id, login, class_name, variant, format, language, date_debut,
                                         date_fin, fiscal_dates, site_ids, request, bytes, rows, status,
                                         generated_at)
            SELECT i.id, (SELECT x.id FROM users x WHERE x.id = i.user_id), i.login, i.class_name, i.variant,
                   i.format, i.language, i.date_debut, i.date_fin, i.fiscal_dates::date[], i.site_ids::int[],
                   i.request::jsonb, i.bytes, i.rows, i.status, i.generated_at
              FROM input i)
     SELECT id FROM input ORDER BY ord`,
    [
      column('userId'),
      column('login'),
      column('className'),
      column('variant'),
      column('format'),
      column('language'),
      column('dateDebut'),
      column('dateFin'),
      column('fiscalDates'),
      column('siteIds'),
      column('request'),
      column('bytes'),
      column('rows'),
      column('status'),
      column('generatedAt'),
    ],
  );
  return ids.map((r) => Number(r.id));
}

/** The queue of each pool (one per server; tests run several). */
const queues = new Map<pg.Pool, BatchQueue<QueuedRow, number>>();

/**
 * {@link insertEditions}, once more when an author was deleted while the statement ran (foreign
 * key violation, 23503): its second reading of `users` no longer finds them.
 */
async function insertEditionsRetried(pool: pg.Pool, rows: readonly QueuedRow[]): Promise<number[]> {
  try {
    return await insertEditions(pool, rows);
  } catch (error) {
    if ((error as { code?: string }).code !== '23503') throw error;
    return insertEditions(pool, rows);
  }
}

function queueOf(pool: pg.Pool): BatchQueue<QueuedRow, number> {
  let queue = queues.get(pool);
  if (!queue) {
    queue = new BatchQueue({
      bound: EDITION_QUEUE_BOUND,
      batch: EDITION_BATCH,
      write: (rows) => insertEditionsRetried(pool, rows),
    });
    queues.set(pool, queue);
  }
  return queue;
}

/** A PostgreSQL array literal of values that need no quoting (ids, ISO dates). */
function arrayLiteral(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

function queuedRow(record: EditionRecord): QueuedRow {
  const { request } = record.report;
  const siteIds = request.sites.map((s) => s.id);
  const stored: RawReportInput & { origin: string } = {
    ...record.input,
    sites: siteIds,
    origin: record.origin ?? 'report',
  };
  return {
    userId: record.userId,
    login: record.login,
    className: request.className,
    variant: request.variant,
    format: request.format,
    language: request.language,
    dateDebut: request.dateDebut,
    dateFin: request.dateFin,
    fiscalDates: request.fiscalDates ? arrayLiteral(request.fiscalDates) : null,
    siteIds: arrayLiteral(siteIds),
    request: JSON.stringify(stored),
    bytes: record.bytes,
    rows: record.rows,
    status: record.status,
    generatedAt: new Date(),
  };
}

/** What {@link queueEdition} answers once the edition is queued. */
export interface QueuedEdition {
  /** The edition's id once written; null when its batch could not be written (logged). */
  written: Promise<number | null>;
}

/**
 * Queues one edition for the next batch write (decision record 0018). Resolves at once, unless
 * {@link EDITION_QUEUE_BOUND} editions already wait: then once a write has made room — a route
 * that awaits it before answering slows down to the database's pace rather than letting memory
 * grow. `onError` (the request's logger) hears of a failed write, once per batch, with the number
 * of editions it lost: losing history must not fail a report already sent.
 */
export async function queueEdition(
  pool: pg.Pool,
  record: EditionRecord,
  onError: (error: unknown, lost: number) => void,
): Promise<QueuedEdition> {
  const { accepted, result } = queueOf(pool).add(queuedRow(record), onError);
  await accepted;
  return { written: result };
}

/**
 * Stores one edition through the queue and answers its id once written (null when its batch
 * failed; `onError` heard of it). For callers that are not answering an HTTP request themselves
 * (the PDFs of the all-reports ZIP).
 */
export async function recordEdition(
  pool: pg.Pool,
  record: EditionRecord,
  onError: (error: unknown, lost: number) => void = () => {},
): Promise<number | null> {
  return (await queueEdition(pool, record, onError)).written;
}

/** The counters of `pool`'s edition queue (batch-queue.ts {@link BatchQueueStats}). */
export function editionQueueStats(pool: pg.Pool): BatchQueueStats {
  return queueOf(pool).stats();
}

/**
 * Writes what `pool`'s queue holds and forgets the queue: for a graceful stop (app.ts, on
 * close, before the pool ends). Editions queued after this start a new queue.
 */
export async function closeEditions(pool: pg.Pool): Promise<void> {
  const queue = queues.get(pool);
  if (!queue) return;
  await queue.flushed();
  await lastWrite;
  queues.delete(pool);
}

/**
 * The last of the writes started by {@link inBackground} (the size of a streamed document,
 * stored once it is sent).
 */
let lastWrite: Promise<unknown> = Promise.resolve();

/**
 * Waits for the edition writes started so far, in every queue (failures were already logged):
 * every reader of `report_editions` calls it first, so within this server process a report that
 * was answered is always in the history a later call reads (bo/getResultsData, exports/list,
 * exports/status, metrics). It writes the queue at once rather than waiting for its next turn.
 */
export async function editionsWritten(): Promise<void> {
  await Promise.all([...queues.values()].map((q) => q.flushed()));
  await lastWrite;
}

/**
 * Runs `write` (an update of an edition already queued) after the ones already started, without
 * holding up the answer: it starts on the event loop's next turn. A failed write is given to
 * `onError` and the promise answers null.
 * @returns the write's result, or null when it failed.
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

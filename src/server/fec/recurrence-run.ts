/**
 * One run of a FEC recurrence (issue #29 "FEC recurrences", docs/decisions/0043), job
 * `fec.recurrence.run`, and the due source that queues the scheduled ones.
 *
 * - The rule is evaluated in the company's zone (its sites' one zone, else Europe/Paris, as the
 *   subscriptions do); the period is resolved from the planned minute's local date there.
 * - A period is exported only once it is closed: its last fiscal date is before the fiscal today
 *   of EVERY site of the company (its zone and day start) (Comptoir has no day-close record; decision 0043). Otherwise the
 *   try throws {@link PeriodNotClosedError}: the queue retries it later, the run shows why.
 * - The file is the very bytes `GET bo/fec/export` answers for the company and period on the day
 *   of the run (company-fec.ts), checked before it is kept; a file with a violation fails the run.
 * - Exactly once per recurrence and period: the file is kept under
 *   `DATA_DIR/fec/<company>/<recurrence>/<dateDebut>_<dateFin>/<name>` and recorded in `fec_files`
 *   (unique recurrence + period) with the non-euro sites it leaves out (decision 0037), which its
 *   mails name; a later run of that period reuses it. Mails go through the mail
 *   queue under `fec:<recurrence>:<dateDebut>:<dateFin>:<address>`, so none leaves twice.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { endOfMonth } from 'date-fns/endOfMonth';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfISOWeek } from 'date-fns/startOfISOWeek';
import { subDays } from 'date-fns/subDays';
import { subMonths } from 'date-fns/subMonths';
import type pg from 'pg';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import type { FecPeriod } from '../../contract/fec-recurrences.ts';
import type { Language } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import type { Queryable } from '../db/queryable.ts';
import { formatDate, message } from '../i18n.ts';
import type { DueItem, DueSource, JobContext, JobDefinition } from '../jobs/contract.ts';
import { renderMailHtml } from '../mail/layout.ts';
import type { MailMessage } from '../mail/transport.ts';
import { type DueRuleRow, localDate, occurrencesBetween } from '../subscriptions/occurrences.ts';
import { subscriptionTimeZone } from '../subscriptions/report-input.ts';
import { companyFec, type ForeignSite } from './company-fec.ts';
import { companyPlan } from './plan-store.ts';
import { FEC_RECURRENCE_RUN, findRecurrence } from './recurrence-store.ts';

/** What a run needs from the server. */
export interface FecRecurrenceOptions {
  database: Database;
  /** DATA_DIR (absolute): files are kept under its `fec/` folder. */
  dataDir: string;
}

/** The data of a `fec.recurrence.run` job; `plannedAt` ISO 8601 (UTC). */
export interface FecRecurrenceRunData {
  recurrenceId: number;
  plannedAt: string;
}

/** The period is not closed yet in some site's zone: the try fails and is retried later. */
export class PeriodNotClosedError extends Error {}

/** The file a run of a recurrence kept (or found kept) for its period. */
export interface FecRunOutcome {
  dateDebut: string;
  dateFin: string;
  fileName: string;
  /** Relative to DATA_DIR. */
  path: string;
  bytes: number;
  /** True when this run wrote it, false when an earlier run of the period had. */
  written: boolean;
  mails: number;
  /**
   * The company's sites not kept in EUR, so not in the file (decision 0037), `[]` when none;
   * null for a file kept before they were recorded (migration 0024).
   */
  excludedSites: ForeignSite[] | null;
}

/**
 * The period a run planned on local date `today` (`YYYY-MM-DD`) exports, inclusive:
 * PREVIOUS_MONTH its whole previous calendar month, PREVIOUS_WEEK the previous ISO week
 * (Monday–Sunday), PREVIOUS_DAY the day before.
 */
export function fecPeriod(periode: FecPeriod, today: string): { dateDebut: string; dateFin: string } {
  const day = parseWireDate(today);
  if (!day) throw new RangeError(`not a date: ${today}`);
  switch (periode) {
    case 'PREVIOUS_MONTH': {
      const first = startOfMonth(subMonths(day, 1));
      return { dateDebut: toWireDate(first), dateFin: toWireDate(endOfMonth(first)) };
    }
    case 'PREVIOUS_WEEK': {
      const monday = subDays(startOfISOWeek(day), 7);
      return { dateDebut: toWireDate(monday), dateFin: toWireDate(subDays(startOfISOWeek(day), 1)) };
    }
    case 'PREVIOUS_DAY': {
      const yesterday = toWireDate(subDays(day, 1));
      return { dateDebut: yesterday, dateFin: yesterday };
    }
  }
}

/** The distinct zones of company `companyId`'s sites. */
async function companyZones(db: Queryable, companyId: number): Promise<string[]> {
  const { rows } = await db.query<{ time_zone: string }>(
    'SELECT DISTINCT time_zone FROM sites WHERE company_id = $1 ORDER BY time_zone',
    [companyId],
  );
  return rows.map((r) => r.time_zone);
}

/** A site's clock: its zone and the local time its fiscal day starts (`HH:MM`, sites.day_start). */
export interface SiteClock {
  timeZone: string;
  dayStart: string;
}

/** The clocks of company `companyId`'s sites. */
async function companyClocks(db: Queryable, companyId: number): Promise<SiteClock[]> {
  const { rows } = await db.query<SiteClock>(
    'SELECT DISTINCT time_zone AS "timeZone", day_start AS "dayStart" FROM sites WHERE company_id = $1',
    [companyId],
  );
  return rows;
}

/**
 * The fiscal date a site of `clock` is in at `now`: the local date of `now` minus the day start
 * (a day starting at 04:00 is still the previous fiscal date at 02:00).
 */
export function fiscalToday(clock: SiteClock, now: Date): string {
  const [hours, minutes] = clock.dayStart.split(':').map(Number);
  const offset = ((hours ?? 0) * 60 + (minutes ?? 0)) * 60_000;
  return localDate(new Date(now.getTime() - offset), clock.timeZone);
}

/**
 * Null when fiscal date `dateFin` is over at `now` in every site of `clocks` (decision 0043:
 * Comptoir has no day-close record, so a day is closed once the site's fiscal today is after
 * it); otherwise the first clock where it is not.
 */
export function openClock(clocks: readonly SiteClock[], dateFin: string, now: Date): SiteClock | null {
  return clocks.find((clock) => !(fiscalToday(clock, now) > dateFin)) ?? null;
}

/** The mail carrying `file` to `to` in `language`. */
async function fecMail(
  to: string,
  language: Language,
  libelle: string,
  outcome: Pick<FecRunOutcome, 'dateDebut' | 'dateFin' | 'fileName' | 'excludedSites'>,
  content: Buffer,
  messageId: string,
): Promise<MailMessage> {
  const values = { libelle, debut: formatDate(outcome.dateDebut), fin: formatDate(outcome.dateFin) };
  const subject = message(language, 'fecRecurrences.mail.subject', values);
  const body = message(language, 'fecRecurrences.mail.body', { ...values, fichier: outcome.fileName });
  // The accountant is told which sites the file leaves out, and why (decision 0037).
  const excluded = outcome.excludedSites ?? [];
  const blocks =
    excluded.length === 0
      ? [body]
      : [
          body,
          message(language, 'fecRecurrences.mail.excluded', {
            count: excluded.length,
            sites: excluded.map((s) => `${s.libelle} (${s.devise})`).join(', '),
          }),
        ];
  const footer = message(language, 'fecRecurrences.mail.footer', values);
  return {
    to: [to],
    messageId,
    language,
    subject,
    text: [...blocks, footer].join('\n\n'),
    html: await renderMailHtml({ language, title: subject, blocks, footer }),
    attachments: [{ filename: outcome.fileName, content, contentType: 'text/plain; charset=ISO-8859-15' }],
  };
}

/**
 * Runs recurrence `data.recurrenceId` for the minute `data.plannedAt`: keeps the file of its
 * period (or finds it kept), records it on the run, queues one mail per recipient.
 * Null when the recurrence is gone or inactive (nothing to do, nothing to retry).
 * @throws PeriodNotClosedError while the period is open in a site's zone; Error when the file
 *   fails its checks; company-fec.ts's errors (no SIREN, missing account).
 */
export async function runFecRecurrence(
  options: FecRecurrenceOptions,
  data: FecRecurrenceRunData,
  ctx: JobContext,
): Promise<FecRunOutcome | null> {
  const { pool } = options.database;
  const recurrence = await findRecurrence(pool, data.recurrenceId);
  if (!recurrence?.active) return null;
  const plannedAt = new Date(data.plannedAt);
  const zones = await companyZones(pool, recurrence.societe);
  const { dateDebut, dateFin } = fecPeriod(
    recurrence.periode,
    localDate(plannedAt, subscriptionTimeZone(zones)),
  );
  const now = ctx.now();
  const open = openClock(await companyClocks(pool, recurrence.societe), dateFin, now);
  if (open) {
    throw new PeriodNotClosedError(
      `period ${dateDebut}..${dateFin} not closed yet: fiscal date ${dateFin} is not over in ${open.timeZone} ` +
        `(fiscal today ${fiscalToday(open, now)}, day start ${open.dayStart})`,
    );
  }
  const { outcome, content } = await keepFile(options, recurrence, { dateDebut, dateFin }, now, ctx.runId);
  if (!outcome) return null;
  await ctx.recordFile({ name: outcome.fileName, bytes: outcome.bytes, path: outcome.path });
  for (const address of recurrence.destinataires) {
    const key = `fec:${recurrence.id}:${dateDebut}:${dateFin}:${address}`;
    const mail = await fecMail(
      address,
      recurrence.langue,
      recurrence.libelle,
      outcome,
      content,
      `<fec-${recurrence.id}-${dateDebut}-${dateFin}-${Buffer.from(address).toString('hex')}@comptoir>`,
    );
    await ctx.queueMail(mail, key);
    outcome.mails += 1;
  }
  return outcome;
}

/** The recurrence fields a run reads. */
type RunRecurrence = NonNullable<Awaited<ReturnType<typeof findRecurrence>>>;

/**
 * The file of `recurrence` for `period`: the one kept already, else the company's FEC built now
 * (ValidDate the date of `now`), checked, written under DATA_DIR and recorded for run `runId`.
 * `outcome` null when the company is gone.
 * @throws Error when the file fails its checks; company-fec.ts's errors.
 */
async function keepFile(
  options: FecRecurrenceOptions,
  recurrence: RunRecurrence,
  period: { dateDebut: string; dateFin: string },
  now: Date,
  runId: string,
): Promise<{ outcome: FecRunOutcome | null; content: Buffer }> {
  const { pool } = options.database;
  const { dateDebut, dateFin } = period;
  const kept = await keptFile(pool, recurrence.id, dateDebut, dateFin);
  let outcome: FecRunOutcome;
  let content: Buffer;
  if (kept) {
    content = await readFile(path.join(options.dataDir, kept.path));
    outcome = { dateDebut, dateFin, ...kept, written: false, mails: 0 };
  } else {
    const fec = await companyFec(
      options.database,
      recurrence.societe,
      dateDebut,
      dateFin,
      toWireDate(now),
      await companyPlan(pool, recurrence.societe),
      // A recurrence cannot ask: its files hold the EUR sites; /fec says which are left out.
      { excludeForeign: true },
    );
    if (!fec) return { outcome: null, content: Buffer.alloc(0) };
    const first = fec.violations[0];
    if (first) throw new Error(`FecCheckFailed: entry ${first.entry}: ${first.rule}`);
    const relative = path.join(
      'fec',
      String(recurrence.societe),
      String(recurrence.id),
      `${dateDebut}_${dateFin}`,
      fec.fileName,
    );
    const absolute = path.join(options.dataDir, relative);
    await mkdir(path.dirname(absolute), { recursive: true });
    const temporary = `${absolute}.${randomUUID()}.tmp`;
    await writeFile(temporary, fec.bytes);
    await rename(temporary, absolute);
    const inserted = await pool.query(
      `INSERT INTO fec_files (company_id, recurrence_id, libelle, date_debut, date_fin, file_name, path, bytes, run_id,
                              excluded_sites)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)
       ON CONFLICT (recurrence_id, date_debut, date_fin) DO NOTHING`,
      [
        recurrence.societe,
        recurrence.id,
        recurrence.libelle,
        dateDebut,
        dateFin,
        fec.fileName,
        relative,
        fec.bytes.length,
        runId,
        JSON.stringify(fec.excludedSites),
      ],
    );
    content = fec.bytes;
    outcome = {
      dateDebut,
      dateFin,
      fileName: fec.fileName,
      path: relative,
      bytes: fec.bytes.length,
      written: inserted.rowCount === 1,
      mails: 0,
      excludedSites: fec.excludedSites,
    };
  }
  return { outcome, content };
}

/** The file kept for recurrence `id` and the period, or null. */
async function keptFile(
  db: Queryable,
  id: number,
  dateDebut: string,
  dateFin: string,
): Promise<{ fileName: string; path: string; bytes: number; excludedSites: ForeignSite[] | null } | null> {
  const { rows } = await db.query<{
    fileName: string;
    path: string;
    bytes: number;
    excludedSites: ForeignSite[] | null;
  }>(
    `SELECT file_name AS "fileName", path, bytes, excluded_sites AS "excludedSites" FROM fec_files
      WHERE recurrence_id = $1 AND date_debut = $2 AND date_fin = $3`,
    [id, dateDebut, dateFin],
  );
  return rows[0] ?? null;
}

/**
 * The `fec.recurrence.run` job: retried every 30 minutes, doubling, six times (about a day and a
 * half) while the period is not closed.
 */
export function fecRecurrenceJob(options: FecRecurrenceOptions): JobDefinition<FecRecurrenceRunData> {
  return {
    kind: FEC_RECURRENCE_RUN,
    retryLimit: 6,
    retryDelaySeconds: 1800,
    async run(data, ctx) {
      await runFecRecurrence(options, data, ctx);
    },
  };
}

type DueRow = DueRuleRow;

/**
 * The recurrence runs due in (`from`, `to`], each evaluated in its company's zone, with the
 * singleton key `fec:<id>:<plannedAt ISO>`. Pure over the database.
 */
export async function dueFecRecurrences(
  pool: pg.Pool,
  from: Date,
  to: Date,
): Promise<DueItem<FecRecurrenceRunData>[]> {
  const { rows } = await pool.query<DueRow>(
    `SELECT r.id, r.type, r.week_days AS jours, r.month_day AS "jourDuMois", r.last_day AS "dernierJour",
            r.hour AS heure, r.minute,
            (SELECT coalesce(array_agg(DISTINCT s.time_zone ORDER BY s.time_zone), '{}')
               FROM sites s WHERE s.company_id = r.company_id) AS zones
       FROM fec_recurrences r WHERE r.active ORDER BY r.id`,
  );
  const items: DueItem<FecRecurrenceRunData>[] = [];
  for (const row of rows) {
    for (const plannedAt of occurrencesBetween(row, subscriptionTimeZone(row.zones), from, to)) {
      const iso = plannedAt.toISOString();
      items.push({
        kind: FEC_RECURRENCE_RUN,
        data: { recurrenceId: row.id, plannedAt: iso },
        plannedAt,
        singletonKey: `fec:${row.id}:${iso}`,
      });
    }
  }
  return items.sort((a, b) => a.plannedAt.getTime() - b.plannedAt.getTime());
}

/** The due source the queue asks every minute. */
export const fecRecurrencesDueSource: DueSource = { name: 'fec-recurrences', due: dueFecRecurrences };

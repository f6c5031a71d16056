/**
 * Wire shapes of the archive-first empty and partial empty of the database (issue #30, SPEC.md
 * §7 `bo/emptyPartialDataBase?id&Site&debut&fin&commentaire` and `bo/emptyDataBase?id&commentaire`,
 * decision 0040). The comment is mandatory (SPEC.md §5: "emptying is irreversible and needs a
 * reason"); the form and the routes read the same {@link PurgeCommentSchema}.
 */
import { z } from 'zod';
import { parseWireDate } from './dates.ts';

/** Longest comment kept with a purge. */
export const MAX_PURGE_COMMENT = 500;

/** The reason of a purge: trimmed, 1 to {@link MAX_PURGE_COMMENT} characters. */
export const PurgeCommentSchema = z.string().trim().min(1).max(MAX_PURGE_COMMENT);

/** A `YYYY-MM-DD` fiscal date. */
export const PurgeDateSchema = z.string().refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date');

/** Row counts per archived table (tickets, ticket_lines, payments, losses, cash_counts, safe_counts, manager_receipts). */
export const PurgeRowCountsSchema = z.record(z.string(), z.number().int());

/** One site's purged period as an empty answers it. */
export const SitePurgeSchema = z.object({
  purgeId: z.number().int(),
  restaurantId: z.number().int(),
  debut: z.string().describe('first purged fiscal date, YYYY-MM-DD'),
  fin: z.string().describe('last purged fiscal date, YYYY-MM-DD (included)'),
  archive: z.string().describe('the archive file, relative to the data folder when under it'),
  manifest: z.string().describe('its manifest (SHA-256 of the file and of each table), beside it'),
  sha256: z.string().describe('SHA-256 of the archive file, hex'),
  bytes: z.number().int().describe('size of the archive file in bytes'),
  rows: PurgeRowCountsSchema.describe('rows archived then deleted, per table'),
});
export type SitePurge = z.infer<typeof SitePurgeSchema>;

/**
 * The answer of both calls: `code` the SPEC.md §8 success (EmptyOk or EmptyPartielOk) and the
 * sites purged (a site with no detail in the period is left out: nothing to archive).
 */
export const PurgeAnswerSchema = z.object({
  code: z.enum(['EmptyOk', 'EmptyPartielOk']),
  purges: z.array(SitePurgeSchema),
});
export type PurgeAnswer = z.infer<typeof PurgeAnswerSchema>;

/** Where a purge run stands (the job queue's run, `job_runs`). */
export const PURGE_RUN_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;

/**
 * One purge as the job queue runs it (decision 0040): both calls answer it as queued, and
 * `GET bo/purgeRuns` lists the caller's, newest first, so the screen shows where one stands and a
 * reload finds it again. `code` is the SPEC.md §8 success to show once SUCCEEDED; `erreur` the
 * §8 error code of a FAILED run (PurgeArchiveFailed: nothing deleted; InternalError otherwise).
 */
export const PurgeRunSchema = z.object({
  runId: z.string().describe('the run (job_runs id)'),
  code: z.enum(['EmptyOk', 'EmptyPartielOk']),
  statut: z.enum(PURGE_RUN_STATUSES),
  restaurantId: z.number().int().nullable().describe('the site of a partial empty; null for an empty'),
  debut: z.string().nullable(),
  fin: z.string().nullable(),
  planifie: z.string().describe('when it was queued (ISO 8601)'),
  termine: z.string().nullable().describe('when it ended (ISO 8601); null while queued or running'),
  erreur: z.string().nullable(),
  purges: z.array(SitePurgeSchema).describe('the purges done, once SUCCEEDED'),
});
export type PurgeRun = z.infer<typeof PurgeRunSchema>;

/** GET bo/purgeRuns: the caller's purge runs, newest first (at most 20). */
export const PurgeRunsSchema = z.array(PurgeRunSchema);

/**
 * What a report over a purged period says (DatasetSchema `archived`): per site and purged
 * period overlapping the report's, where the detail was archived and the grand totals kept
 * (integer cents; `tickets` counts SALE tickets) over the overlapping days.
 */
export const ArchivedPeriodSchema = z.object({
  restaurantId: z.number().int(),
  debut: z.string(),
  fin: z.string(),
  archive: z.string(),
  tickets: z.number().int(),
  netCents: z.number().int(),
  netExclCents: z.number().int(),
  taxCents: z.number().int(),
});
export type ArchivedPeriod = z.infer<typeof ArchivedPeriodSchema>;

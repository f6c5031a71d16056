/**
 * FEC recurrences (issue #29 "FEC recurrences", docs/decisions/0043): per company, a rule of the
 * report subscriptions' vocabulary (contract/subscriptions.ts: every day, Monday–Friday, chosen
 * week days, a day of the month, at a local time in the company's zone) and the period each run
 * exports (the previous month by default), optionally mailed to chosen addresses. Each run keeps
 * its file under DATA_DIR; `GET bo/fec/files` lists them, `GET bo/fec/file` downloads one.
 */
import { z } from 'zod';
import { FecForeignSiteSchema } from './fec.ts';
import { INT4_MAX } from './integers.ts';
import { LanguageSchema } from './reports.ts';
import { IsoWeekdaySchema, RULE_TYPES } from './subscriptions.ts';

const Id = z.number().int().positive().max(INT4_MAX);

/** What a run exports, relative to its planned day in the company's zone. */
export const FEC_PERIODS = ['PREVIOUS_MONTH', 'PREVIOUS_WEEK', 'PREVIOUS_DAY'] as const;
export type FecPeriod = (typeof FEC_PERIODS)[number];

/** The most recipients a recurrence mails. */
export const MAX_FEC_RECIPIENTS = 20;

const recurrenceShape = {
  libelle: z.string().trim().min(1).max(120),
  /** Rule type (subscriptions' vocabulary); MONTHLY by default. */
  type: z.enum(RULE_TYPES).default('MONTHLY'),
  /** WEEKLY: ISO week days (1 = Monday); at least one. */
  jours: z.array(IsoWeekdaySchema).max(7).default([]),
  /** MONTHLY: day of the month 1–28, unless `dernierJour`. */
  jourDuMois: z.number().int().min(1).max(28).nullable().default(1),
  /** MONTHLY: the last day of each month. */
  dernierJour: z.boolean().default(false),
  /** Local hour and minute of the run, in the company's zone. */
  heure: z.number().int().min(0).max(23).default(6),
  minute: z.number().int().min(0).max(59).default(0),
  periode: z.enum(FEC_PERIODS).default('PREVIOUS_MONTH'),
  /** Addresses the file is mailed to (none: kept only). */
  destinataires: z.array(z.string().trim().email().max(254)).max(MAX_FEC_RECIPIENTS).default([]),
  /** Language of the mails. */
  langue: LanguageSchema.default('fr'),
  active: z.boolean().default(true),
};

/** A weekly rule names a day; a monthly rule a day of the month or the last day. */
function checkRule(
  r: { type: string; jours: number[]; jourDuMois: number | null; dernierJour: boolean },
  ctx: z.RefinementCtx,
): void {
  if (r.type === 'WEEKLY' && r.jours.length === 0)
    ctx.addIssue({ code: 'custom', path: ['jours'], message: 'a weekly rule needs at least one day' });
  if (r.type === 'MONTHLY' && r.jourDuMois === null && !r.dernierJour)
    ctx.addIssue({
      code: 'custom',
      path: ['jourDuMois'],
      message: 'a monthly rule needs a day or dernierJour',
    });
}

/** Body of `POST bo/fec/saveRecurrence?id&societe`: with `id` replaces that recurrence, else creates. */
export const FecRecurrenceInputSchema = z
  .object({ id: Id.optional(), ...recurrenceShape })
  .superRefine(checkRule);
export type FecRecurrenceInput = z.input<typeof FecRecurrenceInputSchema>;
export type FecRecurrenceFields = z.output<typeof FecRecurrenceInputSchema>;

/** Where a run stands (job_runs status, upper case), `null` before the first run. */
export const FecRunStatusSchema = z.enum(['QUEUED', 'RUNNING', 'RETRYING', 'SUCCEEDED', 'FAILED']);

/** One run of a recurrence as the screens show it. */
export const FecRunSchema = z.object({
  runId: z.string().describe('job_runs id (uuid)'),
  planifie: z.string().describe('planned instant, ISO 8601'),
  statut: FecRunStatusSchema,
  tentatives: z.number().int(),
  mails: z.number().int(),
  erreur: z.string().nullable().describe('why the last try failed, e.g. the period is not closed yet'),
});
export type FecRun = z.infer<typeof FecRunSchema>;

/** A saved recurrence with its newest run. */
export const FecRecurrenceSchema = z.object({
  id: Id,
  societe: Id,
  ...recurrenceShape,
  jourDuMois: z.number().int().nullable(),
  dernierEnvoi: FecRunSchema.nullable(),
});
export type FecRecurrence = z.infer<typeof FecRecurrenceSchema>;

/** `GET bo/fec/recurrences`. */
export const FecRecurrencesAnswerSchema = z.object({ recurrences: z.array(FecRecurrenceSchema) });
export type FecRecurrencesAnswer = z.infer<typeof FecRecurrencesAnswerSchema>;

/** One generated file of a company, with the run that produced it. */
export const FecFileSchema = z.object({
  id: Id,
  recurrenceId: Id.nullable().describe('null once the recurrence is removed (the file stays)'),
  libelle: z.string().describe("the recurrence's name when the file was made"),
  dateDebut: z.string().describe('first fiscal date, YYYY-MM-DD'),
  dateFin: z.string().describe('last fiscal date, YYYY-MM-DD'),
  nom: z.string().describe('file name, <SIREN>FEC<AAAAMMJJ>.txt'),
  octets: z.number().int(),
  cree: z.string().describe('when it was written, ISO 8601'),
  sitesExclus: z
    .array(FecForeignSiteSchema)
    .nullable()
    .describe(
      "the company's sites not kept in EUR, so not in the file (decision 0037); null for a file kept before they were recorded",
    ),
  run: FecRunSchema.nullable(),
});
export type FecFile = z.infer<typeof FecFileSchema>;

/** `GET bo/fec/files`: newest first. */
export const FecFilesAnswerSchema = z.object({ fichiers: z.array(FecFileSchema) });
export type FecFilesAnswer = z.infer<typeof FecFilesAnswerSchema>;

/** `POST bo/fec/runRecurrenceNow`: the queued run. */
export const FecRunNowAnswerSchema = z.object({ runId: z.string(), statut: FecRunStatusSchema });

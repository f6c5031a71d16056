/**
 * Contract of the report editions and exports (issue #4 points 2 and 6; SPEC.md §3 "metrics
 * (editions)", §7 bo/getResultsChoices, bo/getGroupements, GET exports/status): what the exports
 * list (/analyses/listExports) and the report screen read. Dates are wire dates `YYYY-MM-DD`,
 * instants ISO 8601, sizes bytes.
 */
import { z } from 'zod';
import { LanguageSchema, REPORT_FORMATS, REPORT_VARIANTS } from './reports.ts';

/** Outcome of a generation: sent, empty (answered CheckReportParam), failed while rendering. */
export const EDITION_STATUSES = ['OK', 'EMPTY', 'FAILED'] as const;

/** One generated report (an edition) as the exports list shows it. */
export const EditionSchema = z.object({
  id: z.number().int(),
  className: z.string(),
  /** Title of the class in the request's language. */
  localisedTitle: z.string(),
  variant: z.enum(REPORT_VARIANTS),
  format: z.enum(REPORT_FORMATS),
  /** Language the report was generated in. */
  language: LanguageSchema,
  dateDebut: z.string(),
  dateFin: z.string(),
  /** Explicit fiscal dates (datefiscales[]), or null for the range. */
  fiscalDates: z.array(z.string()).nullable(),
  sites: z.array(z.object({ restaurantId: z.number().int(), libelle: z.string() })),
  /** Size of the document sent, in bytes; null when unknown (failed, or a stream cut short). */
  bytes: z.number().int().nullable(),
  /** Rows of the dataset. */
  rows: z.number().int().nullable(),
  status: z.enum(EDITION_STATUSES),
  /** Login of the user who generated it. */
  login: z.string(),
  generatedAt: z.string(),
});
export type Edition = z.infer<typeof EditionSchema>;

/** GET exports/list answer: editions, newest first. */
export const EditionsAnswerSchema = z.object({
  editions: z.array(EditionSchema),
  /** True when older editions exist beyond this page. */
  more: z.boolean(),
});
export type EditionsAnswer = z.infer<typeof EditionsAnswerSchema>;

/** State of a site for one fiscal date (GET exports/status). */
export const SITE_DATE_STATES = ['NO_DATA', 'RECEIVED', 'REPORTED'] as const;

/** One site's line of GET exports/status. */
export const ExportStatusSiteSchema = z.object({
  restaurantId: z.number().int(),
  libelle: z.string(),
  /** Tickets of that fiscal date (training mode left out). */
  tickets: z.number().int(),
  /** Net sales of that fiscal date, integer cents, in `currency`. */
  netCents: z.number().int(),
  currency: z.string(),
  /** First and last ticket opening of that fiscal date, or null without tickets. */
  firstTicketAt: z.string().nullable(),
  lastTicketAt: z.string().nullable(),
  /** Last load of sales data covering that date (import or demo), or null when none is recorded. */
  lastLoadAt: z.string().nullable(),
  /** Source of that load (`file:<name>`, `demo`), or null. */
  lastLoadSource: z.string().nullable(),
  /** Reports generated (status OK) whose period covers that date and site. */
  reports: z.number().int(),
  lastReportAt: z.string().nullable(),
  /** NO_DATA: no ticket; RECEIVED: tickets, no report yet; REPORTED: tickets and a report covering them. */
  state: z.enum(SITE_DATE_STATES),
});
export type ExportStatusSite = z.infer<typeof ExportStatusSiteSchema>;

/** GET exports/status?dateFiscale answer. */
export const ExportStatusAnswerSchema = z.object({
  dateFiscale: z.string(),
  sites: z.array(ExportStatusSiteSchema),
});
export type ExportStatusAnswer = z.infer<typeof ExportStatusAnswerSchema>;

/** A value with its label in the request's language. */
export const ChoiceSchema = z.object({ value: z.string(), label: z.string() });
export type Choice = z.infer<typeof ChoiceSchema>;

/** GET bo/getResultsChoices answer: what a class offers and the values its parameters accept. */
export const ResultsChoicesAnswerSchema = z.object({
  className: z.string(),
  localisedTitle: z.string(),
  variants: z.array(ChoiceSchema),
  formats: z.array(z.enum(REPORT_FORMATS)),
  maxDays: z.number().int(),
  /** Values of `operation` the class accepts (empty: any value, ignored). */
  operations: z.array(ChoiceSchema),
  /** Values of `filtre`: the dimensions or columns the class can be filtered by. */
  filtres: z.array(ChoiceSchema),
  /** Values of `tri`: its columns (append `:desc` to sort downwards). */
  tris: z.array(ChoiceSchema),
  /** Values of `regroupement`: what its rows can be grouped by. */
  regroupements: z.array(ChoiceSchema),
  /** `condition` values come from bo/getGroupements for the chosen filtre. */
  conditionsFrom: z.literal('bo/getGroupements'),
});
export type ResultsChoicesAnswer = z.infer<typeof ResultsChoicesAnswerSchema>;

/** GET bo/getGroupements answer: the values of a filtre present for a site and period. */
export const GroupementsAnswerSchema = z.object({
  filtre: z.string(),
  groupements: z.array(ChoiceSchema),
});
export type GroupementsAnswer = z.infer<typeof GroupementsAnswerSchema>;

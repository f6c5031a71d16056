/**
 * What a report class is (DESIGN.md §6) and what its query receives. A class declares its
 * name, title, parameters, maximum days, formats and variants, and answers a {@link Dataset};
 * everything around it (checking the request against the user's scope, rendering PDF, CSV,
 * XLSX, JSON) is generic and lives elsewhere in this folder.
 */
import type { z } from 'zod';
import type { Dataset, Language, ReportFormat, ReportVariant } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';

/** A site a report covers, as read from `sites` (ids are wire `restaurantId`s). */
export interface ReportSite {
  id: number;
  libelle: string;
  /** IANA zone of the site's clock; hour ranges are read in it. */
  timeZone: string;
  /** ISO 4217 currency of the site's amounts. */
  currency: string;
  /** Brand (enseigne) of the site's company, when known. */
  enseigne: string | null;
}

/** An hour range in site local time, minutes since midnight; `end < start` wraps past midnight. */
export interface HourRange {
  /** Included. */
  start: number;
  /** Excluded. */
  end: number;
}

/** Minutes since midnight → `HH:mm` (an {@link HourRange} bound as SQL and documents take it). */
export function minutesToHhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * The checked request a class query runs on (built by request.ts from SPEC.md §7's
 * bo/getReport parameters). The period is either `dateDebut..dateFin` (both included) or the
 * explicit list `fiscalDates` (datefiscales[]), in which case `dateDebut`/`dateFin` are its
 * first and last dates.
 */
export interface ReportRequest<P = unknown> {
  className: string;
  variant: ReportVariant;
  format: ReportFormat;
  language: Language;
  /** Sites in the user's scope, ascending id, all of the same currency. */
  sites: ReportSite[];
  currency: string;
  dateDebut: string;
  dateFin: string;
  /** Explicit fiscal dates (wire, ascending, distinct), or null for the range. */
  fiscalDates: string[] | null;
  /** Only tickets opened in this range of site local time (`trancheHoraire`), or null. */
  hours: HourRange | null;
  /** Terminal numbers (`tpv[]`); empty = every terminal. */
  terminals: number[];
  /** Seller codes (`vendeurs`); empty = every seller. */
  sellers: string[];
  /** Include training-mode tickets (`trainingMode=true`); excluded by default. */
  trainingMode: boolean;
  /** Class-specific parameters, parsed by the class's `params` schema. */
  params: P;
  /** Moment the report is generated (shown on documents). */
  generatedAt: Date;
}

/** What a class query receives: the request plus the database. */
export interface ReportContext<P = unknown> {
  request: ReportRequest<P>;
  database: Database;
}

/**
 * The raw class-specific parameters of bo/getReport (SPEC.md §7) that a class may give a
 * meaning to: `operation`, `filtre`, `condition`, `tri`, `regroupement`, `isFilters`.
 */
export interface RawClassParams {
  operation: string;
  filtre: string | undefined;
  condition: string[];
  tri: string | undefined;
  regroupement: string | undefined;
  isFilters: boolean;
}

/**
 * A report class. Adding one is one module exporting a `ReportClass` plus one line in
 * registry.ts.
 */
export interface ReportClass<P = unknown> {
  /** Wire `rapportClassName` (e.g. `RapportVentes`). */
  className: string;
  /** Message id of the title (`report.<className>.title`). */
  titleId: string;
  /** Message id of the download's base file name (`report.<className>.filename`, e.g. `ventes`). */
  fileNameId: string;
  /**
   * Parses the class-specific parameters (given as {@link RawClassParams}); a failure answers
   * 400 BadRequest. The class decides
   * which values it supports instead of silently ignoring one it cannot honour.
   */
  params: z.ZodType<P>;
  /** Longest period, in days, the class answers (SPEC.md §5 MaxReportDays). */
  maxDays: number;
  formats: readonly ReportFormat[];
  variants: readonly ReportVariant[];
  /** Computes the dataset (money cells integer cents), labels in `ctx.request.language`. */
  query(ctx: ReportContext<P>): Promise<Dataset>;
  /**
   * Optional streamed form of {@link query} for classes whose rows grow with the data (one per
   * ticket…), used for CSV and XLSX (DESIGN.md §6 "Large outputs stream"): the same columns,
   * rows and totals, read from a PostgreSQL cursor in batches as the answer is written, so the
   * memory used does not grow with the number of rows.
   */
  stream?(ctx: ReportContext<P>): Promise<DatasetStream>;
}

/** A row of a dataset (cells keyed by column key; money in integer cents). */
export type DatasetRow = Dataset['rows'][number];

/**
 * A dataset whose rows arrive in batches (see {@link ReportClass.stream}). `rows` can be
 * iterated once; leaving the iteration early (`return()`, as a destroyed answer stream does)
 * releases the database connection. `totals()` is valid once the rows are exhausted.
 */
export interface DatasetStream {
  /** Everything of the dataset but its rows and totals. */
  head: Omit<Dataset, 'rows' | 'totals'>;
  /** Rows in display order, in batches (a batch is never empty). */
  rows: AsyncIterable<DatasetRow[]>;
  /** Totals of every row read; call after `rows` is exhausted. */
  totals(): Dataset['totals'];
}

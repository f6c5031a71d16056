/**
 * Reads of /rapports through TanStack Query (DESIGN.md §8: one key factory per domain): the report
 * classes and what a class offers (lib/report-class-queries.ts, shared with /configFavoris), the
 * values a filter may keep (`GET bo/getGroupements`) and the on-screen preview, `GET bo/getReport`
 * with `format=JSON` (DESIGN.md §6 dataset).
 */
import { queryOptions } from '@tanstack/react-query';
import { GroupementsAnswerSchema } from '../../../contract/exports.ts';
import { DatasetAnswerSchema, type Language } from '../../../contract/reports.ts';
import { getJson, type SearchParams } from '../../lib/http.ts';
import { reportClassQueries } from '../../lib/report-class-queries.ts';

/** bo/getReport, or its single-site variant (SPEC.md §7 "a single-site variant exists"). */
export type ReportPath = 'bo/getReport' | 'bo/getReportSite';

export const reportQueries = {
  ...reportClassQueries,
  /**
   * GET bo/getGroupements — the values of `filtre` present in the data of the user's sites over
   * the period (families, VAT rates, payment methods, terminals, sellers), labelled in `language`.
   */
  groupements: (
    userId: number,
    className: string,
    filtre: string,
    range: { dateDebut: string; dateFin: string },
    language: Language,
  ) =>
    queryOptions({
      queryKey: [...reportQueries.all(), userId, 'groupements', className, filtre, range, language] as const,
      queryFn: () =>
        getJson('bo/getGroupements', GroupementsAnswerSchema, {
          id: userId,
          rapportGeneralClassName: className,
          filtre,
          dateDebut: range.dateDebut,
          dateFin: range.dateFin,
          language,
        }),
      staleTime: 5 * 60_000,
    }),
  /**
   * GET bo/getReport (or its single-site variant bo/getReportSite, `path`) with the given
   * parameters and `format=JSON`: the dataset shown on screen. Never retried: a report is heavy,
   * and a refused one (MaxReportDays, multiSitesTooMuch…) stays refused.
   */
  preview: (params: SearchParams, path: ReportPath = 'bo/getReport') =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'preview', path, params] as const,
      queryFn: () => getJson(path, DatasetAnswerSchema, { ...params, format: 'JSON' }),
      retry: false,
      staleTime: 60_000,
    }),
};

/**
 * Reads of /rapports through TanStack Query (DESIGN.md §8: one key factory per domain):
 * the report classes of `GET bo/rapport/metrics` (titles already translated by the server in
 * `language`), what a class offers (`GET bo/getResultsChoices`) and the on-screen preview, `GET bo/getReport` with `format=JSON` (DESIGN.md §6 dataset).
 */
import { queryOptions } from '@tanstack/react-query';
import { GroupementsAnswerSchema, ResultsChoicesAnswerSchema } from '../../../contract/exports.ts';
import { DatasetAnswerSchema, type Language, MetricsAnswerSchema } from '../../../contract/reports.ts';
import { getJson, type SearchParams } from '../../lib/http.ts';

export const reportQueries = {
  all: () => ['reports'] as const,
  /** GET bo/rapport/metrics?id&language — `editions`, one per report class the user may run. */
  metrics: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...reportQueries.all(), userId, 'metrics', language] as const,
      queryFn: () => getJson('bo/rapport/metrics', MetricsAnswerSchema, { id: userId, language }),
      staleTime: 30 * 60_000,
      select: (answer) => answer.editions,
    }),
  /**
   * GET bo/getResultsChoices?id&RapportGeneralClassName&language — what a class offers: its sort
   * columns (`tris`) and groupings (`regroupements`) with translated labels.
   */
  choices: (userId: number, className: string, language: Language) =>
    queryOptions({
      queryKey: [...reportQueries.all(), userId, 'choices', className, language] as const,
      queryFn: () =>
        getJson('bo/getResultsChoices', ResultsChoicesAnswerSchema, {
          id: userId,
          RapportGeneralClassName: className,
          language,
        }),
      staleTime: 30 * 60_000,
    }),
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
   * GET bo/getReport with the given parameters and `format=JSON`: the dataset shown on screen.
   * Never retried: a report is heavy, and a refused one (MaxReportDays…) stays refused.
   */
  preview: (params: SearchParams) =>
    queryOptions({
      queryKey: [...reportQueries.all(), 'preview', params] as const,
      queryFn: () => getJson('bo/getReport', DatasetAnswerSchema, { ...params, format: 'JSON' }),
      retry: false,
      staleTime: 60_000,
    }),
};

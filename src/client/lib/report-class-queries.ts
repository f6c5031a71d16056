/**
 * Reads of the report classes through TanStack Query, shared by /rapports and /configFavoris
 * (DESIGN.md §8): the classes of `GET bo/rapport/metrics` (titles already translated by the
 * server in `language`) and what a class offers (`GET bo/getResultsChoices`). Their keys sit under
 * `['reports']`, the key of features/reports' factory, which spreads this one: both screens read
 * and invalidate the same cache entries.
 */
import { queryOptions } from '@tanstack/react-query';
import { ResultsChoicesAnswerSchema } from '../../contract/exports.ts';
import { type Language, MetricsAnswerSchema } from '../../contract/reports.ts';
import { getJson } from './http.ts';

/** Query options of the report classes (key factory: `all` is the prefix of every key). */
export const reportClassQueries = {
  all: () => ['reports'] as const,
  /** GET bo/rapport/metrics?id&language — `editions`, one per report class the user may run. */
  metrics: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...reportClassQueries.all(), userId, 'metrics', language] as const,
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
      queryKey: [...reportClassQueries.all(), userId, 'choices', className, language] as const,
      queryFn: () =>
        getJson('bo/getResultsChoices', ResultsChoicesAnswerSchema, {
          id: userId,
          RapportGeneralClassName: className,
          language,
        }),
      staleTime: 30 * 60_000,
    }),
};

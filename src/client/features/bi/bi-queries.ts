/**
 * Reads of /bi (issue #19): GET bo/bi/explore, as JSON for the screen and as a CSV or XLSX
 * attachment for the export (the server writes it with the reports' own writers). Labels come
 * translated from the server in the interface's language, so the screen and the files agree.
 */
import { queryOptions } from '@tanstack/react-query';
import {
  BiExploreAnswerSchema,
  type BiComparison,
  type BiDimension,
  type BiMeasure,
} from '../../../contract/bi.ts';
import type { DateRange } from '../../../contract/periods.ts';
import type { Language } from '../../../contract/reports.ts';
import { download, getJson, type SearchParams } from '../../lib/http.ts';

/** What the explorer is asked for. */
export interface ExploreInput {
  userId: number;
  siteIds: readonly number[];
  range: DateRange;
  measure: BiMeasure;
  dimension1: BiDimension | null;
  dimension2: BiDimension | null;
  comparison: BiComparison;
  language: Language;
}

/** Query parameters of GET bo/bi/explore (wire names of contract/bi.ts). */
export function buildExploreParams(
  input: ExploreInput,
  format: 'JSON' | 'CSV' | 'XLSX' = 'JSON',
): SearchParams {
  return {
    id: input.userId,
    sites: input.siteIds.join(','),
    dateDebut: input.range.dateDebut,
    dateFin: input.range.dateFin,
    measure: input.measure,
    dimension1: input.dimension1 ?? undefined,
    dimension2: input.dimension2 ?? undefined,
    comparison: input.comparison,
    language: input.language,
    format: format === 'JSON' ? undefined : format,
  };
}

export const biQueries = {
  all: () => ['bi'] as const,
  /** GET bo/bi/explore — money in cents; rows in reading order. */
  explore: (input: ExploreInput) =>
    queryOptions({
      queryKey: [...biQueries.all(), input.userId, 'explore', buildExploreParams(input)] as const,
      queryFn: () => getJson('bo/bi/explore', BiExploreAnswerSchema, buildExploreParams(input)),
      select: (answer) => answer.data,
      staleTime: 60_000,
    }),
};

/** The explorer's answer as a file (`format`), with the server's file name. Throws ApiFailure. */
export function downloadExplore(
  input: ExploreInput,
  format: 'CSV' | 'XLSX',
): Promise<{ blob: Blob; filename: string }> {
  return download('bo/bi/explore', buildExploreParams(input, format), () => undefined);
}

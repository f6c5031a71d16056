/**
 * Reads of /totalKPI (issue #19): GET bo/bi/totalKPI, the chain's key figures for the chosen sites
 * and period, by company, group and site, with the year before and the forecast.
 */
import { queryOptions } from '@tanstack/react-query';
import { BiKpiAnswerSchema } from '../../../contract/bi.ts';
import type { DateRange } from '../../../contract/periods.ts';
import { getJson, type SearchParams } from '../../lib/http.ts';

/** What the key figures are asked for. */
export interface KpiInput {
  userId: number;
  siteIds: readonly number[];
  range: DateRange;
}

/** Query parameters of GET bo/bi/totalKPI. */
export function buildKpiParams(input: KpiInput): SearchParams {
  return {
    id: input.userId,
    sites: input.siteIds.join(','),
    dateDebut: input.range.dateDebut,
    dateFin: input.range.dateFin,
  };
}

export const kpiQueries = {
  all: () => ['kpi'] as const,
  /** GET bo/bi/totalKPI — amounts in cents, rates as fractions. */
  totals: (input: KpiInput) =>
    queryOptions({
      queryKey: [...kpiQueries.all(), input.userId, buildKpiParams(input)] as const,
      queryFn: () => getJson('bo/bi/totalKPI', BiKpiAnswerSchema, buildKpiParams(input)),
      staleTime: 60_000,
    }),
};

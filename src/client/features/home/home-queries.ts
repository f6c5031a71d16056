/**
 * Reads of /home (SPEC.md §7 "GET bo/home/{widget}"): the `ventes` widget gives sales per fiscal
 * date for the chosen sites. `sites` travels comma-separated, `datePerso` is the reference day
 * (wire date) and `exploitant` the user's operator code when they have one (SPEC.md §6).
 */
import { queryOptions } from '@tanstack/react-query';
import { HomeSalesAnswerSchema } from '../../../contract/home.ts';
import { getJson, type SearchParams } from '../../lib/http.ts';

/** What the sales widget is asked for. */
export interface HomeSalesInput {
  userId: number;
  /** Effective sites (restaurantId), ascending. */
  siteIds: readonly number[];
  /** Reference day, wire YYYY-MM-DD (today). */
  datePerso: string;
  /** The user's codeExploitant, or null. */
  exploitant: string | null;
}

/** Query parameters of GET bo/home/ventes (SPEC.md §7): `exploitant` only when the user has one. */
export function buildHomeSalesParams(input: HomeSalesInput): SearchParams {
  return {
    id: input.userId,
    sites: input.siteIds.join(','),
    datePerso: input.datePerso,
    exploitant: input.exploitant ?? undefined,
  };
}

export const homeQueries = {
  all: () => ['home'] as const,
  /** GET bo/home/ventes — amounts in cents, one entry per fiscal date. Refreshed every 5 minutes (today moves). */
  sales: (input: HomeSalesInput) =>
    queryOptions({
      queryKey: [
        ...homeQueries.all(),
        input.userId,
        'ventes',
        input.siteIds,
        input.datePerso,
        input.exploitant,
      ] as const,
      queryFn: () => getJson('bo/home/ventes', HomeSalesAnswerSchema, buildHomeSalesParams(input)),
      select: (answer) => answer.data,
      staleTime: 60_000,
      refetchInterval: 5 * 60_000,
    }),
};

/**
 * Reads of /tracker (issue #19): GET bo/bi/tracker, today's sales hour by hour per site. Asked
 * again every minute while the page is visible: TanStack Query's interval stops while the
 * document is hidden (refetchIntervalInBackground false) and a refetch runs when it shows again.
 */
import { queryOptions } from '@tanstack/react-query';
import { BiTrackerAnswerSchema } from '../../../contract/bi.ts';
import { getJson, type SearchParams } from '../../lib/http.ts';

/** How often the tracker is asked again while visible, in milliseconds. */
export const TRACKER_REFRESH_MS = 60_000;

/** What the tracker is asked for. */
export interface TrackerInput {
  userId: number;
  siteIds: readonly number[];
}

/** Query parameters of GET bo/bi/tracker. */
export function buildTrackerParams(input: TrackerInput): SearchParams {
  return { id: input.userId, sites: input.siteIds.join(',') };
}

export const trackerQueries = {
  all: () => ['tracker'] as const,
  /** GET bo/bi/tracker — amounts in cents, sites ranked by today's sales. */
  today: (input: TrackerInput) =>
    queryOptions({
      queryKey: [...trackerQueries.all(), input.userId, input.siteIds] as const,
      queryFn: () => getJson('bo/bi/tracker', BiTrackerAnswerSchema, buildTrackerParams(input)),
      select: (answer) => answer.data,
      refetchInterval: TRACKER_REFRESH_MS,
      refetchIntervalInBackground: false,
      refetchOnWindowFocus: true,
      staleTime: TRACKER_REFRESH_MS / 2,
    }),
};

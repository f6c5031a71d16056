/**
 * Reads of /home (SPEC.md §7 "GET bo/home/{widget}", contract/home.ts): one query per widget,
 * all with the same parameters — `sites` comma-separated, `datePerso` the reference fiscal date
 * (wire date) and `exploitant` the user's operator code when they have one (SPEC.md §6).
 *
 * These queries are the dashboard's, persisted across reloads by lib/query-client.ts (their key
 * starts with {@link HOME_QUERY_ROOT}; decision 0021) so the page paints from the last answers
 * at once and refreshes behind them.
 */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  HomeEventsAnswerSchema,
  HomeForecastAnswerSchema,
  HomeSafeAnswerSchema,
  HomeSalesAnswerSchema,
  type HomeWidget,
} from '../../../contract/home.ts';
import { OFFLINE_COPY_HEADER } from '../../lib/outbox/offline-copy-protocol.ts';
import { HOME_QUERY_ROOT } from '../../lib/query-client.ts';
import { http, type SearchParams, toApiFailure, toSearchParams } from '../../lib/http.ts';

/** What every widget is asked for. */
export interface HomeSalesInput {
  userId: number;
  /** Effective sites (restaurantId), ascending. */
  siteIds: readonly number[];
  /** Reference day, wire YYYY-MM-DD (today unless the user chose another). */
  datePerso: string;
  /** The user's codeExploitant, or null. */
  exploitant: string | null;
}
export type HomeWidgetInput = HomeSalesInput;

/** Query parameters of GET bo/home/{widget} (SPEC.md §7): `exploitant` only when the user has one. */
export function buildHomeSalesParams(input: HomeWidgetInput): SearchParams {
  return {
    id: input.userId,
    sites: input.siteIds.join(','),
    datePerso: input.datePerso,
    exploitant: input.exploitant ?? undefined,
  };
}

/**
 * Today moves: figures are asked for each time a card shows — even when the cache holds recent
 * ones, which it paints meanwhile (decision 0021), and even once the site choice has loaded
 * after the first paint — and every 5 minutes while shown.
 */
const LIVE = {
  staleTime: 0,
  refetchInterval: 5 * 60_000,
  // Asked even offline: the service worker answers from its copy, which the card then names.
  networkMode: 'always',
} as const;

/** A widget's answer, and when it comes from the service worker's offline copy, the ISO date of that copy. */
export type WidgetAnswer<T> = T & { offlineCopyOf: string | null };

/**
 * GET bo/home/{widget}, its JSON checked with `schema`, with the offline copy's date when the
 * service worker answered from its copy (header {@link OFFLINE_COPY_HEADER}).
 * @throws ApiFailure on any failure; a ZodError when the answer breaks the contract.
 */
async function getWidget<T>(
  widget: HomeWidget,
  schema: z.ZodType<T>,
  input: HomeWidgetInput,
): Promise<WidgetAnswer<T>> {
  try {
    const response = await http.get(`bo/home/${widget}`, {
      searchParams: toSearchParams(buildHomeSalesParams(input)),
    });
    const answer = schema.parse(await response.json<unknown>());
    return { ...answer, offlineCopyOf: response.headers.get(OFFLINE_COPY_HEADER) };
  } catch (e) {
    throw toApiFailure(e);
  }
}

function widgetQuery<T extends { data: object }>(
  widget: HomeWidget,
  schema: z.ZodType<T>,
  input: HomeWidgetInput,
) {
  return queryOptions({
    queryKey: [
      ...homeQueries.all(),
      input.userId,
      widget,
      input.siteIds,
      input.datePerso,
      input.exploitant,
    ] as const,
    queryFn: () => getWidget(widget, schema, input),
    select: (answer: WidgetAnswer<T>) =>
      ({ ...answer.data, offlineCopyOf: answer.offlineCopyOf }) as WidgetAnswer<T['data']>,
    ...LIVE,
  });
}

export const homeQueries = {
  all: () => [HOME_QUERY_ROOT] as const,
  /** GET bo/home/ventes — cents; datePerso-1 and datePerso, last year, day parts. */
  sales: (input: HomeWidgetInput) => widgetQuery('ventes', HomeSalesAnswerSchema, input),
  /** GET bo/home/coffre — the safe, cash counts and receipts parts the user's rights allow. */
  safe: (input: HomeWidgetInput) => widgetQuery('coffre', HomeSafeAnswerSchema, input),
  /** GET bo/home/previsions — datePerso and 7 days per site, with reliability. */
  forecast: (input: HomeWidgetInput) => widgetQuery('previsions', HomeForecastAnswerSchema, input),
  /** GET bo/home/evenements — local events of the next 14 days. */
  events: (input: HomeWidgetInput) => widgetQuery('evenements', HomeEventsAnswerSchema, input),
};

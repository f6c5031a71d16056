/**
 * Calls of the events calendar (src/contract/events.ts, src/contract/forecast.ts): the events of
 * a period and the forecast of its days through TanStack Query (one key factory), and the three
 * writes as mutation hooks. An event changes the forecast of its days (the server applies its
 * impact), so every write refreshes both by the factory's prefix. Adding answers SPEC.md §8's
 * `eventAdded`, changing `eventEdited`, deleting `SuccessMod`. Writes need the network: the
 * calendar is read offline from the service worker's copies, but nothing is queued.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  EventConfigurationAnswerSchema,
  type LocalEvent,
  type LocalEventInput,
  LocalEventSchema,
} from '../../../contract/events.ts';
import { ForecastAnswerSchema } from '../../../contract/forecast.ts';
import { getJson, http, toApiFailure } from '../../lib/http.ts';
import { notify, notifyFailure } from '../../lib/notifications.ts';
import { queryClient } from '../../lib/query-client.ts';

/** What the calendar reads: the caller, the chosen sites (ascending) and a period (wire dates, inclusive). */
export interface CalendarPeriod {
  userId: number;
  siteIds: readonly number[];
  dateDebut: string;
  dateFin: string;
}

const BASE = 'withCredentials/collab';

export const eventQueries = {
  all: () => ['events'] as const,
  /** GET configurationEvenements — the form's choices and the events overlapping the period. */
  calendar: (p: CalendarPeriod) =>
    queryOptions({
      queryKey: [...eventQueries.all(), 'calendar', p.userId, p.siteIds, p.dateDebut, p.dateFin] as const,
      queryFn: () =>
        getJson(`${BASE}/configurationEvenements`, EventConfigurationAnswerSchema, {
          id: p.userId,
          sites: p.siteIds,
          dateDebut: p.dateDebut,
          dateFin: p.dateFin,
        }),
      select: (answer) => answer.data,
      staleTime: 30_000,
    }),
  /** GET previsions — forecast, actual sales and reliability of each day of the period, per site. */
  forecast: (p: CalendarPeriod) =>
    queryOptions({
      queryKey: [...eventQueries.all(), 'forecast', p.userId, p.siteIds, p.dateDebut, p.dateFin] as const,
      queryFn: () =>
        getJson(`${BASE}/previsions`, ForecastAnswerSchema, {
          id: p.userId,
          sites: p.siteIds,
          dateDebut: p.dateDebut,
          dateFin: p.dateFin,
        }),
      select: (answer) => answer.data,
      staleTime: 5 * 60_000,
    }),
};

/**
 * PUT addEvenementLocal (no `uuid_evt`) or POST changeEvenementLocal (with it).
 * @throws ApiFailure (BadRequest / dateFinTooEarly with `details.field`, Forbidden, NotFound,
 *   Network Error…).
 */
export async function saveEvent(input: LocalEventInput): Promise<LocalEvent> {
  try {
    const request = input.uuid_evt
      ? http.post(`${BASE}/changeEvenementLocal`, { json: input })
      : http.put(`${BASE}/addEvenementLocal`, { json: input });
    return LocalEventSchema.parse(await request.json<unknown>());
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** DELETE deleteEvenementLocal?evenement=uuid. @throws ApiFailure (NotFound, Forbidden, Network Error…). */
export async function deleteEvent(uuid: string): Promise<void> {
  try {
    await http.delete(`${BASE}/deleteEvenementLocal`, { searchParams: { evenement: uuid } }).json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
}

function refreshCalendar(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: eventQueries.all() });
}

/**
 * Adds or changes an event; tells `eventAdded` / `eventEdited` and refreshes the calendar. The
 * form awaits `mutateAsync` and shows a refusal itself (at its field), so no notification then.
 */
export function useSaveEventMutation() {
  return useMutation({
    mutationFn: saveEvent,
    onSuccess: async (_saved, input) => {
      notify.success(input.uuid_evt ? 'eventEdited' : 'eventAdded');
      await refreshCalendar();
    },
  });
}

/** Deletes an event; tells `SuccessMod` or the failure, and refreshes the calendar. */
export function useDeleteEventMutation() {
  return useMutation({
    mutationFn: deleteEvent,
    onSuccess: async () => {
      notify.success('SuccessMod');
      await refreshCalendar();
    },
    onError: async (error) => {
      notifyFailure(error);
      await refreshCalendar();
    },
  });
}

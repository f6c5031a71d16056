/**
 * Calls of the alerts section (src/contract/alerts.ts, issue #28 "Alerts"): the list, save,
 * remove and "check now" (POST with an Idempotency-Key), and the rules and recipients an alert
 * names (the subscriptions' rows, read here so the feature stands on its own). A write refreshes
 * the alerts.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type Alert,
  AlertCheckAnswerSchema,
  type AlertSaveBody,
  AlertSchema,
  AlertsAnswerSchema,
} from '../../../contract/alerts.ts';
import { RecipientsAnswerSchema, RulesAnswerSchema } from '../../../contract/subscriptions.ts';
import { ApiFailure, getJson, http, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

function userId(): number {
  const user = session.user;
  if (!user) throw new ApiFailure('NoConnectedUser', null);
  return user.id;
}

const BASE = 'bo/recurrences';

/** Query-key factory; `all()` is the prefix every write invalidates. */
export const alertQueries = {
  all: () => ['alerts'] as const,
  list: (id: number) =>
    queryOptions({
      queryKey: [...alertQueries.all(), id, 'list'] as const,
      queryFn: async () => (await getJson(`${BASE}/alertes`, AlertsAnswerSchema, { id })).alertes,
    }),
  rules: (id: number) =>
    queryOptions({
      queryKey: [...alertQueries.all(), id, 'rules'] as const,
      queryFn: async () => (await getJson(`${BASE}/regles`, RulesAnswerSchema, { id })).regles,
    }),
  recipients: (id: number) =>
    queryOptions({
      queryKey: [...alertQueries.all(), id, 'recipients'] as const,
      queryFn: async () =>
        (await getJson(`${BASE}/destinataires`, RecipientsAnswerSchema, { id })).destinataires,
    }),
};

/** POST `path?id[&params]` with `body`, the answer checked by `schema`. @throws ApiFailure. */
async function post<T>(
  path: string,
  schema: z.ZodType<T>,
  body?: object,
  params: Record<string, number> = {},
) {
  try {
    const answer = await http
      .post(`${BASE}/${path}`, {
        searchParams: toSearchParams({ id: userId(), ...params }),
        ...(body ? { json: body } : {}),
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      })
      .json<unknown>();
    return schema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

export const saveAlert = (body: AlertSaveBody): Promise<Alert> => post('alertes/save', AlertSchema, body);
export const removeAlert = async (alerteId: number): Promise<void> => {
  await post('alertes/remove', z.object({ id: z.number() }), undefined, { alerteId });
};
/** "Check now": how many mails the check asked for. */
export const checkAlertNow = (alerteId: number) =>
  post('alertes/check', AlertCheckAnswerSchema, undefined, { alerteId });

/** A mutation of `run` that refreshes the alerts afterwards. */
export function useAlertMutation<A, R>(run: (arg: A) => Promise<R>) {
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueries.all() }),
  });
}

/**
 * Calls of the report e-mail screens (/config/recurrences, /abonnements, the reports page's
 * "send this regularly"; src/contract/subscriptions.ts): the three lists, their writes (POST
 * with an Idempotency-Key), "send now", the preview and a subscription's run history. A write
 * refreshes every list (one prefix), since a subscription names rules and recipients.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type Recipient,
  type RecipientSaveBody,
  RecipientSchema,
  RecipientsAnswerSchema,
  type Rule,
  type RuleSaveBody,
  RuleSchema,
  RulesAnswerSchema,
  type Subscription,
  SubscriptionPreviewSchema,
  type SubscriptionRun,
  SubscriptionRunSchema,
  SubscriptionRunsAnswerSchema,
  type SubscriptionSaveBody,
  SubscriptionSchema,
  SubscriptionsAnswerSchema,
} from '../../../contract/subscriptions.ts';
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
export const subscriptionQueries = {
  all: () => ['subscriptions'] as const,
  rules: (id: number) =>
    queryOptions({
      queryKey: [...subscriptionQueries.all(), id, 'rules'] as const,
      queryFn: async () => (await getJson(`${BASE}/regles`, RulesAnswerSchema, { id })).regles,
    }),
  recipients: (id: number) =>
    queryOptions({
      queryKey: [...subscriptionQueries.all(), id, 'recipients'] as const,
      queryFn: async () =>
        (await getJson(`${BASE}/destinataires`, RecipientsAnswerSchema, { id })).destinataires,
    }),
  list: (id: number) =>
    queryOptions({
      queryKey: [...subscriptionQueries.all(), id, 'list'] as const,
      queryFn: async () =>
        (await getJson(`${BASE}/abonnements`, SubscriptionsAnswerSchema, { id })).abonnements,
    }),
  runs: (id: number, abonnementId: number) =>
    queryOptions({
      queryKey: [...subscriptionQueries.all(), id, 'runs', abonnementId] as const,
      queryFn: async () =>
        (await getJson(`${BASE}/abonnements/envois`, SubscriptionRunsAnswerSchema, { id, abonnementId }))
          .envois,
    }),
};

/** POST `path?id[&params]` with `body`, the answer checked by `schema`. @throws ApiFailure. */
async function post<T>(
  path: string,
  schema: z.ZodType<T>,
  body?: object,
  params: Record<string, number> = {},
): Promise<T> {
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

export const saveRule = (body: RuleSaveBody): Promise<Rule> => post('regles/save', RuleSchema, body);
export const saveRecipient = (body: RecipientSaveBody): Promise<Recipient> =>
  post('destinataires/save', RecipientSchema, body);
export const saveSubscription = (body: SubscriptionSaveBody): Promise<Subscription> =>
  post('abonnements/save', SubscriptionSchema, body);

/** What a removal names. */
export type Removal =
  | { kind: 'regles'; regleId: number }
  | { kind: 'destinataires'; destinataireId: number }
  | { kind: 'abonnements'; abonnementId: number };

/** Removes a rule, a recipient or a subscription. */
export async function remove(removal: Removal): Promise<void> {
  const { kind, ...params } = removal;
  await post(`${kind}/remove`, z.object({ id: z.number() }), undefined, params as Record<string, number>);
}

/** "Send now": the run's outcome. */
export const sendNow = (abonnementId: number): Promise<SubscriptionRun> =>
  post('abonnements/send', SubscriptionRunSchema, undefined, { abonnementId });

/** The mail a subscription would send now, not sent. */
export const preview = (abonnementId: number) =>
  getJson(`${BASE}/abonnements/preview`, SubscriptionPreviewSchema, { id: userId(), abonnementId });

/** A mutation of `run` that refreshes every list afterwards. */
export function useRecurrenceMutation<A, R>(run: (arg: A) => Promise<R>) {
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: subscriptionQueries.all() }),
  });
}

/**
 * Calls of /config/rules (src/contract/counting.ts): GET bo/getListRules?id, the counting rules
 * of every site of the administrator's scope, and GET bo/updateRule?id&libelle&active[&site],
 * a GET that writes (sent with an Idempotency-Key). A change puts the server's answer (the changed
 * rules) in the cache at once, then refreshes the list.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { type Rule, type RuleLibelle, RulesAnswerSchema } from '../../../contract/counting.ts';
import { ApiFailure, getJson, http, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

function signedInUserId(): number {
  const user = session.user;
  if (!user) throw new ApiFailure('NoConnectedUser', null);
  return user.id;
}

/** Query-key factory of /config/rules; `all()` is the prefix a change invalidates. */
export const rulesAdminQueries = {
  all: () => ['rules-admin'] as const,
  /** GET bo/getListRules?id — every site's rules, ordered by site then rule. */
  list: (userId: number) =>
    queryOptions({
      queryKey: [...rulesAdminQueries.all(), userId, 'list'] as const,
      queryFn: () => getJson('bo/getListRules', RulesAnswerSchema, { id: userId }),
      staleTime: 30_000,
    }),
};

/** A change of one rule: on `site`, or on every site of the scope when `site` is null. */
export interface RuleChange {
  libelle: RuleLibelle;
  active: boolean;
  site: number | null;
}

/** GET bo/updateRule — answers the changed rules. @throws ApiFailure (Forbidden, Network Error…). */
export async function updateRule(change: RuleChange): Promise<Rule[]> {
  const id = signedInUserId();
  try {
    const answer = await http
      .get('bo/updateRule', {
        searchParams: toSearchParams({
          id,
          libelle: change.libelle,
          active: String(change.active),
          site: change.site ?? undefined,
        }),
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      })
      .json<unknown>();
    return RulesAnswerSchema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

/** `rules` with the `changed` ones replaced (same site and libelle). */
export function mergeRules(rules: readonly Rule[], changed: readonly Rule[]): Rule[] {
  const key = (r: Rule) => `${r.restaurantId}:${r.libelle}`;
  const byKey = new Map(changed.map((r) => [key(r), r]));
  return rules.map((r) => byKey.get(key(r)) ?? r);
}

/**
 * Changes a rule; the caller says how success and failure are told (`onSuccess`, `onError`).
 * The list in the cache takes the answer at once, then is refetched.
 */
export function useUpdateRuleMutation() {
  return useMutation({
    mutationFn: updateRule,
    onSuccess: async (changed) => {
      const key = rulesAdminQueries.list(signedInUserId()).queryKey;
      queryClient.setQueryData(key, (rules: Rule[] | undefined) =>
        rules ? mergeRules(rules, changed) : rules,
      );
      await queryClient.invalidateQueries({ queryKey: rulesAdminQueries.all() });
    },
  });
}

/**
 * The read of the "Needs attention" card of /home (`GET bo/attention?id`, contract/attention.ts,
 * decision 0045): one query per user, asked each time the card shows and every 5 minutes while
 * it does. Not kept by the service worker (not a listed read): offline, the card says it failed.
 */
import { queryOptions } from '@tanstack/react-query';
import { type AttentionAnswer, AttentionAnswerSchema } from '../../../contract/attention.ts';
import { http, toApiFailure, toSearchParams } from '../../lib/http.ts';

/**
 * GET bo/attention for user `userId`, its JSON checked against the contract.
 * @throws ApiFailure on any failure; a ZodError when the answer breaks the contract.
 */
async function getAttention(userId: number): Promise<AttentionAnswer> {
  try {
    const response = await http.get('bo/attention', { searchParams: toSearchParams({ id: userId }) });
    return AttentionAnswerSchema.parse(await response.json<unknown>());
  } catch (e) {
    throw toApiFailure(e);
  }
}

export const attentionQueries = {
  all: () => ['attention'] as const,
  /** The lines of user `userId`, newest failure first. */
  list: (userId: number) =>
    queryOptions({
      queryKey: [...attentionQueries.all(), userId] as const,
      queryFn: () => getAttention(userId),
      staleTime: 0,
      refetchInterval: 5 * 60_000,
    }),
};

/**
 * Calls of the guided start-up (issue #30, `/config/miseenroute`, contract/startup.ts, right
 * ACCES_BASE): where it stands (GET bo/miseEnRoute/etat) through TanStack Query (one key
 * factory), the test mail (POST bo/miseEnRoute/mailTest) and the end (SPEC.md §7 GET
 * bo/miseEnRoute, a GET that writes: sent with a fresh Idempotency-Key), and where a signing-in
 * user lands: the wizard while an installation without the demo chain is not started up.
 */
import { queryOptions } from '@tanstack/react-query';
import {
  type MiseEnRouteAnswer,
  MiseEnRouteAnswerSchema,
  type StartupMailTestAnswer,
  StartupMailTestAnswerSchema,
  StartupStateSchema,
} from '../../../contract/startup.ts';
import { getJson, http, toApiFailure, toSearchParams } from '../../lib/http.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/session.ts';

/** Query-key factory of the start-up, keyed by the signed-in user (the password step is theirs). */
export const startupQueries = {
  all: () => ['startup', session.user?.id ?? null] as const,
  /** GET bo/miseEnRoute/etat — each step done or not, and whether sign-in leads here. */
  state: () =>
    queryOptions({
      queryKey: [...startupQueries.all(), 'state'] as const,
      queryFn: () => getJson('bo/miseEnRoute/etat', StartupStateSchema, { id: session.user?.id }),
      staleTime: 0,
    }),
};

/**
 * POST bo/miseEnRoute/mailTest — queues a test mail to `email`, then reads the state again.
 * @throws ApiFailure `ErreurEnvoiMail` (the address's hourly quota), `Network Error`…
 */
export async function sendTestMail(email: string): Promise<StartupMailTestAnswer> {
  try {
    const answer = await http
      .post('bo/miseEnRoute/mailTest', {
        searchParams: toSearchParams({ id: session.user?.id }),
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        json: { email },
      })
      .json<unknown>();
    await queryClient.invalidateQueries({ queryKey: startupQueries.all() });
    return StartupMailTestAnswerSchema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

/**
 * GET bo/miseEnRoute — marks the start-up complete (SuccessMiseEnRoute), then reads the state again.
 * @throws ApiFailure `MiseEnRouteIncomplete` with `details.missing` (the steps not done).
 */
export async function finishStartup(): Promise<MiseEnRouteAnswer> {
  try {
    const answer = await http
      .get('bo/miseEnRoute', {
        searchParams: toSearchParams({ id: session.user?.id }),
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      })
      .json<unknown>();
    await queryClient.invalidateQueries({ queryKey: startupQueries.all() });
    return MiseEnRouteAnswerSchema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

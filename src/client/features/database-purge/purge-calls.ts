/**
 * The calls of the database purge section (issue #30, decision 0040): GET bo/emptyPartialDataBase
 * and GET bo/emptyDataBase, online only, each sent with its Idempotency-Key (a resend after a lost
 * answer replays the first purge's answer instead of purging again).
 */
import { queryOptions } from '@tanstack/react-query';
import { type PurgeRun, PurgeRunSchema, PurgeRunsSchema } from '../../../contract/purge.ts';
import { getJson } from '../../lib/http.ts';
import { sendKeyed } from '../../lib/request-keys.ts';

/** True while a run may still change (queued or running): the screen keeps asking. */
export function isPending(run: PurgeRun | undefined): boolean {
  return run?.statut === 'QUEUED' || run?.statut === 'RUNNING';
}

/** Query-key factory of the purge section: the user's purge runs, newest first (GET bo/purgeRuns). */
export const purgeQueries = {
  all: () => ['purge'] as const,
  runs: (userId: number) =>
    queryOptions({
      queryKey: [...purgeQueries.all(), userId, 'runs'] as const,
      queryFn: () => getJson('bo/purgeRuns', PurgeRunsSchema, { id: userId }),
      // Followed every second while the newest run is under way, so a reload follows it too.
      refetchInterval: (query) => (isPending(query.state.data?.[0]) ? 1_000 : false),
    }),
};

/** What the user asked: one site's period, or every site of their scope. */
export type PurgeRequest =
  | { kind: 'partial'; site: number; debut: string; fin: string; commentaire: string }
  | { kind: 'all'; commentaire: string };

/**
 * Sends `request` for user `userId` with Idempotency-Key `key`; resolves to the run, queued (the
 * job queue does the purge: {@link purgeQueries} follows it).
 * @throws ApiFailure InvalidField (commentaire), Forbidden, `Network Error`…
 */
export function sendPurge(userId: number, request: PurgeRequest, key: string): Promise<PurgeRun> {
  const params =
    request.kind === 'partial'
      ? {
          id: userId,
          Site: request.site,
          debut: request.debut,
          fin: request.fin,
          commentaire: request.commentaire,
        }
      : { id: userId, commentaire: request.commentaire };
  return sendKeyed({
    method: 'get',
    path: request.kind === 'partial' ? 'bo/emptyPartialDataBase' : 'bo/emptyDataBase',
    params,
    key,
    parse: (body) => PurgeRunSchema.parse(body),
  });
}

/**
 * The calls of the database purge section (issue #30, decision 0040): GET bo/emptyPartialDataBase
 * and GET bo/emptyDataBase, online only, each sent with its Idempotency-Key (a resend after a lost
 * answer replays the first purge's answer instead of purging again).
 */
import { type PurgeAnswer, PurgeAnswerSchema } from '../../../contract/purge.ts';
import { sendKeyed } from '../../lib/request-keys.ts';

/** What the user asked: one site's period, or every site of their scope. */
export type PurgeRequest =
  | { kind: 'partial'; site: number; debut: string; fin: string; commentaire: string }
  | { kind: 'all'; commentaire: string };

/**
 * Sends `request` for user `userId` with Idempotency-Key `key`; resolves to the purges done.
 * @throws ApiFailure InvalidField (commentaire), Forbidden, PurgeArchiveFailed (nothing deleted),
 *   `Network Error`…
 */
export function sendPurge(userId: number, request: PurgeRequest, key: string): Promise<PurgeAnswer> {
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
    parse: (body) => PurgeAnswerSchema.parse(body),
  });
}

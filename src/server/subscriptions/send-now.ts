/**
 * The bounds of "send now" (`POST bo/recurrences/abonnements/send`, issue #28 leftovers,
 * decision 0031): one queued send per subscription at a time, and at most
 * {@link SEND_NOW_PER_HOUR} sends now per user in any hour, so a held-down button or a script
 * cannot flood the recipients or the queue.
 *
 * Checked in the request's transaction, under transaction-scoped advisory locks on the
 * subscription and on the user, so two requests at the same instant cannot both pass. A send is
 * "waiting" while its run (job_runs, kind `subscription.run`, key `subscription:<id>:now:…`) is
 * queued, running or retrying; the hour's sends are the user's `subscription.send` audit entries
 * (every accepted send writes one, in the same transaction).
 */
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { SUBSCRIPTION_RUN } from './run.ts';

/** Sends now one user may ask for in any hour (every subscription together). */
export const SEND_NOW_PER_HOUR = 10;

/** Advisory-lock classes (first key of pg_advisory_xact_lock(int, int)). */
const LOCK_SUBSCRIPTION = 28_001;
const LOCK_USER = 28_002;

/** The singleton key of a send now of subscription `id` (unique per send: `suffix`). */
export function sendNowKey(id: number, suffix: string): string {
  return `subscription:${id}:now:${suffix}`;
}

/**
 * Refuses a send now of subscription `subscriptionId` by `userId` when one is still waiting or
 * the user reached the hour's limit; call in the transaction that then queues the send and
 * writes its audit entry.
 * @throws DomainError conflict `SendNowPending` (409) while a send of it waits or runs;
 *   tooManyAttempts `SendNowLimit` (429) with `details.max` and `details.minutes` (until the
 *   oldest send of the hour leaves it, rounded up) after {@link SEND_NOW_PER_HOUR} sends.
 */
export async function checkSendNow(db: Queryable, userId: number, subscriptionId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_SUBSCRIPTION, subscriptionId]);
  await db.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_USER, userId]);
  const { rows: waiting } = await db.query(
    `SELECT 1 FROM job_runs
      WHERE kind = $1 AND singleton_key LIKE $2 AND status IN ('queued', 'running', 'retrying')
      LIMIT 1`,
    [SUBSCRIPTION_RUN, `${sendNowKey(subscriptionId, '')}%`],
  );
  if (waiting.length > 0)
    throw new DomainError('conflict', 'SendNowPending', 'a send of this subscription is still waiting');
  const { rows } = await db.query<{ sends: number; wait: number | null }>(
    `SELECT count(*)::int AS sends,
            ceil(extract(epoch FROM min(at) + interval '1 hour' - now()))::int AS wait
       FROM audit_log
      WHERE user_id = $1 AND action = 'subscription.send' AND at > now() - interval '1 hour'`,
    [userId],
  );
  const { sends, wait } = rows[0]!;
  if (sends >= SEND_NOW_PER_HOUR) {
    const seconds = Math.max(wait ?? 60, 1);
    throw new DomainError('tooManyAttempts', 'SendNowLimit', 'too many sends now in the hour', {
      max: SEND_NOW_PER_HOUR,
      minutes: Math.ceil(seconds / 60),
    });
  }
}

/**
 * Queuing the mails a request asks for (issue #28): each message (one recipient each) is
 * recorded and queued for the `mail.send` job in the request's own transaction, so it is queued
 * if and only if the request commits, and an Idempotency-Key repeat (whose first answer was kept
 * with that commit) queues nothing again. Under one `key`, a recipient is queued at most once
 * (mail-job.ts), and the job sends it at most once. The answer comes once the mails are queued;
 * they leave from the queue, with retries.
 */
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import type { MailMessage } from './transport.ts';

/** What queues a mail in a caller's transaction (jobs/queue.ts JobQueue.queueMailIn). */
export interface MailQueue {
  queueMailIn(db: Queryable, message: MailMessage, key: string): Promise<boolean>;
}

/**
 * Queues every message under `key` in transaction `tx`.
 * Answers every recipient of `messages` (SPEC.md §8 `MailEnvoye`), those already queued under
 * `key` included.
 * @throws DomainError invalid `noDataError` without messages.
 */
export async function queueEachOnce(
  tx: Queryable,
  queue: MailQueue,
  messages: readonly MailMessage[],
  key: string,
): Promise<{ code: 'MailEnvoye'; recipients: string[] }> {
  if (messages.length === 0)
    throw new DomainError('invalid', 'noDataError', 'no recipient with an e-mail address for this site');
  for (const m of messages) await queue.queueMailIn(tx, m, key);
  return { code: 'MailEnvoye' as const, recipients: messages.flatMap((m) => m.to) };
}

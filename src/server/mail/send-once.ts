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
import { LanguageSchema } from '../../contract/reports.ts';
import { message } from '../i18n.ts';
import { htmlOfText } from './layout.ts';
import { takeMailQuota } from './mail-quota.ts';
import type { MailMessage } from './transport.ts';

/** `message` with an HTML alternative of its text in the shared layout (layout.ts), unless it has one. */
async function withHtml(m: MailMessage): Promise<MailMessage> {
  if (m.html !== undefined) return m;
  const parsed = LanguageSchema.safeParse(m.language);
  const language = parsed.success ? parsed.data : 'fr';
  return { ...m, html: await htmlOfText(language, m.subject, m.text, message(language, 'mail.openLink')) };
}

/** Whether `message` is queued under `key` already (a repeat of the same mail). */
async function queuedBefore(db: Queryable, message: MailMessage, key: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM job_mails WHERE key = $1 AND recipients = $2', [
    key,
    message.to.join(','),
  ]);
  return rows.length > 0;
}

/** What queues a mail in a caller's transaction (jobs/queue.ts JobQueue.queueMailIn). */
export interface MailQueue {
  queueMailIn(db: Queryable, message: MailMessage, key: string): Promise<boolean>;
}

/**
 * Queues every message under `key` in transaction `tx`, except to a recipient who already got
 * their hourly quota of mails (mail-quota.ts, issue #32 C.5). A message already queued under `key`
 * is not queued again and does not count.
 * Answers the recipients of the messages queued now or before under `key` (SPEC.md §8 `MailEnvoye`).
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
  const recipients: string[] = [];
  for (const m of messages) {
    if (await queuedBefore(tx, m, key)) {
      recipients.push(...m.to);
      continue;
    }
    let allowed = true;
    for (const address of m.to)
      allowed = (await takeMailQuota(tx, 'mail-recipient', address.toLowerCase())) && allowed;
    if (!allowed) continue;
    await queue.queueMailIn(tx, await withHtml(m), key);
    recipients.push(...m.to);
  }
  return { code: 'MailEnvoye' as const, recipients };
}

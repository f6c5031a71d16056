/**
 * Sending a batch of messages at most once per recipient under an idempotency key. A request
 * that mails is kept (answer stored) only when its transaction commits, which is after the
 * messages left: if keeping it fails, the repeat runs again. So, under a key, each recipient is
 * first recorded in `mail_sends` on its own committed row, then mailed; a repeat skips the
 * recipients already recorded and answers as the first did. A message the SMTP server refuses
 * drops its row, so a later repeat may try that recipient again. Each send under a key carries
 * a Message-ID derived from the key and recipient, the same on every repeat.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { MailError, type Mailer, type MailMessage } from './transport.ts';

/** The idempotency key a batch is sent under, and the user who sent it. */
export interface SendKey {
  key: string;
  userId: number;
}

/** The same Message-ID for every send of one key to one recipient. */
function stableMessageId(key: string, recipient: string): string {
  const digest = createHash('sha256').update(`${key}\n${recipient}`).digest('hex').slice(0, 32);
  return `<${digest}@comptoir.idempotent>`;
}

/** Recipients (joined `to`) already recorded under `once`. */
async function recipientsDone(db: Queryable, once: SendKey | null): Promise<Set<string>> {
  const done = new Set<string>();
  if (!once) return done;
  const { rows } = await db.query<{ recipient: string }>(
    'SELECT recipient FROM mail_sends WHERE user_id = $1 AND key = $2',
    [once.userId, once.key],
  );
  for (const r of rows) done.add(r.recipient);
  return done;
}

/** Sends one message, recorded under `once` first and dropped from the record if refused. */
async function sendRecorded(
  db: Queryable,
  mailer: Mailer,
  m: MailMessage,
  once: SendKey | null,
): Promise<void> {
  const recipient = m.to.join(',');
  if (once) {
    await db.query(
      'INSERT INTO mail_sends (user_id, key, recipient) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [once.userId, once.key, recipient],
    );
  }
  try {
    await mailer.send(once ? { ...m, messageId: stableMessageId(once.key, recipient) } : m);
  } catch (e) {
    if (once) {
      await db.query('DELETE FROM mail_sends WHERE user_id = $1 AND key = $2 AND recipient = $3', [
        once.userId,
        once.key,
        recipient,
      ]);
    }
    if (e instanceof MailError) throw new DomainError('upstream', 'ErreurEnvoiMail', e.message);
    throw e;
  }
  if (once) {
    await db.query(
      'UPDATE mail_sends SET sent_at = now() WHERE user_id = $1 AND key = $2 AND recipient = $3',
      [once.userId, once.key, recipient],
    );
  }
}

/**
 * Sends every message (one recipient each), stopping at the first refusal; under `once`,
 * recipients already mailed for that key are skipped. `db` must commit each statement on its
 * own (the pool, not the request's transaction): the records must outlive a rollback.
 * Answers every recipient of `messages` (SPEC.md §8 `MailEnvoye`).
 * @throws DomainError invalid `noDataError` without messages, upstream `ErreurEnvoiMail` when
 *   the mail server refuses or cannot be reached (SPEC.md §8).
 */
export async function sendEachOnce(
  db: Queryable,
  mailer: Mailer,
  messages: readonly MailMessage[],
  once: SendKey | null,
): Promise<{ code: 'MailEnvoye'; recipients: string[] }> {
  if (messages.length === 0)
    throw new DomainError('invalid', 'noDataError', 'no recipient with an e-mail address for this site');
  const done = await recipientsDone(db, once);
  for (const m of messages) {
    if (done.has(m.to.join(','))) continue;
    await sendRecorded(db, mailer, m, once);
  }
  return { code: 'MailEnvoye' as const, recipients: messages.flatMap((m) => m.to) };
}

/**
 * The `mail.send` job (issue #28): every mail of the app leaves from here. A mail is first
 * recorded in `job_mails` once per (key, recipients) — in the transaction of the request or run
 * that queues it — then sent by the job with a Message-ID derived from the key and recipients,
 * the same on every try. At most once per (key, recipients), even after kill -9: the job marks
 * `sending_at` (committed) before handing the mail to the transport and `sent_at` after; a try
 * that finds `sending_at` without `sent_at` was cut mid-send and does not send again (the outbox
 * checks its folder instead). A transport error clears `sending_at`, so the retry sends.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';
import { BURST_CONCURRENCY, type JobDefinition } from '../jobs/contract.ts';
import { MailError, type Mailer, type MailMessage } from './transport.ts';

/** The job kind that sends one recorded mail. */
export const MAIL_SEND_KIND = 'mail.send';

/** The data of a `mail.send` run: which recorded mail (no body: it may hold a reset link). */
export interface MailSendData {
  key: string;
  recipients: string;
}

/** The same Message-ID for every try of one key to one recipient list. */
export function stableMessageId(key: string, recipients: string): string {
  const digest = createHash('sha256').update(`${key}\n${recipients}`).digest('hex').slice(0, 32);
  return `<${digest}@comptoir.idempotent>`;
}

interface StoredMessage extends Omit<MailMessage, 'attachments'> {
  attachments?: { filename: string; contentBase64: string; contentType: string }[];
}

function stored(message: MailMessage): StoredMessage {
  const { attachments, ...rest } = message;
  return {
    ...rest,
    ...(attachments
      ? {
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            contentBase64: a.content.toString('base64'),
          })),
        }
      : {}),
  };
}

function restored(message: StoredMessage): MailMessage {
  const { attachments, ...rest } = message;
  return {
    ...rest,
    ...(attachments
      ? {
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: Buffer.from(a.contentBase64, 'base64'),
          })),
        }
      : {}),
  };
}

/**
 * Records `message` under `key` for its recipients (`to` joined by commas), unless recorded already.
 * @returns the recipients text (the job's data), or null when (key, recipients) was recorded before.
 */
export async function recordMail(
  db: Queryable,
  message: MailMessage,
  key: string,
  runId: string | null,
): Promise<string | null> {
  const recipients = message.to.join(',');
  const { rows } = await db.query(
    `INSERT INTO job_mails (key, recipients, run_id, message, message_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (key, recipients) DO NOTHING RETURNING recipients`,
    [key, recipients, runId, JSON.stringify(stored(message)), stableMessageId(key, recipients)],
  );
  return rows.length > 0 ? recipients : null;
}

/** Error of a try that found its mail cut mid-send: the mail is not sent again. */
export class InterruptedSend extends Error {}

/**
 * The `mail.send` job of `mailer`: sends the recorded mail (see the module comment).
 * @throws MailError when the transport refuses (the run retries); InterruptedSend when an earlier
 *   try was cut after handing the mail over (never sent again).
 */
export function mailSendJob(mailer: Mailer): JobDefinition<MailSendData> {
  return {
    kind: MAIL_SEND_KIND,
    retryLimit: 5,
    concurrency: BURST_CONCURRENCY,
    async run(data, ctx) {
      const { rows } = await ctx.pool.query<{ message: StoredMessage; messageId: string }>(
        `UPDATE job_mails SET sending_at = now(), error = NULL
          WHERE key = $1 AND recipients = $2 AND sending_at IS NULL AND sent_at IS NULL
          RETURNING message, message_id AS "messageId"`,
        [data.key, data.recipients],
      );
      const reclaimed = rows[0] ? null : await reclaimForOutbox(ctx.pool, mailer, data);
      const claimed = rows[0] ?? reclaimed;
      if (!claimed) return checkEarlierTry(ctx.pool, data);
      try {
        await mailer.send(
          { ...restored(claimed.message), messageId: claimed.messageId },
          { mayExist: reclaimed !== null },
        );
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        await ctx.pool.query(
          'UPDATE job_mails SET sending_at = NULL, error = $3 WHERE key = $1 AND recipients = $2',
          [data.key, data.recipients, error],
        );
        throw e instanceof MailError ? e : new MailError(error, { cause: e });
      }
      await ctx.pool.query('UPDATE job_mails SET sent_at = now() WHERE key = $1 AND recipients = $2', [
        data.key,
        data.recipients,
      ]);
    },
  };
}

/**
 * The outbox writes at most one file per Message-ID, so a mail cut mid-write may be tried again:
 * answers it when `mailer` is the outbox and the mail is not sent yet, else null.
 */
async function reclaimForOutbox(
  db: Queryable,
  mailer: Mailer,
  data: MailSendData,
): Promise<{ message: StoredMessage; messageId: string } | null> {
  if (mailer.kind !== 'outbox') return null;
  const { rows } = await db.query<{ message: StoredMessage; messageId: string }>(
    `SELECT message, message_id AS "messageId" FROM job_mails
      WHERE key = $1 AND recipients = $2 AND sent_at IS NULL`,
    [data.key, data.recipients],
  );
  return rows[0] ?? null;
}

/** A try that could not claim its mail: sent already (done), or cut mid-send (not resent). */
async function checkEarlierTry(db: Queryable, data: MailSendData): Promise<void> {
  const { rows } = await db.query<{ sent: boolean }>(
    'SELECT sent_at IS NOT NULL AS sent FROM job_mails WHERE key = $1 AND recipients = $2',
    [data.key, data.recipients],
  );
  if (!rows[0] || rows[0].sent) return;
  const error = 'an earlier try was cut while sending: not sent again, to avoid a duplicate';
  await db.query('UPDATE job_mails SET error = $3 WHERE key = $1 AND recipients = $2', [
    data.key,
    data.recipients,
    error,
  ]);
  throw new InterruptedSend(error);
}

/**
 * The mail outbox screen's calls (issue #28, `/config/mails`): without SMTP_URL the server writes
 * every mail as an `.eml` file under `DATA_DIR/mail-outbox/`; administrators list and open them.
 * `GET bo/mails/outbox?id` answers the list, `GET bo/mails/outbox/message?id&name` one mail.
 */
import { z } from 'zod';

/** An outbox file's name as the server writes it: `<UTC time>-<16 hex>.eml`, nothing else. */
export const OutboxNameSchema = z
  .string()
  .regex(/^[0-9TZ-]{10,40}-[0-9a-f]{16}\.eml$/, 'an outbox file name')
  .describe('name of a file of the mail outbox, as listed');

/** One mail of the outbox list: file name, when it was written (ISO 8601), recipients, subject, size in bytes. */
export const OutboxEntrySchema = z.object({
  name: z.string(),
  date: z.iso.datetime({ offset: true }).describe('ISO 8601 instant the mail was written'),
  to: z.array(z.string()),
  subject: z.string(),
  bytes: z.number().int().min(0),
});
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

/**
 * The outbox: `mode` says where mails go now (`smtp`: to SMTP_URL, the outbox then only holds
 * older mails; `outbox`: written here); `folder` is the outbox's path on the server; `mails` the
 * newest first (at most 500).
 */
export const OutboxListAnswerSchema = z.object({
  mode: z.enum(['smtp', 'outbox']),
  folder: z.string(),
  mails: z.array(OutboxEntrySchema),
});
export type OutboxListAnswer = z.infer<typeof OutboxListAnswerSchema>;

/** One opened mail: headers, text part, HTML part (null when none; show it sandboxed), attachments. */
export const OutboxMessageAnswerSchema = z.object({
  name: z.string(),
  date: z.iso.datetime({ offset: true }),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), bytes: z.number().int() })),
});
export type OutboxMessageAnswer = z.infer<typeof OutboxMessageAnswerSchema>;

/**
 * The start-up's test mail (issue #30 "mail settings check"): one short mail, queued on the job
 * queue's `mail.send` in the caller's transaction (mail/send-once.ts), so it leaves by the same
 * road as every other mail — to SMTP_URL, or without it into the `.eml` outbox (/config/mails).
 * The audit entry `startup.testMail` (its recipient, never a secret) marks the wizard's step done.
 */
import { randomUUID } from 'node:crypto';
import { LanguageSchema } from '../../contract/reports.ts';
import type { StartupMailTestAnswer } from '../../contract/startup.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { message } from '../i18n.ts';
import { type MailQueue, queueEachOnce } from '../mail/send-once.ts';
import { STARTUP_TEST_MAIL_ACTION } from './startup-state.ts';

/** Who asks for the test mail: their language (fr when unknown), login and the chain's name. */
export interface TestMailSender {
  language: string | null;
  login: string;
  distribution: string;
}

/**
 * Queues the test mail to `to` in transaction `tx` under a key of its own (`idempotencyKey`, or a
 * fresh one: an Idempotency-Key repeat queues nothing again) and writes `startup.testMail`.
 * @returns SPEC.md §8 `MailEnvoye` with its recipients and where the mail goes (`mode`).
 * @throws DomainError invalid `ErreurEnvoiMail` when the recipient's hourly mail quota is used up
 *   (mail/mail-quota.ts): nothing is queued nor recorded.
 */
export async function queueTestMail(
  tx: Queryable,
  queue: MailQueue,
  input: { to: string; sender: TestMailSender; mode: 'smtp' | 'outbox'; idempotencyKey: string | undefined },
  actor: AuditActor,
): Promise<StartupMailTestAnswer> {
  const parsed = LanguageSchema.safeParse(input.sender.language);
  const language = parsed.success ? parsed.data : 'fr';
  const values = { chaine: input.sender.distribution, login: input.sender.login };
  const mail = {
    to: [input.to],
    language,
    subject: message(language, 'startup.testMail.subject', values),
    text: message(language, 'startup.testMail.text', values),
  };
  const queued = await queueEachOnce(
    tx,
    queue,
    [mail],
    `startup-test:${input.idempotencyKey ?? randomUUID()}`,
  );
  if (queued.recipients.length === 0) {
    throw new DomainError('invalid', 'ErreurEnvoiMail', "the recipient's hourly mail quota is used up");
  }
  await recordAudit(tx, actor, { action: STARTUP_TEST_MAIL_ACTION, targetId: null, after: { to: input.to } });
  return { code: 'MailEnvoye', recipients: queued.recipients, mode: input.mode };
}

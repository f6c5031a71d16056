/**
 * The e-mail reminder for a terminal not counted (issue #19, home "coffre" widget): GET
 * bo/home/envoieMailManquant with `caisse` (SPEC.md §7; server home/cash-count-reminder.ts). Its
 * own module, loaded with the dialog only when a reminder is asked for, so /home's first paint
 * does not carry the counting contract (contract/counting.ts).
 *
 * Online only, like the safe's e-mails (decision 0004): nothing is queued. The Idempotency-Key
 * is kept across retries of the same reminder until the server has given a definite answer, so a
 * retry after a lost answer mails nobody twice; a refusal (4xx) lets the next try be a new request
 * (lib/request-keys.ts, shared with the safe's e-mails).
 */
import { type MailAnswer, MailAnswerSchema } from '../../../contract/counting.ts';
import { type FailureOutcome, keyedFailure, sendKeyed } from '../../lib/request-keys.ts';

/** A terminal not counted on a fiscal date, and who to remind of it. */
export interface CashCountReminder {
  userId: number;
  /** restaurantId of the terminal's site. */
  site: number;
  /** Terminal number (caisse). */
  caisse: number;
  /** Fiscal date of the missing count, wire YYYY-MM-DD. */
  dateFiscale: string;
  /** Recipients: the users of this role who see the site. */
  role: string;
}

/**
 * GET bo/home/envoieMailManquant with `caisse`: mails the users of `role` on the site that the
 * terminal's cash count is missing, with `key` as Idempotency-Key ({@link reminderFingerprint}).
 * @throws ApiFailure — 400 noDataError (nobody to mail) or UnknownTerminal, 403 Forbidden,
 *   502 ErreurEnvoiMail, `Network Error` (also at once when the device says it is offline).
 */
export function remindMissingCashCount(reminder: CashCountReminder, key: string): Promise<MailAnswer> {
  const { userId, site, caisse, dateFiscale, role } = reminder;
  return sendKeyed({
    method: 'get',
    path: 'bo/home/envoieMailManquant',
    params: { role: role.trim(), id: userId, site, datefiscale: dateFiscale, caisse },
    key,
    parse: (answer) => MailAnswerSchema.parse(answer),
  });
}

/**
 * What makes two reminders the same request (same terminal, date and role), for
 * RequestKeys.keyFor: every try of the same reminder keeps its key until settled.
 */
export function reminderFingerprint(reminder: CashCountReminder): string {
  return JSON.stringify([reminder.site, reminder.caisse, reminder.dateFiscale, reminder.role.trim()]);
}

/**
 * The message id a failure shows in the dialog, and whether the key may be dropped: a 4xx is a
 * definite refusal (nothing sent); a network failure or a 5xx may have mailed some recipients
 * already, so the next try reuses the key and the server completes instead of mailing twice.
 */
export function reminderFailure(error: unknown): FailureOutcome {
  return keyedFailure(error, {
    offline: 'home.cash.remindOffline',
    unexpected: 'home.cash.remindFailed',
    byCode: { noDataError: 'home.cash.remindNoRecipient' },
  });
}

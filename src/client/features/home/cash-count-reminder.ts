/**
 * The e-mail reminder for a terminal not counted (issue #19, home "coffre" widget): GET
 * bo/home/envoieMailManquant with `caisse` (SPEC.md §7; server home/cash-count-reminder.ts). Its
 * own module, loaded with the dialog only when a reminder is asked for, so /home's first paint
 * does not carry the counting contract (contract/counting.ts).
 *
 * Online only, like the safe's e-mails (decision 0004): nothing is queued. The Idempotency-Key
 * is kept across retries of the same reminder until the server has given a definite answer, so a
 * retry after a lost answer mails nobody twice; a refusal (4xx) lets the next try be a new request.
 */
import { IDEMPOTENCY_KEY_HEADER } from '../../../contract/constants.ts';
import { type MailAnswer, MailAnswerSchema } from '../../../contract/counting.ts';
import { ApiFailure, http, toApiFailure, toSearchParams } from '../../lib/http.ts';

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
 * terminal's cash count is missing, with `key` as Idempotency-Key.
 * @throws ApiFailure — 400 noDataError (nobody to mail) or UnknownTerminal, 403 Forbidden,
 *   502 ErreurEnvoiMail, `Network Error` (also at once when the device says it is offline).
 */
export async function remindMissingCashCount(reminder: CashCountReminder, key: string): Promise<MailAnswer> {
  if (globalThis.navigator?.onLine === false) throw new ApiFailure('Network Error', null);
  try {
    const { userId, site, caisse, dateFiscale, role } = reminder;
    const answer = await http
      .get('bo/home/envoieMailManquant', {
        searchParams: toSearchParams({
          role: role.trim(),
          id: userId,
          site,
          datefiscale: dateFiscale,
          caisse,
        }),
        headers: { [IDEMPOTENCY_KEY_HEADER]: key },
      })
      .json<unknown>();
    return MailAnswerSchema.parse(answer);
  } catch (e) {
    throw toApiFailure(e);
  }
}

/**
 * The Idempotency-Key of the reminder being sent: the same for every try of the same reminder
 * (same terminal, date and role) until {@link ReminderKey.settle}, a new one otherwise.
 */
export class ReminderKey {
  #last: { fingerprint: string; key: string } | null = null;

  /** The key for `reminder`. */
  for(reminder: CashCountReminder): string {
    const fingerprint = JSON.stringify([
      reminder.site,
      reminder.caisse,
      reminder.dateFiscale,
      reminder.role.trim(),
    ]);
    if (this.#last?.fingerprint !== fingerprint) this.#last = { fingerprint, key: crypto.randomUUID() };
    return this.#last.key;
  }

  /** Forgets the key once the server answered for sure (sent, or refused with a 4xx). */
  settle(): void {
    this.#last = null;
  }
}

/**
 * The message id a failure shows in the dialog, and whether the key may be dropped: a 4xx is a
 * definite refusal (nothing sent); a network failure or a 5xx may have mailed some recipients
 * already, so the next try reuses the key and the server completes instead of mailing twice.
 */
export function reminderFailure(error: unknown): { messageId: string; settle: boolean } {
  if (!(error instanceof ApiFailure)) return { messageId: 'home.cash.remindFailed', settle: false };
  const settle = error.status !== null && error.status < 500;
  if (error.code === 'noDataError') return { messageId: 'home.cash.remindNoRecipient', settle };
  if (error.code === 'Network Error') return { messageId: 'home.cash.remindOffline', settle };
  return { messageId: `error.${error.code}`, settle };
}

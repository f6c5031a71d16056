/**
 * The home dashboard's reminder that a terminal's cash count is missing (issue #19: "missing cash
 * counts of yesterday (link to count, and to envoieMailManquant)"). It rides on SPEC.md §7's GET
 * bo/home/envoieMailManquant (role, id, site, datefiscale), which reminds of a missing safe
 * count, with one more parameter, `caisse`, the terminal: SPEC.md's `id` is the caller (as in
 * every §7 call) and `role` the recipients, so the terminal needs its own name, the one cash
 * counts already use on the wire. Recipients and sending are the safe reminder's (counting/
 * safe-count-mails.ts recipients, mail/send-once.ts), so both reminders reach the same people
 * the same way, at most once per Idempotency-Key.
 *
 * Rights: the route admits COFFRE or COMPTAGE (contract/rights.ts); which one a call needs
 * depends on what it reminds of, checked here ({@link requireMissingCountRight}).
 */
import { requireTerminal } from '../counting/cash-counts.ts';
import { recipients } from '../counting/safe-count-mails.ts';
import { siteFactsOf } from '../counting/sites.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { formatDate, message } from '../i18n.ts';
import type { MailMessage } from '../mail/transport.ts';

/**
 * Checks that a caller holding `rights` may remind of this missing count: a terminal's cash
 * count (`terminal` given) needs COMPTAGE, the safe count (no terminal) COFFRE — the rights of
 * the home widget's parts that list them (contract/home.ts HomeSafeAnswerSchema).
 * @throws DomainError forbidden `Forbidden` with `details.anyOf` (the right that would do).
 */
export function requireMissingCountRight(rights: readonly string[], terminal: number | undefined): void {
  const needed = terminal === undefined ? 'COFFRE' : 'COMPTAGE';
  if (!rights.includes(needed)) {
    throw new DomainError('forbidden', 'Forbidden', `this reminder needs the right ${needed}`, {
      anyOf: [needed],
    });
  }
}

/** What a cash count reminder is about: a terminal of a site, on a fiscal date. */
export interface MissingCashCount {
  site: number;
  /** Terminal number (caisse), one of the site's. */
  terminal: number;
  /** Fiscal date `YYYY-MM-DD` of the missing count. */
  fiscalDate: string;
}

/**
 * One message per user of `role` on the site, in their language, saying that terminal
 * `missing.terminal`'s cash count of `missing.fiscalDate` is missing; sent on behalf of
 * `senderLogin` under chain name `chain`. Empty when nobody of that role sees the site with an
 * e-mail address (the sender answers 400 `noDataError` then).
 * @throws DomainError invalid `UnknownTerminal` with `details.caisse` when the terminal is not
 *   one of the site's (counting/cash-counts.ts requireTerminal).
 */
export async function missingCashCountMessages(
  db: Queryable,
  missing: MissingCashCount,
  role: string,
  senderLogin: string,
  chain: string,
): Promise<MailMessage[]> {
  await requireTerminal(db, missing.site, missing.terminal);
  const facts = await siteFactsOf(db, missing.site);
  const values = {
    site: facts.libelle,
    caisse: String(missing.terminal),
    date: formatDate(missing.fiscalDate),
    chain,
    login: senderLogin,
  };
  return (await recipients(db, missing.site, undefined, role)).map((r) => ({
    to: [r.email],
    language: r.language,
    subject: message(r.language, 'home.mail.cashMissing.subject', values),
    text: message(r.language, 'home.mail.cashMissing.body', values),
  }));
}

/**
 * The e-mails of the home screen's safe counting (SPEC.md §7 GET bo/home/envoieMail,
 * bo/home/envoieMailManquant): a safe count's PDF receipt, or a reminder that a day's safe count
 * is missing. Each recipient gets the message in their own language. A recipient must have an
 * e-mail address and the site in their scope (a receipt is never mailed to someone who may not
 * see it). Sending is mail/send-once.ts's.
 */
import { type Language, LanguageSchema } from '../../contract/reports.ts';
import type { Session } from '../auth/session.ts';
import { siteScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { formatDate, message } from '../i18n.ts';
import type { MailMessage } from '../mail/transport.ts';
import { documentLanguage, safeReceiptPdf } from './receipt-pdfs.ts';
import { safeCountById } from './safe-counts.ts';
import { siteFactsOf } from './sites.ts';

/** Someone a counting e-mail goes to. */
export interface Recipient {
  email: string;
  language: Language;
}

/**
 * Recipients: the user of login `login` when given, else every user of role `role`; in both
 * cases only those with an e-mail address and `siteId` in their scope. `db` is a pool client
 * because the scope read (auth/scope.ts) takes one. Also the cash count reminder's
 * (home/cash-count-reminder.ts), so both reminders reach the same people.
 */
export async function recipients(
  db: Queryable,
  siteId: number,
  login: string | undefined,
  role: string | undefined,
): Promise<Recipient[]> {
  const { rows } = await db.query<{ id: number; email: string; language: string | null }>(
    `SELECT id, email, language FROM users
      WHERE email IS NOT NULL AND email <> '' AND (CASE WHEN $1::text IS NOT NULL THEN login = $1 ELSE role = $2 END)
      ORDER BY id`,
    [login ?? null, role ?? null],
  );
  const out: Recipient[] = [];
  for (const r of rows) {
    if (!(await siteScope(db, r.id)).includes(siteId)) continue;
    const language = LanguageSchema.safeParse(r.language);
    out.push({ email: r.email, language: language.success ? language.data : 'fr' });
  }
  return out;
}

/** Who a safe count's receipt is mailed to: one user by login, or the users of a role. */
export interface ReceiptMailTo {
  site: number;
  login: string | undefined;
  role: string | undefined;
}

/**
 * One message per recipient carrying safe count `countId`'s PDF receipt (a count of `to.site`),
 * sent on behalf of `sender` under chain name `chain`.
 * @throws DomainError notFound `NotFound` when the count is not one of the site's.
 */
export async function safeReceiptMessages(
  db: Queryable,
  countId: number,
  to: ReceiptMailTo,
  sender: Pick<Session, 'login' | 'language'>,
  chain: string,
): Promise<MailMessage[]> {
  const count = await safeCountById(db, countId, [to.site]);
  const messages: MailMessage[] = [];
  for (const r of await recipients(db, to.site, to.login, to.role)) {
    const values = { site: count.libelle, date: formatDate(count.dateFiscale), chain };
    messages.push({
      to: [r.email],
      language: r.language,
      subject: message(r.language, 'counting.mail.receipt.subject', values),
      text: message(r.language, 'counting.mail.receipt.body', { ...values, login: sender.login }),
      attachments: [
        {
          filename: `coffre-${count.id}.pdf`,
          content: await safeReceiptPdf(db, count, documentLanguage(r.language, sender), chain),
          contentType: 'application/pdf',
        },
      ],
    });
  }
  return messages;
}

/**
 * One message per user of `role` on `site` saying that the safe count of `fiscalDate` is
 * missing, sent on behalf of `senderLogin` under chain name `chain`.
 */
export async function missingSafeCountMessages(
  db: Queryable,
  site: number,
  role: string,
  fiscalDate: string,
  senderLogin: string,
  chain: string,
): Promise<MailMessage[]> {
  const facts = await siteFactsOf(db, site);
  const values = { site: facts.libelle, date: formatDate(fiscalDate), chain, login: senderLogin };
  return (await recipients(db, site, undefined, role)).map((r) => ({
    to: [r.email],
    language: r.language,
    subject: message(r.language, 'counting.mail.missing.subject', values),
    text: message(r.language, 'counting.mail.missing.body', values),
  }));
}

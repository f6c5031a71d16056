/**
 * The e-mails of the home screen's safe counting (SPEC.md §7 GET bo/home/envoieMail,
 * bo/home/envoieMailManquant): a safe count's PDF receipt, or a reminder that a day's safe
 * count is missing, sent through the app's mailer (src/server/mail). Each recipient gets the
 * message in their own language. A recipient must have an e-mail address and the site in
 * their scope (a receipt is never mailed to someone who may not see it).
 *
 * Both are GETs that act: marked `config.write`, so an `Idempotency-Key` repeat answers the
 * first answer without sending again. The answer is kept when the transaction commits, which is
 * after the messages left: if keeping it fails (the database drops out between the two), the
 * repeat runs the handler again. So, under a key, each recipient is first recorded in
 * `mail_sends` on its own committed row, then mailed; a repeat skips the recipients already
 * recorded (at most once per recipient and key) and answers as the first did. A message the SMTP
 * server refuses drops its row, so a later repeat may try that recipient again.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { FiscalDateSchema, MailAnswerSchema } from '../../../contract/counting.ts';
import { type Language, LanguageSchema } from '../../../contract/reports.ts';
import { siteScope } from '../../auth/scope.ts';
import { formatDate, message } from '../../i18n.ts';
import { createMailer, MailError, type MailMessage } from '../../mail/transport.ts';
import { ApiHttpError } from '../../plugins/errors.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { errorResponses, ownSession, sessionOf, UserIdParam } from '../common.ts';
import { documentLanguage, safeCountById, safeReceiptPdf } from './safe-count-routes.ts';
import { type CountingOptions, requireSite, siteFacts } from './counting-options.ts';

interface Recipient {
  email: string;
  language: Language;
}

/**
 * Recipients: the user of login `login` when given, else every user of role `role`; in both
 * cases only those with an e-mail address and `siteId` in their scope.
 */
async function recipients(
  db: pg.PoolClient,
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

/** The same Message-ID for every send of one key to one recipient. */
function stableMessageId(key: string, recipient: string): string {
  const digest = createHash('sha256').update(`${key}\n${recipient}`).digest('hex').slice(0, 32);
  return `<${digest}@comptoir.idempotent>`;
}

export async function mailRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const mailer = createMailer(
    options.config.smtpUrl,
    options.config.mailFrom ?? 'Comptoir <comptoir@localhost>',
  );
  app.addHook('onClose', async () => mailer.close());

  const { pool } = options.database;

  /**
   * Sends every message (one recipient each); answers MailEnvoye with every recipient, or 502
   * ErreurEnvoiMail on the first refusal. Under an Idempotency-Key, recipients already mailed for
   * this key are skipped (see the module comment).
   * @throws ApiHttpError 400 noDataError without recipients, 502 ErreurEnvoiMail (SPEC.md §8).
   */
  async function sendAll(request: FastifyRequest, messages: MailMessage[]) {
    if (messages.length === 0)
      throw new ApiHttpError(400, 'noDataError', 'no recipient with an e-mail address for this site');
    const key = request.idempotencyKey;
    const userId = request.session?.userId;
    const once = key !== null && userId !== undefined ? { key, userId } : null;
    const done = new Set<string>();
    if (once) {
      const { rows } = await pool.query<{ recipient: string }>(
        'SELECT recipient FROM mail_sends WHERE user_id = $1 AND key = $2',
        [once.userId, once.key],
      );
      for (const r of rows) done.add(r.recipient);
    }
    for (const m of messages) {
      const recipient = m.to.join(',');
      if (done.has(recipient)) continue;
      if (once) {
        // Committed on its own (not in the request's transaction): it must outlive a rollback.
        await pool.query(
          'INSERT INTO mail_sends (user_id, key, recipient) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          [once.userId, once.key, recipient],
        );
      }
      try {
        await mailer.send(once ? { ...m, messageId: stableMessageId(once.key, recipient) } : m);
      } catch (e) {
        if (once) {
          await pool.query('DELETE FROM mail_sends WHERE user_id = $1 AND key = $2 AND recipient = $3', [
            once.userId,
            once.key,
            recipient,
          ]);
        }
        if (e instanceof MailError) throw new ApiHttpError(502, 'ErreurEnvoiMail', e.message);
        throw e;
      }
      if (once) {
        await pool.query(
          'UPDATE mail_sends SET sent_at = now() WHERE user_id = $1 AND key = $2 AND recipient = $3',
          [once.userId, once.key, recipient],
        );
      }
    }
    return { code: 'MailEnvoye' as const, recipients: messages.flatMap((m) => m.to) };
  }

  api.get(
    '/bo/home/envoieMail',
    {
      config: { rights: 'GET bo/home/envoieMail', write: true },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      schema: {
        summary:
          "Mails a safe count's PDF receipt to user `utilisateur`, or to the users of `role` on the site",
        tags: ['counting'],
        querystring: z.object({
          idRecu: z.coerce.number().int().positive().describe('the safe count id'),
          role: z.string().min(1).optional(),
          utilisateur: z.string().min(1).optional().describe('login of the one recipient'),
          site: z.coerce.number().int().positive(),
        }),
        response: { 200: MailAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const q = request.query;
      requireSite(session, q.site);
      if (!q.utilisateur && !q.role) throw new ApiHttpError(400, 'BadRequest', 'give utilisateur or role');
      const tx = writeTx(request);
      const count = await safeCountById(tx, q.idRecu, [q.site]);
      const chain = options.config.distribution;
      const messages: MailMessage[] = [];
      for (const r of await recipients(tx, q.site, q.utilisateur, q.role)) {
        const values = { site: count.libelle, date: formatDate(count.dateFiscale), chain };
        messages.push({
          to: [r.email],
          subject: message(r.language, 'counting.mail.receipt.subject', values),
          text: message(r.language, 'counting.mail.receipt.body', { ...values, login: session.login }),
          attachments: [
            {
              filename: `coffre-${count.id}.pdf`,
              content: await safeReceiptPdf(tx, count, documentLanguage(r.language, session), chain),
              contentType: 'application/pdf',
            },
          ],
        });
      }
      return sendAll(request, messages);
    },
  );

  api.get(
    '/bo/home/envoieMailManquant',
    {
      config: { rights: 'GET bo/home/envoieMailManquant', write: true },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      schema: {
        summary: "Mails the users of `role` on the site that the day's safe count is missing",
        tags: ['counting'],
        querystring: z.object({
          role: z.string().min(1),
          id: UserIdParam,
          site: z.coerce.number().int().positive(),
          datefiscale: FiscalDateSchema,
        }),
        response: { 200: MailAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const session = ownSession(request, q.id);
      requireSite(session, q.site);
      const tx = writeTx(request);
      const facts = (await siteFacts(tx, [q.site])).get(q.site)!;
      const values = {
        site: facts.libelle,
        date: formatDate(q.datefiscale),
        chain: options.config.distribution,
        login: session.login,
      };
      const messages = (await recipients(tx, q.site, undefined, q.role)).map((r) => ({
        to: [r.email],
        subject: message(r.language, 'counting.mail.missing.subject', values),
        text: message(r.language, 'counting.mail.missing.body', values),
      }));
      return sendAll(request, messages);
    },
  );
}

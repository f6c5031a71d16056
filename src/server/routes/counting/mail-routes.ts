/**
 * HTTP of the home screen's safe counting e-mails (SPEC.md §7 GET bo/home/envoieMail,
 * bo/home/envoieMailManquant, also for a terminal's missing cash count with `caisse`): the
 * messages are counting/safe-count-mails.ts's and home/cash-count-reminder.ts's; they are queued
 * for the job queue's `mail.send` in the request's transaction (mail/send-once.ts) and leave
 * from the queue, with retries: the answer `MailEnvoye` means "queued".
 *
 * Both are GETs that act: marked `config.write`, so an `Idempotency-Key` repeat answers the
 * first answer without queuing again (the queued mails commit with that answer).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FiscalDateSchema, MailAnswerSchema } from '../../../contract/counting.ts';
import { missingSafeCountMessages, safeReceiptMessages } from '../../counting/safe-count-mails.ts';
import { requireSite } from '../../counting/sites.ts';
import { missingCashCountMessages, requireMissingCountRight } from '../../home/cash-count-reminder.ts';
import { queueEachOnce } from '../../mail/send-once.ts';
import { ApiHttpError } from '../../plugins/error-handler.ts';
import { writeTx } from '../../plugins/idempotency.ts';
import { errorResponses, ownSession, sessionOf, UserIdParam } from '../common.ts';
import type { CountingOptions } from './counting-options.ts';
import { BIGINT_ID_MAX, INT4_MAX } from '../../../contract/integers.ts';

/**
 * The key the mails of `request` are queued under (`purpose:` then the Idempotency-Key, or a
 * fresh id without one): a recipient is mailed once per key.
 */
function mailKeyOf(request: FastifyRequest, purpose: string): string {
  return `${purpose}:${request.idempotencyKey ?? randomUUID()}`;
}

/** Milliseconds in which one safe receipt is mailed to one recipient at most once. */
const RECEIPT_REPEAT_MS = 10 * 60_000;

/** Registers bo/home/envoieMail and bo/home/envoieMailManquant, queuing their mails on the app's job queue. */
export async function mailRoutes(app: FastifyInstance, options: CountingOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const chain = options.config.distribution;

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
          idRecu: z.coerce.number().int().positive().max(BIGINT_ID_MAX).describe('the safe count id'),
          role: z.string().min(1).optional(),
          utilisateur: z.string().min(1).optional().describe('login of the one recipient'),
          site: z.coerce.number().int().positive().max(INT4_MAX),
        }),
        response: { 200: MailAnswerSchema, ...errorResponses },
      },
    },
    async function mailSafeReceipt(request) {
      const session = sessionOf(request);
      const q = request.query;
      requireSite(session, q.site);
      if (!q.utilisateur && !q.role) throw new ApiHttpError(400, 'BadRequest', 'give utilisateur or role');
      const to = { site: q.site, login: q.utilisateur, role: q.role };
      const tx = writeTx(request);
      const messages = await safeReceiptMessages(tx, q.idRecu, to, session, chain);
      // The same receipt to the same recipient once per 10 minutes, however many clicks (#32 C.5).
      const window = Math.floor(Date.now() / RECEIPT_REPEAT_MS);
      return queueEachOnce(tx, app.jobs, messages, `safe-receipt:${q.idRecu}:${window}`);
    },
  );

  api.get(
    '/bo/home/envoieMailManquant',
    {
      config: { rights: 'GET bo/home/envoieMailManquant', write: true },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      schema: {
        summary:
          "Mails the users of `role` on the site that the day's safe count (or terminal `caisse`'s cash count) is missing",
        description:
          'Without `caisse` the safe count (right COFFRE); with it the cash count of that terminal ' +
          "(right COMPTAGE; 400 UnknownTerminal with details.caisse when it is not one of the site's).",
        tags: ['counting'],
        querystring: z.object({
          role: z.string().min(1),
          id: UserIdParam,
          site: z.coerce.number().int().positive().max(INT4_MAX),
          datefiscale: FiscalDateSchema,
          caisse: z.coerce
            .number()
            .int()
            .positive()
            .max(INT4_MAX)
            .optional()
            .describe(
              "terminal whose cash count is missing (home/cash-count-reminder.ts); absent: the safe's",
            ),
        }),
        response: { 200: MailAnswerSchema, ...errorResponses },
      },
    },
    async function mailMissingSafeCount(request) {
      const q = request.query;
      const session = ownSession(request, q.id);
      requireMissingCountRight(session.droits, q.caisse);
      requireSite(session, q.site);
      const tx = writeTx(request);
      const messages =
        q.caisse === undefined
          ? await missingSafeCountMessages(tx, q.site, q.role, q.datefiscale, session.login, chain)
          : await missingCashCountMessages(
              tx,
              { site: q.site, terminal: q.caisse, fiscalDate: q.datefiscale },
              q.role,
              session.login,
              chain,
            );
      return queueEachOnce(tx, app.jobs, messages, mailKeyOf(request, `missing-count:${q.site}`));
    },
  );
}

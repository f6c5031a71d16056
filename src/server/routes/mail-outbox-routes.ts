/**
 * HTTP of the mail outbox screen (`/config/mails`, issue #28): `GET bo/mails/outbox?id` lists the
 * `.eml` files the server wrote without SMTP_URL, `GET bo/mails/outbox/message?id&name` opens one
 * and writes `mail.outboxOpen` to the audit log (a mail may hold a reset link: who read it is
 * kept). Right CONFIGURATION: administrators, who can set any password anyway. Reading the folder
 * safely is mail/mail-outbox.ts's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  OutboxListAnswerSchema,
  OutboxMessageAnswerSchema,
  OutboxNameSchema,
} from '../../contract/mail-outbox.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Config } from '../config.ts';
import { listOutbox, OUTBOX_LIST_LIMIT, readOutboxMail } from '../mail/mail-outbox.ts';
import { outboxDirOf } from '../mail/transport.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

/** Registers GET bo/mails/outbox and GET bo/mails/outbox/message. */
export async function mailOutboxRoutes(app: FastifyInstance, options: { config: Pick<Config, 'dataDir'> }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const dir = outboxDirOf(options.config.dataDir);

  api.get(
    '/bo/mails/outbox',
    {
      config: { rights: 'GET bo/mails/outbox' },
      schema: {
        summary: 'The mails written to the .eml outbox (no SMTP_URL), newest first, at most 500',
        description: '`mode` says where mails go now: `smtp` (SMTP_URL is set) or `outbox`.',
        tags: ['administration'],
        querystring: z.object({
          id: UserIdParam,
          limit: z.coerce
            .number()
            .int()
            .min(0)
            .max(OUTBOX_LIST_LIMIT)
            .optional()
            .describe('most mails to list (default 500); 0 answers only where mails go'),
        }),
        response: { 200: OutboxListAnswerSchema, ...errorResponses },
      },
    },
    async function getOutbox(request) {
      ownSession(request, request.query.id);
      return { mode: app.mailer.kind, folder: dir, mails: await listOutbox(dir, request.query.limit) };
    },
  );

  api.get(
    '/bo/mails/outbox/message',
    {
      config: { rights: 'GET bo/mails/outbox/message', write: true },
      // Opening is audit-logged: no automatic HEAD twin, which would log too.
      exposeHeadRoute: false,
      schema: {
        summary:
          'One mail of the outbox: headers, text, HTML (to show sandboxed) and attachments; audit-logged',
        description: '404 NotFound for a name that is not a file of the outbox (no path, no `..`).',
        tags: ['administration'],
        querystring: z.object({ id: UserIdParam, name: OutboxNameSchema }),
        response: { 200: OutboxMessageAnswerSchema, ...errorResponses },
      },
    },
    async function getOutboxMessage(request) {
      const session = ownSession(request, request.query.id);
      const mail = await readOutboxMail(dir, request.query.name);
      await recordAudit(
        writeTx(request),
        { userId: session.userId, address: request.ip },
        { action: 'mail.outboxOpen', targetId: mail.name, after: { to: mail.to, subject: mail.subject } },
      );
      return mail;
    },
  );
}

/**
 * HTTP of the guided start-up (issue #30, `/config/miseenroute`, decision record 0041): `GET
 * bo/miseEnRoute/etat?id` (where it stands), `POST bo/miseEnRoute/mailTest?id` (a test mail
 * through the mail queue) and SPEC.md §7 `GET bo/miseEnRoute?id`, a GET that writes: it marks the
 * start-up complete (`startup.complete` in the audit log) and answers `SuccessMiseEnRoute`, or
 * refuses 409 `MiseEnRouteIncomplete` with the steps missing. Right ACCES_BASE for all three.
 * The steps' checks are startup/startup-state.ts's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MiseEnRouteAnswerSchema,
  StartupMailTestAnswerSchema,
  StartupMailTestBodySchema,
  StartupStateSchema,
} from '../../contract/startup.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { markStartupComplete, readStartupState } from '../startup/startup-state.ts';
import { queueTestMail } from '../startup/test-mail.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

const tags = ['administration'];

/** Registers GET bo/miseEnRoute/etat, POST bo/miseEnRoute/mailTest and GET bo/miseEnRoute. */
export async function startupRoutes(
  app: FastifyInstance,
  options: { database: Database; config: Pick<Config, 'demo' | 'distribution'> },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const settings = () => ({ demo: options.config.demo, mailKind: app.mailer.kind });

  api.get(
    '/bo/miseEnRoute/etat',
    {
      config: { rights: 'GET bo/miseEnRoute/etat' },
      schema: {
        summary:
          'Where the guided start-up stands: each step done or not, and whether to lead here at sign-in',
        tags,
        querystring: z.object({ id: UserIdParam }),
        response: { 200: StartupStateSchema, ...errorResponses },
      },
    },
    async function getStartupState(request) {
      const session = ownSession(request, request.query.id);
      return readStartupState(options.database.pool, session.userId, settings());
    },
  );

  api.post(
    '/bo/miseEnRoute/mailTest',
    {
      config: { rights: 'POST bo/miseEnRoute/mailTest', write: true },
      schema: {
        summary: 'Queues a test mail to `email` (SMTP_URL, or the .eml outbox without it); audit-logged',
        description:
          '400 ErreurEnvoiMail when the address had its hourly quota of mails (nothing is queued).',
        tags,
        querystring: z.object({ id: UserIdParam }),
        body: StartupMailTestBodySchema,
        response: { 200: StartupMailTestAnswerSchema, ...errorResponses },
      },
    },
    async function sendStartupTestMail(request) {
      const session = ownSession(request, request.query.id);
      return queueTestMail(
        writeTx(request),
        app.jobs,
        {
          to: request.body.email,
          sender: {
            language: session.language,
            login: session.login,
            distribution: options.config.distribution,
          },
          mode: app.mailer.kind,
          idempotencyKey: request.idempotencyKey ?? undefined,
        },
        { userId: session.userId, address: request.ip },
      );
    },
  );

  api.get(
    '/bo/miseEnRoute',
    {
      config: { rights: 'GET bo/miseEnRoute', write: true },
      exposeHeadRoute: false, // a GET that acts: no HEAD twin, which would act too
      schema: {
        summary: 'Marks the start-up complete once every step is done (SuccessMiseEnRoute); audit-logged',
        description:
          '409 MiseEnRouteIncomplete with details.missing (`societe`, `motDePasse`, `mail`) while a step is not done.',
        tags,
        querystring: z.object({ id: UserIdParam }),
        response: { 200: MiseEnRouteAnswerSchema, ...errorResponses },
      },
    },
    async function miseEnRoute(request) {
      const session = ownSession(request, request.query.id);
      const actor = { userId: session.userId, address: request.ip };
      const completeLe = await markStartupComplete(writeTx(request), actor, settings());
      return { code: 'SuccessMiseEnRoute' as const, completeLe };
    },
  );
}

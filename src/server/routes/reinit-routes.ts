/**
 * HTTP of the password reset by e-mail (SPEC.md §7 `GET reinit/sendReinitMail?user`,
 * `GET reinit/reinitPassword?email&resetPasswordKey&password`, and our
 * `POST reinit/reinitPassword` with the same fields in a JSON body, which our client uses so the
 * password is never in a URL). The keys, the mail and the checks are account/password-reset.ts's.
 *
 * All three are public and act: each runs in one transaction (`config.write`), the GETs have no
 * HEAD twin, and each is limited to `loginRatePerMinute` calls a minute per client address, as the
 * sign-in is, since each lets a caller probe a login or a key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ReinitAnswerSchema, ReinitPasswordBodySchema } from '../../contract/administration.ts';
import { resetPassword, sendResetMail } from '../account/password-reset.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { errorResponses } from './common.ts';

const SendQuery = z.object({
  user: z.string().trim().min(1).max(254).describe('login or e-mail address of the user'),
});

/** What the reset routes need from the configuration. */
export type ReinitConfig = Pick<
  Config,
  'loginRatePerMinute' | 'publicUrl' | 'resetMinutes' | 'distribution' | 'smtpUrl' | 'mailFrom'
>;

/** Registers reinit/sendReinitMail and reinit/reinitPassword (GET and POST); reset mails go through the app's job queue. */
export async function reinitRoutes(
  app: FastifyInstance,
  options: { database: Database; config: ReinitConfig },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config } = options;
  const rateLimit = { max: config.loginRatePerMinute, timeWindow: 60_000 };

  /** Mails a reset link to the user named by `user`. */
  async function sendReinitMail(request: FastifyRequest<{ Querystring: z.output<typeof SendQuery> }>) {
    return sendResetMail(writeTx(request), app.jobs, request.query.user, {
      publicUrl: config.publicUrl,
      resetMinutes: config.resetMinutes,
      chain: config.distribution,
    });
  }

  type ResetFields = z.output<typeof ReinitPasswordBodySchema>;

  /** Sets the password of the key's user, fields in the query (SPEC.md §7). */
  async function reinitPasswordByQuery(request: FastifyRequest<{ Querystring: ResetFields }>) {
    return resetPassword(writeTx(request), request.query, request.ip);
  }

  /** Sets the password of the key's user, fields in the JSON body (our client). */
  async function reinitPasswordByBody(request: FastifyRequest<{ Body: ResetFields }>) {
    return resetPassword(writeTx(request), request.body, request.ip);
  }

  api.get(
    '/reinit/sendReinitMail',
    {
      config: { rights: 'GET reinit/sendReinitMail', write: true, rateLimit },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      schema: {
        summary: 'Mails a password-reset link to the user named by login or e-mail (a GET that writes)',
        description:
          'The link (COMPTOIR_PUBLIC_URL + /reinit/changePassword?email&key) is valid COMPTOIR_RESET_MINUTES ' +
          'minutes and once. 404 userNull when no active user with an e-mail address matches (SPEC.md §8: ' +
          'this tells whether a login exists; rate-limited); 502 ErreurEnvoiMail when the mail cannot be sent.',
        tags: ['account'],
        querystring: SendQuery,
        response: { 200: ReinitAnswerSchema, ...errorResponses },
      },
    },
    sendReinitMail,
  );

  const reinitDescription =
    'Sets a new password with the e-mail and key of a reset link; revokes all the user’s sessions. ' +
    '400 expiredToken for an expired or unknown key (or another e-mail), usedToken for a used one, ' +
    'PasswordPolicy with details.problems when the password breaks SPEC.md §5.';

  api.get(
    '/reinit/reinitPassword',
    {
      config: { rights: 'GET reinit/reinitPassword', write: true, rateLimit },
      exposeHeadRoute: false,
      schema: {
        summary: 'Sets a new password with a reset link’s key (SPEC.md §7 form, a GET that writes)',
        description: `${reinitDescription} Prefer the POST: a password in a URL may be kept in logs and history.`,
        tags: ['account'],
        querystring: ReinitPasswordBodySchema,
        response: { 200: ReinitAnswerSchema, ...errorResponses },
      },
    },
    reinitPasswordByQuery,
  );

  api.post(
    '/reinit/reinitPassword',
    {
      config: { rights: 'POST reinit/reinitPassword', write: true, rateLimit },
      schema: {
        summary: 'Sets a new password with a reset link’s key (JSON body)',
        description: reinitDescription,
        tags: ['account'],
        body: ReinitPasswordBodySchema,
        response: { 200: ReinitAnswerSchema, ...errorResponses },
      },
    },
    reinitPasswordByBody,
  );
}

/**
 * Sign-in and sign-out (DESIGN.md §4). `GET bo/connexion` checks `Basic base64(login:password)`
 * against the argon2id hash and opens a session whose token the client then sends as
 * `Basic base64(login:token)` (401 `badCredentials` otherwise); `GET bo/logout` revokes that
 * token. The checks are in auth/sign-in.ts; failures are counted per account and per address in
 * PostgreSQL (429 `TooManyRequests` with Retry-After while locked, decision record 0020), on top
 * of @fastify/rate-limit's per-address flood control. Neither route has a HEAD twin
 * (contract/rights.ts SECRET_GETS): a HEAD must not sign in or out.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConnexionAnswerSchema } from '../../contract/api.ts';
import { prepareSignIn, signIn, signOut } from '../auth/sign-in.ts';
import { parseBasic, type SessionCache } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { Throttle, throttlePolicies } from '../security/throttle.ts';
import { errorResponses } from './common.ts';

/**
 * Registers GET bo/connexion (rate-limited to `loginRatePerMinute` per client address, failures
 * counted in PostgreSQL) and GET bo/logout.
 */
export async function sessionRoutes(
  app: FastifyInstance,
  options: {
    database: Database;
    config: Pick<
      Config,
      'sessionMinutes' | 'sessionMaxDays' | 'sessionsPerUser' | 'loginRatePerMinute' | 'loginFailuresPerIp'
    >;
    /** The cache of the rights guard, so a revoked token stops at once in this process too. */
    sessions?: SessionCache;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  await prepareSignIn();
  const { config } = options;
  const throttle = new Throttle(pool, throttlePolicies(config.loginFailuresPerIp));
  const limits = {
    minutes: config.sessionMinutes,
    maxDays: config.sessionMaxDays,
    perUser: config.sessionsPerUser,
  };

  api.get(
    '/bo/connexion',
    {
      config: {
        rights: 'GET bo/connexion',
        rateLimit: { max: config.loginRatePerMinute, timeWindow: 60_000 },
      },
      exposeHeadRoute: false,
      schema: {
        summary: 'Sign in with Authorization: Basic base64(login:password); answers the session token',
        description:
          '401 badCredentials for a wrong login or password; 429 TooManyRequests with Retry-After while ' +
          'the account (5 failures) or the address is locked, whatever the password (decision record 0020).',
        tags: ['session'],
        querystring: z.object({
          username: z.string().optional().describe('login; must match the Authorization header when given'),
        }),
        response: { 200: ConnexionAnswerSchema, ...errorResponses },
      },
    },
    async function connect(request) {
      const basic = parseBasic(request.headers.authorization);
      const credentials = basic
        ? { login: basic.login, password: basic.secret, expectedLogin: request.query.username }
        : null;
      return signIn(pool, credentials, { limits, throttle, address: request.ip });
    },
  );

  api.get(
    '/bo/logout',
    {
      config: { rights: 'GET bo/logout' },
      exposeHeadRoute: false,
      schema: {
        summary: 'Revoke the session token of the Authorization header',
        tags: ['session'],
        response: { 204: z.null().describe('signed out'), ...errorResponses },
      },
    },
    async function logout(request, reply) {
      await signOut(pool, parseBasic(request.headers.authorization)?.secret, options.sessions);
      // Answered once this server's change feed has seen the revocation: the other servers
      // have been told by then, and refuse the token from our answer on (issue #32 C.3).
      await request.server.changes.settled();
      return reply.code(204).send(null);
    },
  );
}

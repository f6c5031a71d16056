/**
 * Sign-in and sign-out (DESIGN.md §4). `GET bo/connexion` checks `Basic base64(login:password)`
 * against the argon2id hash and opens a session whose token the client then sends as
 * `Basic base64(login:token)`; `GET bo/logout` revokes that token.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConnexionAnswerSchema } from '../../contract/api.ts';
import { dummyPasswordHash, verifyPassword } from '../auth/users.ts';
import { openSession, parseBasic, revokeSession, type SessionCache } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { ApiHttpError } from '../plugins/errors.ts';
import { errorResponses } from './common.ts';

interface LoginRow {
  id: number;
  login: string;
  password_hash: string;
  droits: string[];
  role: string;
  currency: string;
  code_exploitant: string | null;
  language: string | null;
}

export async function sessionRoutes(
  app: FastifyInstance,
  options: {
    database: Database;
    config: Pick<Config, 'sessionMinutes' | 'loginRatePerMinute'>;
    /** The cache of the rights guard, so a revoked token stops at once in this process too. */
    sessions?: SessionCache;
  },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  // Computed now, so the first sign-in with an unknown login does not take twice as long.
  await dummyPasswordHash();

  api.get(
    '/bo/connexion',
    {
      config: {
        rights: 'GET bo/connexion',
        rateLimit: { max: options.config.loginRatePerMinute, timeWindow: 60_000 },
      },
      schema: {
        summary: 'Sign in with Authorization: Basic base64(login:password); answers the session token',
        tags: ['session'],
        querystring: z.object({
          username: z.string().optional().describe('login; must match the Authorization header when given'),
        }),
        response: { 200: ConnexionAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const basic = parseBasic(request.headers.authorization);
      const bad = new ApiHttpError(401, 'badCredentials', 'incorrect login or password');
      if (!basic) throw bad;
      if (request.query.username !== undefined && request.query.username !== basic.login) throw bad;
      const { rows } = await pool.query<LoginRow>(
        `SELECT u.id, u.login, u.password_hash, p.droits, u.role, u.currency, u.code_exploitant, u.language
         FROM users u JOIN profiles p ON p.id = u.profile_id WHERE u.login = $1`,
        [basic.login],
      );
      const user = rows[0];
      // Verify even for an unknown login, so the answer time does not reveal which logins exist.
      const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), basic.secret);
      if (!user || !ok) throw bad;
      const token = await openSession(pool, user.id, options.config.sessionMinutes);
      return {
        id: user.id,
        login: user.login,
        droits: user.droits,
        currency: user.currency,
        role: user.role,
        token,
        codeExploitant: user.code_exploitant,
        language: user.language,
      };
    },
  );

  api.get(
    '/bo/logout',
    {
      config: { rights: 'GET bo/logout' },
      schema: {
        summary: 'Revoke the session token of the Authorization header',
        tags: ['session'],
        response: { 204: z.null().describe('signed out'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const basic = parseBasic(request.headers.authorization);
      if (basic) await revokeSession(pool, basic.secret, options.sessions);
      return reply.code(204).send(null);
    },
  );
}

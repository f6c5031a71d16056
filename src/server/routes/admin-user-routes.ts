/**
 * HTTP of the chain's users and "my account" (SPEC.md §7, issue #18): GET bo/infra/getUtilisateurs,
 * getUtilisateur?login, POST newUtilisateur, saveUtilisateur?id (JSON or form-urlencoded, as
 * SPEC.md's form sends it), GET removeUtilisateur?id (a GET that writes). Shapes in
 * contract/administration.ts; the rules in administration/user-*.ts.
 *
 * Every write runs in its request's transaction (`config.write`, plugins/idempotency.ts) and
 * empties the session cache once committed, so a revoked or deactivated user's token stops at
 * once in this process (other processes learn it from the change feed).
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NewUtilisateurBodySchema,
  NewUtilisateurQuerySchema,
  SaveUtilisateurBodySchema,
  type Utilisateur,
  UtilisateurSchema,
} from '../../contract/administration.ts';
import { createUtilisateur } from '../administration/user-create.ts';
import { type AdminActor, forbidden, isAdministrator } from '../administration/user-guards.ts';
import { removeUtilisateur } from '../administration/user-remove.ts';
import { saveUtilisateur } from '../administration/user-save.ts';
import { findUserByLogin, listUsers } from '../administration/users.ts';
import { parseBasic, type SessionCache, tokenHash } from '../auth/tokens.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { errorResponses, sessionOf } from './common.ts';
import { INT4_MAX } from '../../contract/integers.ts';

/** What the administration routes need: the database and the rights guard's session cache. */
export interface AdminRouteOptions {
  database: Database;
  sessions?: SessionCache;
}

/**
 * The caller as administration's domain sees them: user, rights, IP address (request.ip, the
 * audit log's) and the hash of the token they call with.
 */
export function adminActor(request: FastifyRequest): AdminActor {
  const session = sessionOf(request);
  const basic = parseBasic(request.headers.authorization);
  return {
    userId: session.userId,
    droits: session.droits,
    address: request.ip,
    tokenHash: basic ? tokenHash(basic.secret) : null,
  };
}

/**
 * Empties `sessions` after a successful write (the write's transaction has committed by then),
 * so no checked session from before the change is served again.
 */
export function forgetSessionsAfterWrite(sessions: SessionCache | undefined) {
  return async function forgetSessions(
    request: FastifyRequest,
    reply: { statusCode: number },
    payload: unknown,
  ) {
    if (reply.statusCode < 300) {
      sessions?.clear();
      // A deactivation or a password change ends sessions: answer once this server's own change
      // feed has seen it, so the other servers have been told too (issue #32 C.3).
      await request.server.changes.settled();
    }
    return payload;
  };
}

const IdQuery = z.object({ id: z.coerce.number().int().positive().max(INT4_MAX).describe('id of the user') });
const LoginQuery = z.object({ login: z.string().min(1).max(100).describe('login of the user') });

/**
 * Registers POST bo/infra/saveUtilisateur in a scope of its own: SPEC.md §7 sends it as a form,
 * and only this route reads form bodies.
 */
async function saveUtilisateurRoutes(
  scope: FastifyInstance,
  options: { onSend: ReturnType<typeof forgetSessionsAfterWrite> },
) {
  const { onSend } = options;
  await scope.register(formbody);
  scope.withTypeProvider<ZodTypeProvider>().post(
    '/bo/infra/saveUtilisateur',
    {
      config: { rights: 'POST bo/infra/saveUtilisateur', write: true },
      onSend,
      schema: {
        summary: 'Saves a user (JSON or form-urlencoded): one’s own account, or anyone’s with CONFIGURATION',
        description:
          'Without CONFIGURATION only one’s own email, theme, couleur, language and password ' +
          '(updatePassword + currentPassword) change (403 Forbidden with details.fields otherwise). ' +
          'A password change ends the user’s other sessions; `active: false` deactivates and ends them all. ' +
          '400 InvalidField, PasswordPolicy, PasswordMismatch, WrongPassword; 409 LoginTaken, ' +
          'SelfChange, LastAdministrator. Writes user.save / user.passwordChange to the audit log.',
        tags: ['administration'],
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        querystring: IdQuery,
        body: SaveUtilisateurBodySchema,
        response: { 200: UtilisateurSchema, ...errorResponses },
      },
    },
    async function saveUtilisateurRoute(request) {
      return saveUtilisateur(writeTx(request), adminActor(request), request.query.id, request.body);
    },
  );
}

/** Registers the users' routes (see the module comment). */
export async function adminUserRoutes(app: FastifyInstance, options: AdminRouteOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  const onSend = forgetSessionsAfterWrite(options.sessions);

  api.get(
    '/bo/infra/getUtilisateurs',
    {
      config: { rights: 'GET bo/infra/getUtilisateurs' },
      schema: {
        summary: 'Every user of the chain with their profile, effective sites and rights, by login',
        tags: ['administration'],
        response: { 200: z.array(UtilisateurSchema), ...errorResponses },
      },
    },
    async function getUtilisateurs() {
      return listUsers(pool);
    },
  );

  api.get(
    '/bo/infra/getUtilisateur',
    {
      config: { rights: 'GET bo/infra/getUtilisateur' },
      schema: {
        summary: 'One user by login: one’s own account, or anyone’s with CONFIGURATION',
        description:
          '403 Forbidden for another login without CONFIGURATION; 404 NotFound for an unknown login.',
        tags: ['administration'],
        querystring: LoginQuery,
        response: { 200: UtilisateurSchema, ...errorResponses },
      },
    },
    async function getUtilisateur(request): Promise<Utilisateur> {
      const session = sessionOf(request);
      const { login } = request.query;
      if (login !== session.login && !isAdministrator(session.droits)) {
        throw forbidden("another user's account needs CONFIGURATION");
      }
      const user = await findUserByLogin(pool, login);
      if (!user) throw new DomainError('notFound', 'NotFound', `no user ${login}`);
      return user;
    },
  );

  api.post(
    '/bo/infra/newUtilisateur',
    {
      config: { rights: 'POST bo/infra/newUtilisateur', write: true },
      onSend,
      schema: {
        summary:
          'Creates a user: query fields of SPEC.md §7, body a list of extras or {extras, password, rePasswordKey}',
        description:
          'Without a password the user has none usable until they follow a reset link. ' +
          '400 UnknownExtra (details.keys), PasswordPolicy (details.problems), PasswordMismatch, ' +
          'InvalidField (details.field); 409 LoginTaken. Writes user.create to the audit log.',
        tags: ['administration'],
        querystring: NewUtilisateurQuerySchema,
        // A POST without a body reaches the validator as null.
        body: NewUtilisateurBodySchema.nullish(),
        response: { 200: UtilisateurSchema, ...errorResponses },
      },
    },
    async function newUtilisateur(request) {
      const body = request.body ?? undefined;
      return createUtilisateur(writeTx(request), adminActor(request), request.query, body);
    },
  );

  await api.register(saveUtilisateurRoutes, { onSend });

  api.get(
    '/bo/infra/removeUtilisateur',
    {
      config: { rights: 'GET bo/infra/removeUtilisateur', write: true },
      // A GET that acts: no automatic HEAD twin, which would act too.
      exposeHeadRoute: false,
      onSend,
      schema: {
        summary: 'Removes a user and ends their sessions (a GET that writes)',
        description:
          'Their favourites go with them; counts and receipts keep the author id. 404 NotFound; ' +
          '409 SelfChange, LastAdministrator. Writes user.remove to the audit log.',
        tags: ['administration'],
        querystring: IdQuery,
        response: { 200: z.object({ id: z.number().int() }), ...errorResponses },
      },
    },
    async function removeUtilisateurRoute(request) {
      await removeUtilisateur(writeTx(request), adminActor(request), request.query.id);
      return { id: request.query.id };
    },
  );
}

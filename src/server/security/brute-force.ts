/**
 * The HTTP side of brute-force protection (issue #17 item 4, decision record 0020), installed
 * once on the root instance before any route:
 *
 * - @fastify/rate-limit, per client address and in process memory, for the routes that ask
 *   (`config.rateLimit`: sign-in, manager codes, reset link): flood control only;
 * - `Retry-After` on every 429 a locked counter answers (security/throttle.ts gives the seconds
 *   in `details.retryAfterSeconds`);
 * - the current-password check of POST bo/infra/saveUtilisateur (one's own password change)
 *   counted as a failed sign-in of the account and the address, and refused while either is
 *   locked, without the administration module knowing of it.
 *
 * The password and code counters themselves are in PostgreSQL (security/throttle.ts), so they
 * hold across restarts and instances.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type {} from '../plugins/request-session.ts'; // request.session, config.rights
import { countFailure } from '../auth/sign-in.ts';
import { DomainError } from '../errors.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { accountKey, ipKey, Throttle, throttlePolicies } from './throttle.ts';

/** The route whose own-password check is counted (administration/user-save.ts changePassword). */
const OWN_PASSWORD_ROUTE = 'POST bo/infra/saveUtilisateur';

/** What {@link installBruteForce} needs. */
export interface BruteForceOptions {
  pool: pg.Pool;
  /** Failures one address may make in 10 minutes (COMPTOIR_LOGIN_FAILURES_PER_IP). */
  loginFailuresPerIp: number;
}

/** The 429's seconds when `error` is a locked counter's refusal (security/throttle.ts). */
export function retryAfterOf(error: unknown): number | null {
  if (!(error instanceof DomainError) || error.kind !== 'tooManyAttempts') return null;
  const seconds = error.details?.retryAfterSeconds;
  return typeof seconds === 'number' ? seconds : null;
}

/**
 * True when `request` changes the caller's own password: the current one is then checked
 * (SaveUtilisateurBody `updatePassword` on one's own `id`).
 */
function changesOwnPassword(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.rights !== OWN_PASSWORD_ROUTE || !request.session) return false;
  const body = request.body as { updatePassword?: unknown } | undefined;
  const query = request.query as { id?: unknown } | undefined;
  const updates = body?.updatePassword === true || body?.updatePassword === 'true';
  return updates && Number(query?.id) === request.session.userId;
}

/** Installs the own-password counting of POST bo/infra/saveUtilisateur (see the module comment). */
function countOwnPasswordChecks(app: FastifyInstance, throttle: Throttle, pool: pg.Pool): void {
  app.addHook('preHandler', async function refuseLockedOwnPassword(request) {
    if (!changesOwnPassword(request)) return;
    await throttle.requireUnlocked([accountKey(request.session!.login), ipKey(request.ip)]);
  });
  app.addHook('onError', async function countWrongOwnPassword(request, _reply, error) {
    if (!(error instanceof DomainError) || error.code !== 'WrongPassword') return;
    if (!changesOwnPassword(request)) return;
    const session = request.session!;
    await countFailure(pool, { throttle, address: request.ip }, session.login, session.userId);
  });
  app.addHook('onResponse', async function clearOwnPasswordFailures(request, reply) {
    if (reply.statusCode === 200 && changesOwnPassword(request)) {
      await throttle.clearFailures(accountKey(request.session!.login));
    }
  });
}

/**
 * Installs flood control, Retry-After on locked counters' 429s and the own-password counting
 * on the root instance `app`; call it before any route is registered.
 */
export async function installBruteForce(app: FastifyInstance, options: BruteForceOptions): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false, // only routes that ask (the login, manager codes, the reset link)
    errorResponseBuilder: function tooManyAttempts(_request, context) {
      return new ApiHttpError(429, 'TooManyRequests', `too many attempts, retry in ${context.after}`, {
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      });
    },
  });
  app.addHook('onError', async function sayRetryAfter(_request: FastifyRequest, reply: FastifyReply, error) {
    const seconds = retryAfterOf(error);
    if (seconds !== null) reply.header('retry-after', String(seconds));
  });
  const throttle = new Throttle(options.pool, throttlePolicies(options.loginFailuresPerIp));
  countOwnPasswordChecks(app, throttle, options.pool);
}

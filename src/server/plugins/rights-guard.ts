/**
 * The rights table enforced (DESIGN.md §4). Every route under the API prefix names its entry
 * of API_RIGHTS in `config.rights`; registering one without it, with an unknown key, or with a
 * key whose method and path differ from the route's own is a start-up error, so no route can
 * ship unguarded. On each request the entry decides: `public` → nothing; `session` → a valid
 * token (401 `Unauthorized`); `{ anyOf }` → a valid token and one of the rights (403
 * `Forbidden`). Every API route except the exempt ones also requires the `X-Requested-With`
 * header (SPEC.md §7; 400 `MissingClientHeader`), a cheap guard against cross-site form posts.
 *
 * The GETs that change data (contract/rights.ts WRITE_GETS) are checked the same way at start-up:
 * each must be registered with `config.write: true` and without a HEAD twin, and a GET marked
 * `config.write` must be in that list (issue #17 item 5). The GETs that check a secret
 * (contract/rights.ts SECRET_GETS: sign-in, sign-out, manager code, reset link) must likewise
 * have no HEAD twin (issue #17 item 4): only plain reads answer HEAD.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type pg from 'pg';
import { CLIENT_HEADER } from '../../contract/api.ts';
import { API_RIGHTS, type ApiRoute, forbidsHead, isWriteGet } from '../../contract/rights.ts';
import type {} from './request-session.ts'; // request.session, config.rights
import type { Session } from '../auth/session.ts';
import { parseBasic, resolveSession, type SessionCache } from '../auth/tokens.ts';
import { currentBatch } from '../outbox/batch-context.ts';
import { ApiHttpError } from './error-handler.ts';

/** Where the API lives (DESIGN.md §4: `/api/` by default). */
export const API_PREFIX = '/api';

/** Routes answered without `X-Requested-With`: documentation, the two calls made before sign-in, the mails' links. */
const HEADER_EXEMPT: ReadonlySet<ApiRoute> = new Set<ApiRoute>([
  'GET docs',
  'GET version',
  'GET distribution',
  // The links of report e-mails, opened from a mail client (the signed token is the authority).
  'GET recurrences/desabonnement',
  'POST recurrences/desabonnement',
  'GET recurrences/fichier',
]);

/** True when calls to the route of rights key `key` must carry `X-Requested-With`. */
export function needsClientHeader(key: ApiRoute): boolean {
  return !HEADER_EXEMPT.has(key);
}

/** The API_RIGHTS key of a route: `GET bo/getSites` for GET `/api/bo/getSites` (HEAD counts as GET). */
export function routeKey(method: string, url: string): string {
  const m = method === 'HEAD' ? 'GET' : method;
  return `${m} ${url.slice(API_PREFIX.length + 1)}`;
}

function isApiUrl(url: string): boolean {
  return url === API_PREFIX || url.startsWith(`${API_PREFIX}/`);
}

/**
 * Checks a route being registered against the rights table.
 * @throws Error naming the route when it lacks `config.rights` or names a wrong entry.
 */
export function checkRouteRights(route: RouteOptions): void {
  if (!isApiUrl(route.url)) return;
  route.config ??= {};
  // The documentation routes are registered by @fastify/swagger-ui, which cannot set a config.
  if (route.url === `${API_PREFIX}/docs` || route.url.startsWith(`${API_PREFIX}/docs/`)) {
    route.config.rights ??= 'GET docs';
    return;
  }
  const key = route.config.rights;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!key) {
    throw new Error(
      `Route ${methods.join(',')} ${route.url} has no config.rights: add it to API_RIGHTS (src/contract/rights.ts)`,
    );
  }
  if (!Object.hasOwn(API_RIGHTS, key)) {
    throw new Error(`Route ${methods.join(',')} ${route.url} names "${key}", which is not in API_RIGHTS`);
  }
  for (const method of methods) {
    const own = routeKey(method, route.url);
    if (own !== key) {
      throw new Error(
        `Route ${method} ${route.url} names rights "${key}" but is "${own}" in API_RIGHTS terms`,
      );
    }
  }
  checkWriteGet(route, methods, key);
  checkNoHead(route, methods, key);
  documentRequirement(route, key);
}

/**
 * Holds a GET route to the WRITE_GETS declaration (contract/rights.ts): a declared write is
 * registered with `config.write: true` and `exposeHeadRoute: false`, and no GET route is marked
 * `config.write` without being declared.
 * @throws Error naming the route and what to change.
 */
function checkWriteGet(route: RouteOptions, methods: readonly string[], key: ApiRoute): void {
  if (!methods.includes('GET') && !methods.includes('HEAD')) return;
  const where = `Route ${methods.join(',')} ${route.url}`;
  if (!isWriteGet(key)) {
    if (route.config?.write === true) {
      throw new Error(
        `${where} is marked config.write but "${key}" is not in WRITE_GETS (src/contract/rights.ts): declare it there`,
      );
    }
    return;
  }
  if (methods.includes('HEAD')) {
    throw new Error(
      `${where} changes data (WRITE_GETS): it must have no HEAD route (exposeHeadRoute: false)`,
    );
  }
  if (route.config?.write !== true) {
    throw new Error(`${where} changes data (WRITE_GETS): register it with config.write: true`);
  }
  if (route.exposeHeadRoute !== false) {
    throw new Error(`${where} changes data (WRITE_GETS): register it with exposeHeadRoute: false`);
  }
}

/**
 * Holds a GET route that writes, checks a secret or renders a document (contract/rights.ts forbidsHead) to having
 * no HEAD twin: registered without HEAD and with `exposeHeadRoute: false`.
 * @throws Error naming the route and what to change.
 */
function checkNoHead(route: RouteOptions, methods: readonly string[], key: ApiRoute): void {
  if (!forbidsHead(key)) return;
  if (methods.includes('HEAD') || (methods.includes('GET') && route.exposeHeadRoute !== false)) {
    throw new Error(
      `Route ${methods.join(',')} ${route.url} checks a secret, changes data or renders a document ` +
        '(SECRET_GETS, WRITE_GETS, DOCUMENT_GETS): ' +
        'it must have no HEAD route (exposeHeadRoute: false)',
    );
  }
}

/** Says in the route's OpenAPI description what it requires; public routes need no credentials. */
function documentRequirement(route: RouteOptions, key: ApiRoute): void {
  const schema = route.schema;
  if (!schema) return;
  const requirement = API_RIGHTS[key];
  const needs =
    requirement === 'public'
      ? 'Access: public.'
      : requirement === 'session'
        ? 'Access: any signed-in user.'
        : `Access: signed-in user holding one of ${requirement.anyOf.join(', ')}.`;
  if (schema.description?.includes('Access: ')) return; // HEAD twin of a GET route, same schema object
  schema.description = schema.description ? `${schema.description}\n\n${needs}` : needs;
  if (requirement === 'public') schema.security ??= [];
}

/**
 * What the guard needs: the pool, the sessions' sliding minutes and absolute days
 * (COMPTOIR_SESSION_MINUTES, COMPTOIR_SESSION_MAX_DAYS), and the checked-session cache.
 */
export interface GuardOptions {
  pool: pg.Pool;
  sessionMinutes: number;
  sessionMaxDays: number;
  sessions?: SessionCache;
}

/**
 * Resolves the caller's session from `Authorization: Basic base64(login:token)`; null when
 * invalid. An item injected by a batch (outbox/batch-context.ts, set in process, never from a
 * header) with the batch's own `Authorization` takes the session the batch request resolved a
 * moment before, instead of looking the same token up again.
 */
async function sessionFromRequest(request: FastifyRequest, options: GuardOptions) {
  const batch = currentBatch();
  if (batch && batch.authorization === request.headers.authorization) return batch.session;
  const basic = parseBasic(request.headers.authorization);
  if (!basic) return null;
  const lifetime = { minutes: options.sessionMinutes, maxDays: options.sessionMaxDays };
  return resolveSession(options.pool, basic.login, basic.secret, lifetime, options.sessions);
}

/**
 * Installs the rights table's guard on the root instance `app`; call it before any route is
 * registered (the onRoute check only sees routes registered afterwards). With `sessions`,
 * checked sessions are kept in that cache (auth/tokens.ts) instead of read on every call.
 */
export function installRights(app: FastifyInstance, options: GuardOptions): void {
  app.decorateRequest('session', null);
  app.addHook('onRoute', checkRouteRights);
  // API answers carry users' sales: no shared or browser HTTP cache keeps them (the service
  // worker keeps its own copies, DESIGN.md §7).
  app.addHook('onSend', async function forbidHttpCaching(request, reply) {
    const key = request.routeOptions.config?.rights;
    if (key && key !== 'GET docs' && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
  });
  app.addHook('onRequest', async function checkRights(request) {
    const key = request.routeOptions.config?.rights;
    if (!key) return; // not an API route (client files, not-found)
    if (needsClientHeader(key) && !request.headers[CLIENT_HEADER.toLowerCase()]) {
      throw new ApiHttpError(400, 'MissingClientHeader', `the ${CLIENT_HEADER} header is required`);
    }
    const requirement = API_RIGHTS[key];
    if (requirement === 'public') return;
    const session = await sessionFromRequest(request, options);
    if (!session) throw new ApiHttpError(401, 'Unauthorized', 'missing, invalid or expired token');
    request.session = session;
    requireRight(session, key);
  });
}

/**
 * Checks that `session` holds the right the rights table asks of the route `key` (nothing for a
 * `public` or `session` entry). The guard's own check, also run by the batch for the items it
 * runs itself (outbox/direct-items.ts).
 * @throws ApiHttpError 403 `Forbidden` naming the rights that would do.
 */
export function requireRight(session: Pick<Session, 'droits'>, key: ApiRoute): void {
  const requirement = API_RIGHTS[key];
  if (requirement === 'public' || requirement === 'session') return;
  if (!requirement.anyOf.some((r) => session.droits.includes(r))) {
    throw new ApiHttpError(403, 'Forbidden', `needs one of the rights ${requirement.anyOf.join(', ')}`);
  }
}

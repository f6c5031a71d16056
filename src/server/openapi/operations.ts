/**
 * What the document says of each route, decided from the route itself while @fastify/swagger
 * walks them (its `transform`): the zod schemas turned into JSON Schema, a stable `operationId`,
 * the security requirement, the `X-Requested-With` header, and the facts the error answers are
 * derived from ({@link RouteFacts}), handed to the document pass (answers.ts) under
 * {@link FACTS_KEY} and removed there.
 */
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../contract/api.ts';
import { API_RIGHTS, type ApiRoute } from '../../contract/rights.ts';
import { API_PREFIX, needsClientHeader } from '../plugins/rights-guard.ts';
import type {} from '../plugins/idempotency.ts'; // config.write
import type {} from '@fastify/rate-limit'; // config.rateLimit

/** Operation key (an `x-` key, so @fastify/swagger copies it) carrying {@link RouteFacts}. */
export const FACTS_KEY = 'x-comptoir-route';

/** The security scheme of SPEC.md §7: `Authorization: Basic base64(login:password | login:token)`. */
export const BASIC_SCHEME = 'basic';

/**
 * Routes marked `public` in the rights table (no session needed) that nonetheless take Basic
 * credentials: sign-in checks login:password itself (SPEC.md §7 bo/connexion).
 */
const CREDENTIAL_ROUTES: ReadonlySet<ApiRoute> = new Set<ApiRoute>(['GET bo/connexion']);

/**
 * Routes counting failed password or code checks beyond `config.rateLimit` (decision record
 * 0020): one's own password change is counted as a failed sign-in (security/brute-force.ts).
 */
const COUNTED_ROUTES: ReadonlySet<ApiRoute> = new Set<ApiRoute>(['POST bo/infra/saveUtilisateur']);

/** What the error answers of an operation are derived from (answers.ts). */
export interface RouteFacts {
  /** The route's key in API_RIGHTS (`GET bo/getSites`). */
  key: ApiRoute;
  /** Who may call: `public`, `session`, or `rights` (a session holding one of some rights). */
  access: 'public' | 'session' | 'rights';
  /** Takes Basic credentials (every non-public route, and {@link CREDENTIAL_ROUTES}). */
  credentials: boolean;
  /** Runs as a write: idempotent under `Idempotency-Key` (plugins/idempotency.ts). */
  write: boolean;
  /** Refuses floods or counts failed checks: can answer 429 with Retry-After. */
  limited: boolean;
}

/**
 * The `operationId` of the route `key` (`GET bo/getReport` → `getBoGetReport`,
 * `GET bo/home/{widget}` → `getBoHomeWidget`): the method, then every path segment with its
 * first letter raised and what is not a letter or digit dropped. Derived from the wire method
 * and path only, so it never changes while the call does not; unique because they are.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .map((segment) => segment.replace(/[^A-Za-z0-9]/g, ''))
    .filter((segment) => segment !== '')
    .map((segment) => segment[0]!.toUpperCase() + segment.slice(1));
  return `${method.toLowerCase()}${words.join('')}`;
}

function isWrite(method: string | string[], write: boolean | undefined): boolean {
  const methods = Array.isArray(method) ? method : [method];
  return write === true || methods.some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m));
}

/** The facts of a route registered with rights key `key`. */
function factsOf(key: ApiRoute, method: string | string[], config: Record<string, unknown>): RouteFacts {
  const requirement = API_RIGHTS[key];
  const access = requirement === 'public' ? 'public' : requirement === 'session' ? 'session' : 'rights';
  return {
    key,
    access,
    credentials: access !== 'public' || CREDENTIAL_ROUTES.has(key),
    write: isWrite(method, config.write === true),
    limited: Boolean(config.rateLimit) || COUNTED_ROUTES.has(key),
  };
}

const clientHeader = {
  type: 'object',
  properties: {
    [CLIENT_HEADER]: {
      type: 'string',
      default: CLIENT_HEADER_VALUE,
      description: 'marks calls of the client (SPEC.md §7)',
    },
  },
  required: [CLIENT_HEADER],
};

/**
 * @fastify/swagger's `transform`: zod → JSON Schema (fastify-type-provider-zod), then the
 * operation's id, security, client header and facts. The header is documentation only: the
 * rights guard checks it, not the schema.
 */
export const operationTransform: SwaggerTransform = (document) => {
  const out = jsonSchemaTransform(document);
  const key = document.route.config?.rights;
  if (!out.schema || out.schema.hide || !key) return out;
  const method = document.route.method;
  const facts = factsOf(key, method, (document.route.config ?? {}) as Record<string, unknown>);
  const wireMethod = Array.isArray(method) ? method[0]! : method;
  const path = document.url.startsWith(API_PREFIX) ? document.url.slice(API_PREFIX.length) : document.url;
  // `x-` keys are copied to the operation by @fastify/swagger; FastifySchema does not list them.
  out.schema = {
    ...out.schema,
    operationId: operationIdOf(wireMethod, path),
    security: facts.credentials ? [{ [BASIC_SCHEME]: [] }] : [],
    [FACTS_KEY]: facts,
    ...(needsClientHeader(key) ? { headers: clientHeader } : {}),
  } as typeof out.schema;
  return out;
};

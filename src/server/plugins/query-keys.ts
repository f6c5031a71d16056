/**
 * Unknown query parameters are refused (issue #17 item 11, decision record 0023): a call to an
 * API route whose query holds a parameter its schema does not name answers 400
 * `UnknownParameter` with the parameter in `details.parameter`, instead of silently ignoring a
 * misspelt `dateDebutt` and answering for another period than the caller meant.
 *
 * Always accepted: `_`, the cache-busting timestamp SPEC.md §7 lets every call carry (our client
 * sends it on each GET, lib/http.ts), and `id`, the caller's user id of SPEC.md §7 calls
 * (ignored where the route does not read it, as before). A query schema that declares a catchall (bo/getReport:
 * SPEC.md §7 "plus merim_* settings") also accepts the `merim_` settings, and only those.
 * `name[]` is read as `name` where the schema names only `name` ({@link mergeBracketLists}).
 * A route whose query schema is not an object the check can read (none today), or that has no
 * query schema, is not checked.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { ApiHttpError } from './error-handler.ts';

/** The query parameter every call may carry (SPEC.md §7 cache buster). */
export const CACHE_BUSTER = '_';

/**
 * Accepted on every route, named by its schema or not: the cache buster, and `id`, the caller's
 * own user id SPEC.md §7 passes on data calls — our client sends it to calls that do not read it
 * (bo/documentsManager/createDocument), and writes already queued in outboxes hold it.
 */
const ALWAYS_ACCEPTED: ReadonlySet<string> = new Set([CACHE_BUSTER, 'id']);

/** Settings SPEC.md §7 lets bo/getReport carry beyond its own parameters. */
export const SETTINGS_PREFIX = 'merim_';

/** The keys a query schema names, and whether it takes more (a catchall). */
export interface QueryKeys {
  names: Set<string>;
  open: boolean;
}

interface ZodLike {
  _zod?: { def: Record<string, unknown> & { type: string } };
}

/** What a zod query schema accepts, or null when it is not an object the check can read. */
export function queryKeysOf(schema: unknown): QueryKeys | null {
  const def = (schema as ZodLike | undefined)?._zod?.def;
  if (!def) return null;
  switch (def.type) {
    case 'object': {
      const catchall = (def.catchall as ZodLike | undefined)?._zod?.def.type;
      return {
        names: new Set(Object.keys(def.shape as object)),
        open: catchall !== undefined && catchall !== 'never',
      };
    }
    case 'pipe':
      return queryKeysOf(def.in);
    case 'optional':
    case 'default':
    case 'readonly':
    case 'nullable':
      return queryKeysOf(def.innerType);
    case 'union':
      return merged((def.options as unknown[]).map(queryKeysOf));
    case 'intersection':
      return merged([queryKeysOf(def.left), queryKeysOf(def.right)]);
    default:
      return null;
  }
}

function merged(parts: (QueryKeys | null)[]): QueryKeys | null {
  if (parts.some((p) => p === null)) return null;
  const known = parts as QueryKeys[];
  return { names: new Set(known.flatMap((p) => [...p.names])), open: known.some((p) => p.open) };
}

/**
 * SPEC.md §7 writes lists as `sites[]=1&sites[]=2` (our client's toSearchParams too): on a route
 * whose schema names `sites` but not `sites[]`, the bracketed values are moved onto `sites`
 * (added to any there), so they are read rather than refused or, as before, silently dropped.
 */
export function mergeBracketLists(query: Record<string, unknown>, keys: QueryKeys): void {
  for (const name of Object.keys(query)) {
    const bare = name.slice(0, -2);
    if (!name.endsWith('[]') || keys.names.has(name) || !keys.names.has(bare)) continue;
    const values = [query[bare], query[name]].flat().filter((v) => v !== undefined);
    query[bare] = values;
    delete query[name];
  }
}

/** The first parameter of `query` that `keys` do not accept, or undefined. */
export function unknownParameter(query: unknown, keys: QueryKeys): string | undefined {
  if (!query || typeof query !== 'object') return undefined;
  return Object.keys(query).find(
    (name) =>
      !ALWAYS_ACCEPTED.has(name) && !keys.names.has(name) && !(keys.open && name.startsWith(SETTINGS_PREFIX)),
  );
}

/**
 * The check run on a route's parsed `query` before validation: `name[]` lists merged onto
 * `name` (in place), then any parameter `keys` do not accept refused. The route's own check,
 * also run by the batch for the items it runs itself (outbox/direct-items.ts).
 * @throws ApiHttpError 400 `UnknownParameter` with the parameter (its first 100 characters) in `details.parameter`.
 */
export function checkQuery(query: unknown, keys: QueryKeys): void {
  if (query && typeof query === 'object') mergeBracketLists(query as Record<string, unknown>, keys);
  const name = unknownParameter(query, keys);
  if (name === undefined) return;
  // The name is the caller's own text, checked valid by the input guard; bounded in length.
  throw new ApiHttpError(400, 'UnknownParameter', 'unknown query parameter', {
    where: 'querystring',
    parameter: name.slice(0, 100),
  });
}

function withHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), hook];
}

/**
 * Installs the check on every route under `apiPrefix` registered afterwards (a route-level
 * preValidation hook, so the rights guard's 401/403 come first).
 */
export function installQueryKeyCheck(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('onRoute', function refuseUnknownQueryKeys(route: RouteOptions) {
    if (!route.url.startsWith(`${apiPrefix}/`)) return;
    const keys = queryKeysOf(route.schema?.querystring);
    if (!keys) return;
    async function checkQueryKeys(request: FastifyRequest) {
      checkQuery(request.query, keys!);
    }
    route.preValidation = withHook(route.preValidation, checkQueryKeys) as RouteOptions['preValidation'];
  });
}

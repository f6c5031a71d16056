/**
 * Batch items run by the batch itself, without the HTTP pipeline (decision record 0027, issue
 * #17 "Outbox replay throughput"). The batch route (routes/outbox-batch-routes.ts) used to send
 * every item to the app with `inject`, as a request of its own: routing, every hook, parsing the
 * JSON it had just written, validation, serialization, then parsing the answer back — about
 * three quarters of the server's time per cash count. A write route may instead declare, in
 * `config.batchItem`, the function its handler calls ({@link BatchItemHandler}); the batch then
 * runs an item naming that route here, doing what the pipeline would have done, in its order:
 *
 * 1. the rights table's check of the route's right for the batch's session (plugins/rights-guard.ts
 *    `requireRight`; the session, the `X-Requested-With` header and every text of the item were
 *    already checked on the batch request itself, at the edge: plugins/input-guard.ts);
 * 2. the route's query-parameter check (plugins/query-keys.ts `checkQuery`);
 * 3. validation with the route's own zod schemas, compiled by the app's compiler, body first then
 *    query as Fastify does, a failure answered as Fastify's validation error would be;
 * 4. idempotency in the batch's transaction (plugins/idempotency.ts `runKeyedBatchItem`: the same
 *    key rules, the same request identity, so a key sent alone is recognised in a batch and the
 *    reverse);
 * 5. the handler in the item's savepoint, its answer serialized with the route's 200 schema by
 *    the app's serializer; any error answered by the app's error shape (plugins/error-handler.ts
 *    `errorAnswer`), a 5xx logged.
 *
 * A route can opt in only when its handler is exactly `batchItem` over the request's parts: it
 * must be a `config.write` route (it runs in the write transaction), answer 200 JSON, have no
 * rate limit and no hooks of its own; registering one that breaks this is a start-up error
 * ({@link DirectItems.collect}). tests/server/outbox-direct-items.test.ts sends the same items
 * through both ways and compares every answer.
 */
import type { FastifyBaseLogger, RouteOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { canonicalValidatorCompiler } from '../plugins/canonical-numbers.ts';
import type pg from 'pg';
import type { ZodType } from 'zod';
import type { OutboxBatchItem, OutboxBatchItemAnswer } from '../../contract/outbox-batch-wire.ts';
import type { ApiRoute } from '../../contract/rights.ts';
import type { Session } from '../auth/session.ts';
import { errorAnswer } from '../plugins/error-handler.ts';
import {
  IN_PROGRESS_RETRY_AFTER_SECONDS,
  identityOf,
  runKeyedBatchItem,
  type SerializedAnswer,
} from '../plugins/idempotency.ts';
import { checkQuery, type QueryKeys, queryKeysOf } from '../plugins/query-keys.ts';
import { requireRight } from '../plugins/rights-guard.ts';
import { retryAfterOf } from '../security/brute-force.ts';
import { type BatchContext, currentBatch } from './batch-context.ts';
import { itemAnswer } from './batch.ts';

/** What a write's handler works on: its validated query and body, the caller's session, the write transaction. */
export interface BatchItemInput<Query, Body> {
  query: Query;
  body: Body;
  session: Session;
  tx: pg.PoolClient;
}

/**
 * The work of a write route, shared by its handler (which passes the request's parts) and the
 * batch (which passes an item's): answers the route's 200 answer (an object its response schema
 * serializes); throws what the handler would throw (ApiHttpError, DomainError).
 */
// biome-ignore lint/suspicious/noExplicitAny: each route's function has its own query and body types.
export type BatchItemHandler<Query = any, Body = any, Answer = unknown> = (
  input: BatchItemInput<Query, Body>,
) => Promise<Answer>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's work as a function of its validated query and body, session and write
     * transaction: a batch runs an item naming the route with it, without the HTTP pipeline
     * (outbox/direct-items.ts). The handler must do nothing else.
     */
    batchItem?: BatchItemHandler;
  }
}

/** One issue of a failed validation, as the app's validator compiler gives it. */
interface ValidationIssue {
  instancePath: string;
  message: string;
}

/** A compiled validator of the app's compiler (fastify-type-provider-zod): the value, or its issues. */
type Validator = (data: unknown) => { value: unknown } | { error: ValidationIssue[] };

/** A route the batch runs itself ({@link DirectItems.find}). */
export interface DirectRoute {
  rights: ApiRoute;
  queryKeys: QueryKeys | null;
  validateBody: Validator | null;
  validateQuery: Validator | null;
  serialize: (data: unknown) => string;
  handler: BatchItemHandler;
}

/** The error Fastify makes of a failed validation of `part` (fastify/lib/validation.js wrapValidationError, default formatter). */
function validationError(part: 'body' | 'querystring', issues: ValidationIssue[]) {
  const text = issues.map((issue) => `${part}${issue.instancePath || ''} ${issue.message}`).join(', ');
  return Object.assign(new Error(text), {
    statusCode: 400,
    code: 'FST_ERR_VALIDATION',
    validation: issues,
    validationContext: part,
  });
}

/** Runs `validate` on `data` (undefined read as null, as Fastify does); the validated value. */
function validated(validate: Validator | null, data: unknown, part: 'body' | 'querystring'): unknown {
  if (!validate) return data;
  const result = validate(data === undefined ? null : data);
  if ('error' in result) throw validationError(part, result.error);
  return result.value;
}

/** The hooks a route may declare for itself (Fastify's route options). */
const ROUTE_HOOKS = [
  'onRequest',
  'preParsing',
  'preValidation',
  'preHandler',
  'preSerialization',
  'onSend',
  'onResponse',
  'onError',
  'onTimeout',
  'onRequestAbort',
] as const;

/**
 * The app's routes that batches run themselves, collected as they are registered: install
 * {@link DirectItems.collect} as the app's FIRST onRoute hook, before any plugin adds hooks to
 * routes (compression, the input guard, the query-parameter check).
 */
export class DirectItems {
  private readonly routes = new Map<string, DirectRoute>();

  /**
   * The onRoute hook: keeps a route that declares `config.batchItem`.
   * @throws Error naming the route when it cannot run outside the pipeline (not `config.write`,
   *   a rate limit, hooks of its own, no 200 answer schema).
   */
  collect(route: RouteOptions): void {
    const handler = route.config?.batchItem;
    if (!handler) return;
    const methods = [route.method].flat();
    const where = `Route ${methods.join(',')} ${route.url}`;
    const refuse = (why: string) => {
      throw new Error(`${where} declares config.batchItem but ${why}`);
    };
    if (route.config?.write !== true) refuse('is not config.write');
    if (route.config?.rateLimit) refuse('has a rate limit');
    if (methods.length !== 1) refuse('has several methods');
    // Run before any other onRoute hook (app.ts), so these are the route's own hooks.
    for (const hook of ROUTE_HOOKS) if (route[hook] !== undefined) refuse(`has its own ${hook} hook`);
    const answer = (route.schema?.response as Record<string, unknown> | undefined)?.['200'];
    if (!answer) refuse('has no 200 answer schema');
    const method = methods[0] as string;
    const { url } = route;
    const compile = (schema: unknown, httpPart: string) =>
      schema === undefined
        ? null
        : (canonicalValidatorCompiler({ schema: schema as ZodType, method, url, httpPart }) as Validator);
    this.routes.set(`${method} ${url}`, {
      rights: route.config!.rights as ApiRoute,
      queryKeys: queryKeysOf(route.schema?.querystring),
      validateBody: compile(route.schema?.body, 'body'),
      validateQuery: compile(route.schema?.querystring, 'querystring'),
      serialize: serializerCompiler({ schema: answer as ZodType, method, url, httpStatus: '200' }) as (
        data: unknown,
      ) => string,
      handler,
    });
  }

  /** The route `method` `url` (`/api/…`, no query) when the batch runs it itself, else undefined. */
  find(method: string, url: string): DirectRoute | undefined {
    return this.routes.get(`${method} ${url}`);
  }
}

/**
 * Runs `item` (naming `route`, found by {@link DirectItems.find}, at `url`: `/api/…?query` as it
 * would be sent alone) in the open batch the caller runs it in (outbox/batch-context.ts), and
 * answers what it would have answered alone. An unexpected error is logged to `log` and answered
 * 500 `InternalError`, as the app does.
 * @throws Error when no batch is open: a programming error.
 */
export async function runDirectItem(
  route: DirectRoute,
  item: OutboxBatchItem,
  url: string,
  log: FastifyBaseLogger,
): Promise<OutboxBatchItemAnswer> {
  const batch = currentBatch();
  if (!batch) throw new Error(`${item.method} ${item.path} is not run by an open batch`);
  try {
    const answer = await runRoute(route, batch, item, url);
    return itemAnswer(
      answer.status,
      answer.contentType ?? undefined,
      answer.body,
      answer.replayed,
      undefined,
    );
  } catch (error) {
    const { status, body } = errorAnswer(error);
    if (status >= 500 && !isInProgress(error)) {
      log.error(
        { err: error, method: item.method, path: item.path, userId: batch.session.userId },
        'request failed',
      );
    }
    const answer: OutboxBatchItemAnswer = { status, body, replayed: false };
    const retryAfter = isInProgress(error) ? IN_PROGRESS_RETRY_AFTER_SECONDS : retryAfterOf(error);
    if (retryAfter !== null) answer.retryAfterSeconds = retryAfter;
    return answer;
  }
}

/** True for the 503 of a key another request holds. */
function isInProgress(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'IdempotencyKeyInProgress';
}

/** Steps 1 to 5 of the module comment; throws what the pipeline would answer as an error. */
async function runRoute(
  route: DirectRoute,
  batch: BatchContext,
  item: OutboxBatchItem,
  url: string,
): Promise<SerializedAnswer & { replayed: boolean }> {
  requireRight(batch.session, route.rights);
  // A copy: the check merges `name[]` lists in place, as it does on a request's parsed query.
  const rawQuery: Record<string, unknown> = { ...(item.query ?? {}) };
  if (route.queryKeys) checkQuery(rawQuery, route.queryKeys);
  const withBody = item.method !== 'GET' && item.method !== 'DELETE';
  // Alone, the body is sent as JSON (null when the item has none) and parsed again.
  const body = validated(route.validateBody, withBody ? (item.body ?? null) : undefined, 'body');
  const query = validated(route.validateQuery, rawQuery, 'querystring');
  const identity = identityOf(item.method, url, withBody ? body : undefined);
  return runKeyedBatchItem(batch, item.method, item.idempotencyKey.toLowerCase(), identity, async () => {
    const result = await route.handler({ query, body, session: batch.session, tx: batch.tx });
    return { status: 200, contentType: 'application/json; charset=utf-8', body: route.serialize(result) };
  });
}

/**
 * Idempotent writes (DESIGN.md §7, contract in src/contract/counting.ts). The offline outbox
 * replays a write until it sees an answer, so the server may receive the same write several
 * times, even concurrently (two tabs, the service worker, a response lost after the commit).
 * This plugin makes that safe for every write route registered after it:
 *
 * - A write route is any POST, PUT, PATCH or DELETE, and any GET whose route sets
 *   `config.write: true` (the GETs of SPEC.md §7 that change data).
 * - With an `Idempotency-Key` header (a UUID) on a signed-in call, the route runs inside one
 *   transaction that first takes a transaction-scoped advisory lock on (user, key), then looks
 *   the key up: a stored answer is replayed (same status and body, `Idempotent-Replayed: true`)
 *   when the method, path and request hash match, else 422 `IdempotencyKeyReused`. A new key
 *   runs the handler, and the key with the first 2xx answer is inserted in the same
 *   transaction as the handler's writes, so "written" and "answer kept" commit together.
 *   A non-2xx answer rolls back and keeps nothing.
 * - Concurrent repeats never write twice: a repeat that cannot take the lock gives its
 *   connection back and tries again a little later (so waiting repeats never starve the pool
 *   the first one needs), then replays the first answer; after IDEMPOTENCY_WAIT_SECONDS it
 *   answers 503 `IdempotencyKeyInProgress` with `Retry-After`.
 * - Routes with `config.write: true` also run in that transaction without a key: they read it
 *   with {@link writeTx}. Other write routes (not ours) get the lock and the replay, but their
 *   own writes commit on their own connections just before the key does; a crash between the
 *   two can let a repeat run again. Handlers must RETURN their answer (not `reply.send` it)
 *   for it to be kept; an answer sent directly commits without keeping the key.
 * - A side effect outside the database (an e-mail) cannot roll back with the transaction: the
 *   handler reads `request.idempotencyKey` and keeps its own committed record of what it did
 *   for the key (mail/send-once.ts), so a repeat whose first answer was lost does not
 *   act twice.
 * - Inside a batch (`POST bo/outbox/batch`, decision record 0024; the batch is handed over in
 *   process by outbox/batch-context.ts, never by a header) a keyed write takes no connection of
 *   its own: the batch's transaction locked all its keys at once ({@link lockBatchKeys}; a key
 *   held elsewhere answers 503 at once rather than wait while holding the batch), a known key
 *   is replayed or refused as above, and a `config.write` handler runs in the batch's
 *   transaction, inside the item's savepoint; its answer is stored with the others just before
 *   the batch commits ({@link keepBatchAnswers}), so writes and kept answer still commit together.
 *   A route that writes on its own connections is never run inside a batch's transaction: the
 *   batch runs it alone once it committed ({@link writesOnOwnConnections}). An item the batch
 *   runs itself, without the HTTP pipeline (outbox/direct-items.ts), follows the same rules
 *   through {@link runKeyedBatchItem}, with the same request identity ({@link identityOf}).
 * - Keys live IDEMPOTENCY_KEY_TTL_DAYS days (a lookup ignores older rows; they are purged at
 *   most once an hour per process when a key is stored).
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type pg from 'pg';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_WAIT_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  IdempotencyKeySchema,
} from '../../contract/counting.ts';
import { type BatchContext, currentBatch } from '../outbox/batch-context.ts';
import type {} from './request-session.ts'; // request.session
import { ApiHttpError } from './error-handler.ts';
import { beginTransaction, rollback } from '../db/transaction.ts';
import {
  commit,
  lockKey,
  purgeExpired,
  type StoredAnswer,
  storeAnswer,
  storeAnswers,
  lockKeys,
} from './idempotency-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The write transaction of a write route run under a key or with `config.write`; else null. */
    writeTx: pg.PoolClient | null;
    /**
     * The request's Idempotency-Key (a lower-case UUID) when it is a keyed write of a signed-in
     * user, else null. A handler with a side effect outside the database (an e-mail) uses it to
     * remember, on its own committed rows, what it already did for this key.
     */
    idempotencyKey: string | null;
  }
  interface FastifyContextConfig {
    /**
     * The route writes: it runs in one transaction ({@link writeTx}) with or without a key, and
     * a GET so marked honours `Idempotency-Key` like a POST.
     */
    write?: boolean;
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Pause between two tries of a repeat waiting for the first request, in milliseconds. */
const RETRY_PAUSE_MS = 25;
/** The client's cache-busting query parameter (src/client/lib/http.ts): not part of the request's identity. */
const CACHE_BUSTER = '_';

/**
 * The transaction of a `config.write` route: every read and write of the handler goes through
 * it so the idempotency key commits with them.
 * @throws Error when the route is not marked `config.write` (a programming error).
 */
export function writeTx(request: FastifyRequest): pg.PoolClient {
  if (!request.writeTx) throw new Error(`${request.method} ${request.url}: route lacks config.write`);
  return request.writeTx;
}

/** Text written as it is by {@link canonical} (brackets, commas, keys), as opposed to a value to write. */
class Written {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** The parts of an array or object for {@link canonical}: its brackets, separators, keys and values. */
function partsOf(item: object): unknown[] {
  if (Array.isArray(item)) {
    const parts: unknown[] = [new Written('[')];
    for (let i = 0; i < item.length; i++) {
      if (i > 0) parts.push(new Written(','));
      parts.push(item[i]);
    }
    parts.push(new Written(']'));
    return parts;
  }
  const entries = Object.entries(item as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const parts: unknown[] = [new Written('{')];
  for (const [i, [k, v]] of entries.entries())
    parts.push(new Written(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`), v);
  parts.push(new Written('}'));
  return parts;
}

/**
 * JSON with object keys sorted at every depth, so equal values hash equally; `undefined` in an
 * array is `null`, in an object left out. Iterative (a stack, no recursion), so no nesting can
 * overflow it, whatever parser made the body (plugins/input-guard.ts refuses JSON deeper than
 * 32, but the hash does not rely on it).
 */
function canonical(value: unknown): string {
  const out: string[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Written) out.push(item.text);
    else if (item !== null && typeof item === 'object') {
      const parts = partsOf(item);
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]);
    } else out.push(JSON.stringify(item) ?? 'null');
  }
  return out.join('');
}

/** What a repeat of a keyed write must match: its path (`/api/…`, no query) and the SHA-256 (hex) of its identity. */
export interface WriteIdentity {
  path: string;
  hash: string;
}

/**
 * The identity of the write `method` `url` (`/api/…?query`, as sent) with the validated `body`
 * (undefined when it has none): method, path, query parameters (minus `_`, sorted) and body,
 * hashed with SHA-256. The batch's direct items (outbox/direct-items.ts) hash with it too, so a
 * key sent alone and then in a batch, or the reverse, is recognised.
 */
export function identityOf(method: string, url: string, body: unknown): WriteIdentity {
  const parsed = new URL(url, 'http://x');
  const query = [...parsed.searchParams.entries()]
    .filter(([k]) => k !== CACHE_BUSTER)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const text = `${method} ${parsed.pathname}\n${canonical(query)}\n${canonical(body ?? null)}`;
  return { path: parsed.pathname, hash: createHash('sha256').update(text).digest('hex') };
}

/** {@link identityOf} the request (its method, URL and validated body). */
export function requestIdentity(request: FastifyRequest): WriteIdentity {
  return identityOf(request.method, request.url, request.body);
}

/** Sends a stored answer again. */
function replay(reply: FastifyReply, stored: StoredAnswer): FastifyReply {
  reply.code(stored.status).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if (stored.content_type) reply.type(stored.content_type);
  return reply.send(stored.body);
}

/** A keyed write: its user, key (a lower-case UUID) and identity (what a repeat must match). */
interface KeyedWrite {
  userId: number;
  key: string;
  identity: WriteIdentity;
}

/**
 * The keyed write `request` is when it carries an Idempotency-Key and a signed-in user makes it;
 * null without the header or a session.
 * @throws ApiHttpError 400 BadRequest when a signed-in user's key is not a UUID.
 */
function keyedWriteOf(request: FastifyRequest): KeyedWrite | null {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  const rawKey = Array.isArray(header) ? header[0] : header;
  const session = request.session;
  if (rawKey === undefined || session === null) return null;
  if (!IdempotencyKeySchema.safeParse(rawKey).success) {
    throw new ApiHttpError(400, 'BadRequest', `${IDEMPOTENCY_KEY_HEADER} must be a UUID`);
  }
  return { userId: session.userId, key: rawKey.toLowerCase(), identity: requestIdentity(request) };
}

/** Seconds a repeat is told to wait (`Retry-After`) while the key's first request still runs. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 5;

/** The 503 `IdempotencyKeyInProgress` error (its answer carries `Retry-After`: IN_PROGRESS_RETRY_AFTER_SECONDS). */
function inProgress(): ApiHttpError {
  return new ApiHttpError(
    503,
    'IdempotencyKeyInProgress',
    'the first request with this key is still running',
  );
}

/**
 * Answers 503 `IdempotencyKeyInProgress` with `Retry-After`.
 * @throws ApiHttpError always.
 */
function refuseInProgress(reply: FastifyReply): never {
  reply.header('retry-after', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
  throw inProgress();
}

/**
 * Checks that `stored`, the answer kept for a key, was kept for the same request: `method` and
 * `identity`.
 * @throws ApiHttpError 422 IdempotencyKeyReused when it is another request's (method, path or hash).
 */
function requireSameRequest(stored: StoredAnswer, method: string, identity: WriteIdentity): void {
  if (stored.method !== method || stored.path !== identity.path || stored.request_hash !== identity.hash) {
    throw new ApiHttpError(
      422,
      'IdempotencyKeyReused',
      `${IDEMPOTENCY_KEY_HEADER} was used for another request`,
    );
  }
}

/**
 * Replays `stored`, the answer kept for the key of `write`, when it was kept for the same request.
 * @throws ApiHttpError 422 IdempotencyKeyReused when it is another request's (method, path or hash).
 */
function replayOrRefuse(
  request: FastifyRequest,
  reply: FastifyReply,
  write: KeyedWrite,
  stored: StoredAnswer,
): FastifyReply {
  requireSameRequest(stored, request.method, write.identity);
  return replay(reply, stored);
}

/**
 * Takes the lock of a keyed write, trying again every RETRY_PAUSE_MS while another request
 * holds it. Answers the open transaction, or the reply of the stored answer replayed.
 * @throws ApiHttpError 422 IdempotencyKeyReused when the key's stored answer is another request's;
 *   503 IdempotencyKeyInProgress (with `Retry-After`) after IDEMPOTENCY_WAIT_SECONDS.
 */
async function lockOrReplay(
  pool: pg.Pool,
  request: FastifyRequest,
  reply: FastifyReply,
  write: KeyedWrite,
): Promise<{ client: pg.PoolClient } | { replayed: FastifyReply }> {
  const deadline = Date.now() + IDEMPOTENCY_WAIT_SECONDS * 1000;
  for (;;) {
    const got = await lockKey(pool, write.userId, write.key);
    if (got.client) return { client: got.client };
    if (got.stored) return { replayed: replayOrRefuse(request, reply, write, got.stored) };
    if (Date.now() > deadline) refuseInProgress(reply);
    await sleep(RETRY_PAUSE_MS);
  }
}

/**
 * The answer `result` of a keyed write as it will be kept: the serialized body and its content
 * type (also set on `reply`, so the first answer and its replays carry the same).
 */
function answerToKeep(
  request: FastifyRequest,
  reply: FastifyReply,
  write: KeyedWrite,
  result: unknown,
): StoredAnswer {
  const serialized = typeof result === 'string' ? result : reply.serialize(result);
  const body =
    typeof serialized === 'string' ? serialized : Buffer.from(serialized as ArrayBuffer).toString('utf8');
  const contentType =
    (reply.getHeader('content-type') as string | undefined) ??
    (typeof result === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
  reply.type(contentType);
  return {
    method: request.method,
    path: write.identity.path,
    request_hash: write.identity.hash,
    status: reply.statusCode,
    content_type: contentType,
    body,
  };
}

/**
 * Commits the handler's transaction `client` after a 2xx answer `result`, keeping the answer of
 * a keyed write in the same transaction; rolls back on any failure.
 * @returns the kept body, which the caller sends, or undefined when nothing was kept (no key,
 *   or the handler sent its own answer — a stream, a file).
 */
async function commitAnswer(
  client: pg.PoolClient,
  request: FastifyRequest,
  reply: FastifyReply,
  write: KeyedWrite | null,
  result: unknown,
): Promise<string | undefined> {
  const sentDirectly = result === reply || reply.sent;
  try {
    let body: string | undefined;
    if (write && !sentDirectly) {
      const answer = answerToKeep(request, reply, write, result);
      await storeAnswer(client, write.userId, write.key, answer);
      body = answer.body;
    }
    await commit(client);
    return body;
  } catch (e) {
    await rollback(client);
    throw e;
  }
}

/** What the plugin keeps of one batch (decision record 0024): its user, its keys' locks, its items' answers. */
interface BatchKeys {
  userId: number;
  /** Per key of the batch: whether its transaction holds the key's lock, and the answer stored before. */
  states: Map<string, { locked: boolean; stored: StoredAnswer | null }>;
  /**
   * Answers kept by the batch's items so far, by key: `item` is the item whose savepoint holds
   * the writes (the answer commits with the batch unless that item was rolled back), or null
   * when the answer was already stored on the pool (a route whose writes commit on their own).
   */
  kept: Map<string, { item: number | null; answer: StoredAnswer }>;
}

const batchKeys = new WeakMap<BatchContext, BatchKeys>();

/**
 * Before a batch's first item: takes in its transaction the locks of all its keys that no one
 * else holds and reads their stored answers, in two statements (idempotency-store.ts lockKeys).
 * An item whose key stays locked elsewhere answers 503; the others are run or replayed without
 * waiting, since no one else can store their key before the batch ends.
 */
export async function lockBatchKeys(batch: BatchContext): Promise<void> {
  const userId = batch.session.userId;
  const states = await lockKeys(batch.tx, userId, batch.keys);
  batchKeys.set(batch, { userId, states, kept: new Map() });
}

/** Last in a batch's transaction: stores, in one statement, the answers of its items that were kept. */
export async function keepBatchAnswers(batch: BatchContext): Promise<void> {
  const keys = batchKeys.get(batch);
  if (!keys) return;
  const rows = [...keys.kept]
    .filter(([, kept]) => kept.item !== null && !batch.rolledBack.has(kept.item))
    .map(([key, kept]) => ({ key, answer: kept.answer }));
  await storeAnswers(batch.tx, keys.userId, rows);
}

/** The answer kept for `key` before in the batch or in the table, unless its item was rolled back. */
function storedInBatch(batch: BatchContext, keys: BatchKeys, key: string): StoredAnswer | null {
  const earlier = keys.kept.get(key);
  if (earlier && (earlier.item === null || !batch.rolledBack.has(earlier.item))) return earlier.answer;
  return keys.states.get(key)?.stored ?? null;
}

/**
 * Runs the keyed write `write`, an item of `batch` naming a `config.write` route: replayed or
 * refused 422 when its key was answered before, 503 when another request holds its key; else
 * its handler runs in the batch's transaction, and its 2xx answer is stored with its writes at
 * the batch's end. The batch rolls the item back to its savepoint when it answers non-2xx.
 */
async function runBatchItem(
  this: FastifyInstance,
  original: RouteHandlerMethod,
  batch: BatchContext,
  keys: BatchKeys,
  write: KeyedWrite,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  if (!keys.states.get(write.key)?.locked) refuseInProgress(reply);
  const stored = storedInBatch(batch, keys, write.key);
  if (stored) return replayOrRefuse(request, reply, write, stored);
  const item = batch.item;
  request.idempotencyKey = write.key;
  request.writeTx = batch.tx;
  let result: unknown;
  try {
    result = await original.call(this, request, reply);
  } finally {
    request.writeTx = null;
  }
  if (reply.statusCode < 200 || reply.statusCode >= 300 || result === reply || reply.sent) return result;
  const answer = answerToKeep(request, reply, write, result);
  keys.kept.set(write.key, { item, answer });
  return reply.send(answer.body);
}

/** A serialized answer: its status, content type (null: none kept, the text as it is) and body text. */
export interface SerializedAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/**
 * Runs the keyed write of `batch`'s current item when the batch runs it itself, without the
 * HTTP pipeline (outbox/direct-items.ts; decision record 0027), with the rules of
 * {@link runBatchItem}: a key another request holds answers 503, a key answered before (in the
 * table, or by an earlier item of the batch that was kept) is replayed when `method` and
 * `identity` match, else refused 422; a new key runs `run` in the batch's transaction (inside
 * the item's savepoint), and its 2xx answer is stored with the batch's writes at its end.
 * @param key the item's Idempotency-Key in lower case.
 * @returns the answer, and whether it is the key's first answer replayed.
 * @throws ApiHttpError 503 IdempotencyKeyInProgress (answer it with `Retry-After`:
 *   {@link IN_PROGRESS_RETRY_AFTER_SECONDS}), 422 IdempotencyKeyReused; whatever `run` throws;
 *   Error when the batch's keys were not locked first ({@link lockBatchKeys}: a programming error).
 */
export async function runKeyedBatchItem(
  batch: BatchContext,
  method: string,
  key: string,
  identity: WriteIdentity,
  run: () => Promise<SerializedAnswer>,
): Promise<SerializedAnswer & { replayed: boolean }> {
  const keys = batchKeys.get(batch);
  if (!keys) throw new Error('the batch ran an item before locking its keys');
  if (!keys.states.get(key)?.locked) throw inProgress();
  const stored = storedInBatch(batch, keys, key);
  if (stored) {
    requireSameRequest(stored, method, identity);
    return {
      status: stored.status,
      contentType: stored.content_type,
      body: stored.body,
      replayed: true,
    };
  }
  const item = batch.item;
  const answer = await run();
  if (answer.status >= 200 && answer.status < 300) {
    keys.kept.set(key, {
      item,
      answer: {
        method,
        path: identity.path,
        request_hash: identity.hash,
        status: answer.status,
        content_type: answer.contentType,
        body: answer.body,
      },
    });
  }
  return { ...answer, replayed: false };
}

/**
 * Write routes that write on their own connections (no `config.write`), as `METHOD /api/path`,
 * of every app of the process (they all register the same routes). A batch cannot run them in
 * its transaction: it runs them alone after it committed ({@link writesOnOwnConnections}).
 */
const ownConnectionWrites = new Set<string>();

/**
 * True when the write route `method` `url` (`/api/…`, no query) does not run in the write
 * transaction: its handler writes through the pool, where a statement could wait for a row a
 * batch's transaction holds while that batch waits for it.
 */
export function writesOnOwnConnections(method: string, url: string): boolean {
  return ownConnectionWrites.has(`${method} ${url}`);
}

/**
 * Wraps a write route's handler with the key lookup, the transaction and the storing of the
 * first answer (see the module comment).
 */
function wrapHandler(
  original: RouteHandlerMethod,
  pool: pg.Pool,
  alwaysTransaction: boolean,
): RouteHandlerMethod {
  return async function idempotentHandler(this: FastifyInstance, request, reply) {
    const write = keyedWriteOf(request);
    if (write === null && !alwaysTransaction) return original.call(this, request, reply);
    const batch = currentBatch();
    const keys = batch && batchKeys.get(batch);
    if (batch && keys && write && alwaysTransaction && write.userId === keys.userId) {
      return runBatchItem.call(this, original, batch, keys, write, request, reply);
    }

    let client: pg.PoolClient;
    if (write) {
      const locked = await lockOrReplay(pool, request, reply, write);
      if ('replayed' in locked) return locked.replayed;
      client = locked.client;
    } else {
      client = await beginTransaction(pool);
    }

    request.writeTx = client;
    request.idempotencyKey = write?.key ?? null;
    let result: unknown;
    try {
      result = await original.call(this, request, reply);
    } catch (e) {
      request.writeTx = null;
      await rollback(client);
      throw e;
    }
    request.writeTx = null;
    if (reply.statusCode < 200 || reply.statusCode >= 300) {
      await rollback(client);
      return result;
    }
    const body = await commitAnswer(client, request, reply, write, result);
    if (write) {
      await purgeExpired(pool).catch(function warnPurgeFailed(e: unknown) {
        request.log.warn({ err: e }, 'idempotency purge failed');
      });
    }
    if (body !== undefined) return reply.send(body);
    return result;
  };
}

/** True when `route` changes data (see the module comment). */
function isWriteRoute(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return route.config?.write === true || methods.some((m) => WRITE_METHODS.has(m));
}

/**
 * Installs idempotency on every write route registered after it in the registering scope
 * (register it first under the API prefix). Runs in the parent's scope (skip-override) so its
 * onRoute hook sees sibling route modules.
 */
export async function idempotencyPlugin(app: FastifyInstance, options: { pool: pg.Pool }): Promise<void> {
  app.decorateRequest('writeTx', null);
  app.decorateRequest('idempotencyKey', null);
  app.addHook('onRoute', function makeWriteRouteIdempotent(route) {
    if (!isWriteRoute(route)) return;
    if (route.config?.write !== true) {
      for (const method of Array.isArray(route.method) ? route.method : [route.method])
        ownConnectionWrites.add(`${method} ${route.url}`);
    }
    route.handler = wrapHandler(route.handler, options.pool, route.config?.write === true);
  });
}
// Same effect as the fastify-plugin wrapper: hooks and decorators land in the parent scope.
Object.assign(idempotencyPlugin, { [Symbol.for('skip-override')]: true });

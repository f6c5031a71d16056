/**
 * HTTP of the batch write route `POST bo/outbox/batch` (ours, not SPEC.md §7; decision record
 * 0024; wire in contract/outbox-batch-wire.ts): the outbox's replay sends many keyed writes in
 * one request. An item naming a route that declares `config.batchItem` (the counting writes) is
 * run by the batch itself, with the same checks in the same order and without the HTTP pipeline
 * (outbox/direct-items.ts, decision record 0027). Any other item is sent to the app itself
 * (`inject`) as the request it would have been alone, with the caller's credentials, address and
 * language and its own Idempotency-Key, so every hook applies to it unchanged: the rights guard (its own right), the input guard, its
 * route's zod validation, the idempotency plugin (a known key answers its first answer, the same
 * key with another request 422), the brute-force counters. The items run one after another
 * through outbox/batch.ts in ONE transaction, a savepoint each, handed to the injected requests
 * in process (outbox/batch-context.ts), with the session this request resolved; the answers
 * leave once it committed, or the batch answers 503 `ServerBusy` and keeps nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CLIENT_HEADER, IDEMPOTENCY_KEY_HEADER } from '../../contract/constants.ts';
import {
  OutboxBatchAnswerSchema,
  OutboxBatchBodySchema,
  type OutboxBatchItem,
  type OutboxBatchItemAnswer,
} from '../../contract/outbox-batch.ts';
import type { Database } from '../db/connect.ts';
import { BatchLimiter, BatchNotCommittedError, itemAnswer, runBatch } from '../outbox/batch.ts';
import { type DirectItems, runDirectItem } from '../outbox/direct-items.ts';
import { keepBatchAnswers, lockBatchKeys, writesOnOwnConnections } from '../plugins/idempotency.ts';
import { purgeExpired } from '../plugins/idempotency-store.ts';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../contract/counting.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { API_PREFIX } from '../plugins/rights-guard.ts';
import { errorResponses, sessionOf } from './common.ts';

/** The header the outbox names an item's body format with (client lib/outbox/replay-sender.ts). */
const SCHEMA_VERSION_HEADER = 'x-comptoir-schema-version';

/** The caller's headers every item carries as its own: who, from which client, in which language. */
const FORWARDED_HEADERS = ['authorization', CLIENT_HEADER.toLowerCase(), 'accept-language', 'user-agent'];

/** `/api/<path>?<query>` of an item. */
function itemUrl(item: OutboxBatchItem): string {
  const query = new URLSearchParams(item.query ?? {}).toString();
  return `${API_PREFIX}/${item.path}${query ? `?${query}` : ''}`;
}

/** The headers of the batch request that each item carries. */
function forwardedHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/**
 * Sends `item` to `app` as the request it would be alone (to `url`, {@link itemUrl}), from
 * `address` with `common` headers, and answers what it answered.
 */
async function runAlone(
  app: FastifyInstance,
  item: OutboxBatchItem,
  url: string,
  common: Record<string, string>,
  address: string,
): Promise<OutboxBatchItemAnswer> {
  const headers: Record<string, string> = {
    ...common,
    [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: item.idempotencyKey,
  };
  if (item.schemaVersion !== undefined) headers[SCHEMA_VERSION_HEADER] = String(item.schemaVersion);
  const withBody = item.method !== 'GET' && item.method !== 'DELETE';
  if (withBody) headers['content-type'] = 'application/json';
  const res = await app.inject({
    method: item.method,
    url,
    headers,
    remoteAddress: address,
    ...(withBody ? { payload: JSON.stringify(item.body ?? null) } : {}),
  });
  const header = (name: string) => {
    const value = res.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return itemAnswer(
    res.statusCode,
    header('content-type'),
    res.body,
    header(IDEMPOTENT_REPLAYED_HEADER.toLowerCase()) === 'true',
    header('retry-after'),
  );
}

/**
 * Refuses an Idempotency-Key on the batch itself: each item carries its own, and keeping the
 * batch's answer as a whole would hold a connection for nothing.
 * @throws ApiHttpError 400 BadRequest when the batch request carries one.
 */
async function refuseBatchKey(request: FastifyRequest): Promise<void> {
  if (request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()] !== undefined) {
    throw new ApiHttpError(
      400,
      'BadRequest',
      `a batch takes no ${IDEMPOTENCY_KEY_HEADER}: each item carries its own idempotencyKey`,
    );
  }
}

/** Seconds the client is told to wait (`Retry-After`) before sending again a batch that did not commit. */
const NOT_COMMITTED_RETRY_AFTER_SECONDS = 5;

/**
 * Connections one batch may hold at once: its transaction's, and one an item's handler borrows
 * for a statement that must commit on its own (a mail's send record, a route that writes on the
 * pool, the item's answer kept at once for such a route). An item of a batch never takes a
 * connection of its own for its key: the batch's transaction holds every key's lock.
 */
const CONNECTIONS_PER_BATCH = 2;

/**
 * Registers POST bo/outbox/batch. Batches at once are bounded so that together they never hold
 * more than the pool: ⌊pool size ÷ CONNECTIONS_PER_BATCH⌋ (5 of a pool of 10), each holding one
 * connection for its whole transaction, the other half left to the items' borrowings and to
 * every other request.
 */
export async function outboxBatchRoutes(
  app: FastifyInstance,
  options: { database: Database; directItems: DirectItems | null },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  const { directItems } = options;
  const limiter = new BatchLimiter((pool.options.max ?? 10) / CONNECTIONS_PER_BATCH);

  api.post(
    '/bo/outbox/batch',
    {
      config: { rights: 'POST bo/outbox/batch' },
      preHandler: refuseBatchKey,
      schema: {
        summary: 'Runs many keyed writes in one request, each as if sent alone, with its own answer',
        description:
          'Each item names a write route of this API (never this one), its query, body and ' +
          'Idempotency-Key; it is run with its own rights check, validation and idempotency, and ' +
          'its answer (status and body) comes back in the items’ order. The items run in one ' +
          'transaction, each in its own savepoint: a failing item never fails the others, and the ' +
          'answers come once the batch committed. 503 ServerBusy (Retry-After) when it could not ' +
          'commit: nothing of it was kept, send its items again. 400 for the whole batch when ' +
          'it breaks the bounds (100 items, 64 KiB of JSON per body) or names another route.',
        tags: ['outbox'],
        body: OutboxBatchBodySchema,
        response: { 200: OutboxBatchAnswerSchema, ...errorResponses },
      },
    },
    async function runOutboxBatch(request, reply) {
      const common = forwardedHeaders(request);
      const caller = { session: sessionOf(request), authorization: request.headers.authorization ?? '' };
      try {
        const answers = await runBatch(
          pool,
          request.body.items,
          caller,
          {
            runOne: (item) => {
              const url = itemUrl(item);
              const direct = directItems?.find(item.method, `${API_PREFIX}/${item.path}`);
              if (direct) return runDirectItem(direct, item, url, request.log);
              return runAlone(app, item, url, common, request.ip);
            },
            runsAlone: (item) => writesOnOwnConnections(item.method, `${API_PREFIX}/${item.path}`),
            prepare: lockBatchKeys,
            beforeCommit: keepBatchAnswers,
            onError: function logItemFailure(err, item) {
              request.log.error({ err, method: item.method, path: item.path }, 'batch item failed');
            },
          },
          limiter,
        );
        await purgeExpired(pool).catch(function warnPurgeFailed(e: unknown) {
          request.log.warn({ err: e }, 'idempotency purge failed');
        });
        return { answers };
      } catch (e) {
        if (!(e instanceof BatchNotCommittedError)) throw e;
        request.log.error({ err: e.cause }, 'batch not committed');
        reply.header('retry-after', String(NOT_COMMITTED_RETRY_AFTER_SECONDS));
        throw new ApiHttpError(503, 'ServerBusy', 'the batch could not be committed: send its items again', {
          retryAfterSeconds: NOT_COMMITTED_RETRY_AFTER_SECONDS,
        });
      }
    },
  );
}

/**
 * The batch write route's wire (issue #17 "Outbox replay throughput", decision record 0024), free
 * of zod so the outbox (page and service worker) can import it without the schema library; the
 * schemas the server checks are in outbox-batch.ts.
 *
 * `POST bo/outbox/batch` (ours, not SPEC.md §7) carries many keyed writes in one request. Each
 * item is run by the server exactly as if it had been sent alone: same rights check, same
 * validation, same `Idempotency-Key` rules (contract/counting.ts) under its own key, and gets its
 * own answer, in the items' order. A failing item never fails the others. The items of one batch
 * have no order between them (the server promises none: today it runs them one after another in
 * one transaction, and the writes of routes on their own connections after its commit —
 * decision record 0024): a client that needs two writes in order sends the second in a later batch.
 */

/** The route's path, relative to the API base. */
export const OUTBOX_BATCH_PATH = 'bo/outbox/batch';

/** Most items in one batch; more → 400 for the whole batch. */
export const OUTBOX_BATCH_MAX_ITEMS = 100;

/** Largest body of one item, in characters of its JSON text; more → 400 for the whole batch. */
export const OUTBOX_BATCH_ITEM_MAX_CHARS = 64 * 1024;

/** Most query parameters of one item. */
export const OUTBOX_BATCH_MAX_QUERY_PARAMS = 20;

/** Methods an item may use: a write route's (a GET only for the GETs that change data). */
export type OutboxBatchMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One write of a batch, as it would be sent alone. */
export interface OutboxBatchItem {
  method: OutboxBatchMethod;
  /** The write route's path relative to the API base, without query (`bo/comptage/save`). */
  path: string;
  /** Its query parameters (`{ id: '12' }`). */
  query?: Record<string, string>;
  /** Its Idempotency-Key: a UUID of the client's, as the header would carry it alone. */
  idempotencyKey: string;
  /** The format of its body (the outbox's schema version), as the X-Comptoir-Schema-Version header. */
  schemaVersion?: number;
  /** Its JSON body (left out for GET and DELETE). */
  body?: unknown;
}

/** The request body. */
export interface OutboxBatchBody {
  items: OutboxBatchItem[];
}

/** One item's answer: what the write alone would have answered. */
export interface OutboxBatchItemAnswer {
  /** Its HTTP status (2xx accepted, 4xx refused with a SPEC.md §8 error body, 5xx try again). */
  status: number;
  /** Its JSON body (a text answer as a string; null when it had none). */
  body: unknown;
  /** True when the server answered the key's first answer again (the `Idempotent-Replayed` header). */
  replayed: boolean;
  /** Seconds to wait before trying again, on a 429 or 503 that said so (`Retry-After`). */
  retryAfterSeconds?: number;
}

/** The answer (200): one answer per item, in the items' order. */
export interface OutboxBatchAnswer {
  answers: OutboxBatchItemAnswer[];
}

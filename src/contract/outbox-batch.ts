/**
 * Schemas of the batch write route `POST bo/outbox/batch` (decision record 0024); the wire's
 * constants and types, free of zod, are in outbox-batch-wire.ts (read its comment first).
 *
 * The batch is checked as a whole before anything runs: at most OUTBOX_BATCH_MAX_ITEMS items,
 * each naming a write route of ours that needs a session ({@link BATCHABLE_WRITES}: never the
 * batch itself, never a public route), a UUID key, a body of at most OUTBOX_BATCH_ITEM_MAX_CHARS
 * characters of JSON. Any violation answers 400 `BadRequest` for the batch, and no item runs.
 */
import { z } from 'zod';
import { IdempotencyKeySchema } from './counting.ts';
import {
  OUTBOX_BATCH_ITEM_MAX_CHARS,
  OUTBOX_BATCH_MAX_ITEMS,
  OUTBOX_BATCH_MAX_QUERY_PARAMS,
  OUTBOX_BATCH_PATH,
} from './outbox-batch-wire.ts';
import { API_RIGHTS, isWriteGet } from './rights.ts';

export * from './outbox-batch-wire.ts';

const BATCH_KEY = `POST ${OUTBOX_BATCH_PATH}`;

/**
 * The rights-table keys (`POST bo/comptage/save`) an item may name: every write route (POST, PUT,
 * PATCH, DELETE, and the GETs that change data) that needs a session, except the batch itself.
 */
export const BATCHABLE_WRITES: ReadonlySet<string> = new Set(
  Object.entries(API_RIGHTS)
    .filter(([key, requirement]) => {
      if (key === BATCH_KEY || requirement === 'public') return false;
      return key.startsWith('GET ') ? isWriteGet(key) : true;
    })
    .map(([key]) => key),
);

/** One item (outbox-batch-wire.ts OutboxBatchItem). */
export const OutboxBatchItemSchema = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z
      .string()
      .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, 'an API path without leading slash or query')
      .max(200)
      .describe('a write route of the API, relative to its base (`bo/comptage/save`)'),
    query: z
      .record(z.string().max(100), z.string().max(2000))
      .refine((q) => Object.keys(q).length <= OUTBOX_BATCH_MAX_QUERY_PARAMS, {
        message: `at most ${OUTBOX_BATCH_MAX_QUERY_PARAMS} query parameters`,
      })
      .optional()
      .describe('the query parameters the write would carry alone'),
    idempotencyKey: IdempotencyKeySchema.describe('the Idempotency-Key the write would carry alone'),
    schemaVersion: z.number().int().min(1).max(1000).optional(),
    body: z.unknown().optional().describe('the JSON body the write would carry alone'),
  })
  .refine((item) => BATCHABLE_WRITES.has(`${item.method} ${item.path}`), {
    message: 'not a write route of the API that a batch may carry',
    path: ['path'],
  })
  .refine((item) => (JSON.stringify(item.body) ?? '').length <= OUTBOX_BATCH_ITEM_MAX_CHARS, {
    message: `an item's body is at most ${OUTBOX_BATCH_ITEM_MAX_CHARS} characters of JSON`,
    path: ['body'],
  });

/** The request body (outbox-batch-wire.ts OutboxBatchBody). */
export const OutboxBatchBodySchema = z.object({
  items: z.array(OutboxBatchItemSchema).min(1).max(OUTBOX_BATCH_MAX_ITEMS),
});

/** One item's answer (outbox-batch-wire.ts OutboxBatchItemAnswer). */
export const OutboxBatchItemAnswerSchema = z.object({
  status: z.number().int().min(100).max(599),
  body: z.unknown().describe("the write's own answer: its JSON, or a SPEC.md §8 error body"),
  replayed: z.boolean(),
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
});

/** The answer (outbox-batch-wire.ts OutboxBatchAnswer). */
export const OutboxBatchAnswerSchema = z.object({
  answers: z.array(OutboxBatchItemAnswerSchema).max(OUTBOX_BATCH_MAX_ITEMS),
});

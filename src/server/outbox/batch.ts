/**
 * Running a batch of keyed writes (decision record 0024, wire in contract/outbox-batch-wire.ts):
 * every item goes through `runOne`, which the HTTP layer gives (it sends the item to the app as
 * if alone, so rights, validation and Idempotency-Key hold per item), under a concurrency bound
 * shared by every batch of the process. This module knows no HTTP framework: it orders, bounds
 * and isolates the items.
 *
 * Guarantees:
 * - answers come in the items' order, one per item;
 * - an item whose run throws gets a 500 `InternalError` answer of its own, the others go on;
 * - at most `limit` items of all batches together run at once, so batches never take more
 *   database connections than the bound leaves (the keyed writes each hold one for their
 *   transaction, and some handlers borrow a second).
 */
import type { OutboxBatchItem, OutboxBatchItemAnswer } from '../../contract/outbox-batch-wire.ts';

/** Runs one item as if it were sent alone and answers what it would have answered. */
export type RunItem = (item: OutboxBatchItem) => Promise<OutboxBatchItemAnswer>;

/** A bound on the items running at once, shared by the batches of one app. */
export class ItemLimiter {
  readonly limit: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** @param limit items at once (at least 1). */
  constructor(limit: number) {
    this.limit = Math.max(1, Math.floor(limit));
  }

  /** Runs `task` once fewer than `limit` others run; first come, first served. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` never dips and lets a newcomer in first.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** The answer of an item whose run failed unexpectedly (its error is logged by the caller). */
export const INTERNAL_ERROR_ANSWER: OutboxBatchItemAnswer = {
  status: 500,
  body: { code: 'InternalError', message: 'the item could not be run' },
  replayed: false,
};

/**
 * Runs every item of a batch through `runOne` under `limiter` and answers their answers in the
 * items' order. Never throws: an item whose run throws answers {@link INTERNAL_ERROR_ANSWER}
 * and `onError` hears of it.
 */
export function runBatch(
  items: readonly OutboxBatchItem[],
  runOne: RunItem,
  limiter: ItemLimiter,
  onError: (error: unknown, item: OutboxBatchItem) => void,
): Promise<OutboxBatchItemAnswer[]> {
  return Promise.all(
    items.map((item) =>
      limiter
        .run(() => runOne(item))
        .catch((error: unknown) => {
          onError(error, item);
          return INTERNAL_ERROR_ANSWER;
        }),
    ),
  );
}

/**
 * An item's answer from the HTTP answer it got: `text` parsed as JSON when `contentType` says
 * JSON (kept as text if it does not parse), else the text itself; `null` when empty.
 * `retryAfter` (the header's value) is kept in seconds when it is a whole number.
 */
export function itemAnswer(
  status: number,
  contentType: string | undefined,
  text: string,
  replayed: boolean,
  retryAfter: string | undefined,
): OutboxBatchItemAnswer {
  let body: unknown = text === '' ? null : text;
  if (text !== '' && contentType?.includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const answer: OutboxBatchItemAnswer = { status, body, replayed };
  const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
  if (Number.isInteger(seconds) && seconds >= 0 && seconds <= 86_400) answer.retryAfterSeconds = seconds;
  return answer;
}

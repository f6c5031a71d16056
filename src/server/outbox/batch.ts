/**
 * Running a batch of keyed writes (decision record 0024, wire in contract/outbox-batch-wire.ts)
 * in ONE database transaction: the items run one after another, each inside its own SAVEPOINT,
 * and the batch commits once. Every item goes through `runOne`, which the HTTP layer gives (it
 * runs the item as if alone — through the app's HTTP pipeline, or for the routes that allow it
 * with the same checks without it, direct-items.ts — so rights, validation and Idempotency-Key
 * hold per item); the item reaches the transaction through the in-process batch context
 * (batch-context.ts), never through anything a caller sends. This module knows no HTTP
 * framework: it orders, bounds and isolates the items and owns the transaction.
 *
 * Guarantees:
 * - answers come in the items' order, one per item;
 * - an item answered non-2xx, or whose run throws (answered {@link INTERNAL_ERROR_ANSWER}), is
 *   rolled back to its savepoint: none of its writes commit, the other items' do;
 * - the answers are given only after the COMMIT; when the batch cannot commit (or its
 *   transaction breaks), nothing of it commits and {@link BatchNotCommittedError} is thrown, so
 *   the caller sends every item again alone under the same keys;
 * - at most `limit` batches of the app run at once (each holds one connection for its
 *   transaction, and an item may borrow up to two more; see the limiter's caller).
 */
import type pg from 'pg';
import type { OutboxBatchItem, OutboxBatchItemAnswer } from '../../contract/outbox-batch-wire.ts';
import type { Session } from '../auth/session.ts';
import { beginTransaction, rollback } from '../db/transaction.ts';
import { type BatchContext, runInBatch } from './batch-context.ts';

/** Runs one item as if it were sent alone and answers what it would have answered. */
export type RunItem = (item: OutboxBatchItem) => Promise<OutboxBatchItemAnswer>;

/** A bound on the batches running at once, shared by the batches of one app. */
export class BatchLimiter {
  readonly limit: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** @param limit batches at once (at least 1). */
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

/** The batch's transaction could not be opened, kept or committed: none of its items committed. */
export class BatchNotCommittedError extends Error {
  constructor(cause: unknown) {
    super('the batch could not be committed', { cause });
    this.name = 'BatchNotCommittedError';
  }
}

/** Who sends the batch: the session the batch request resolved, and its `Authorization` header. */
export interface BatchCaller {
  session: Session;
  authorization: string;
}

/**
 * What the layers above do with the batch's transaction: `prepare` runs once before the first
 * item's savepoint (what it takes, such as locks, outlives an item rolled back); `beforeCommit`
 * runs last in the transaction (what it writes commits with the items).
 */
export interface BatchHooks {
  runOne: RunItem;
  /**
   * True for an item that must not run in the transaction (its route writes on its own
   * connections): it runs, as if alone, after the COMMIT — items of a batch have no order.
   */
  runsAlone(item: OutboxBatchItem): boolean;
  prepare(batch: BatchContext): Promise<void>;
  beforeCommit(batch: BatchContext): Promise<void>;
  onError(error: unknown, item: OutboxBatchItem): void;
}

/** Savepoint name of the current item (one at a time, so one name). */
const SAVEPOINT = 'outbox_item';

/** True for a 2xx status: the item's writes are kept. */
function accepted(answer: OutboxBatchItemAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** Runs item `n` of `batch` in its savepoint; rolls it back unless it answered 2xx. */
async function runItem(
  batch: BatchContext,
  item: OutboxBatchItem,
  n: number,
  hooks: BatchHooks,
): Promise<OutboxBatchItemAnswer> {
  // The previous item's savepoint is released and this one's taken in one round trip, not
  // awaited: the connection runs statements in the order they were given, so it is taken before
  // the item's first statement while the item goes through the request pipeline meanwhile.
  const saved = batch.tx
    .query(n === 0 ? `SAVEPOINT ${SAVEPOINT}` : `RELEASE SAVEPOINT ${SAVEPOINT}; SAVEPOINT ${SAVEPOINT}`)
    .then(
      () => null,
      (e: unknown) => e ?? new Error('SAVEPOINT failed'),
    );
  batch.item = n;
  let answer: OutboxBatchItemAnswer;
  try {
    answer = await runInBatch(batch, () => hooks.runOne(item));
  } catch (error) {
    hooks.onError(error, item);
    answer = INTERNAL_ERROR_ANSWER;
  }
  const failedSavepoint = await saved;
  if (failedSavepoint) throw failedSavepoint; // the transaction is broken: the batch fails whole
  if (!accepted(answer)) {
    batch.rolledBack.add(n);
    await batch.tx.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
  }
  return answer;
}

/**
 * Runs `items` (the batch's items that run in it, with their places in the batch) one after
 * another in one transaction of `pool`, and commits; answers their answers in that order.
 * @throws BatchNotCommittedError when the transaction cannot be opened, breaks, or fails to commit.
 */
async function runInTransaction(
  pool: pg.Pool,
  items: readonly OutboxBatchItem[],
  caller: BatchCaller,
  hooks: BatchHooks,
): Promise<OutboxBatchItemAnswer[]> {
  let tx: pg.PoolClient;
  try {
    tx = await beginTransaction(pool);
  } catch (e) {
    throw new BatchNotCommittedError(e);
  }
  const batch: BatchContext = {
    tx,
    session: caller.session,
    authorization: caller.authorization,
    keys: items.map((item) => item.idempotencyKey.toLowerCase()),
    item: -1,
    rolledBack: new Set(),
    open: true,
  };
  try {
    await hooks.prepare(batch);
    const answers: OutboxBatchItemAnswer[] = [];
    for (const [n, item] of items.entries()) answers.push(await runItem(batch, item, n, hooks));
    await hooks.beforeCommit(batch);
    batch.open = false;
    await tx.query('COMMIT');
    tx.release();
    return answers;
  } catch (e) {
    batch.open = false;
    await rollback(tx);
    throw new BatchNotCommittedError(e);
  }
}

/**
 * Runs every item of a batch under `limiter` and answers their answers in the items' order:
 * first, one after another in one transaction of `pool`, the items that may run in it; once it
 * committed, one after another and as if alone, those that {@link BatchHooks.runsAlone}.
 * @throws BatchNotCommittedError when the transaction cannot be opened, breaks, or fails to
 *   commit: nothing the items wrote in it is kept, and the items to run alone were not run.
 */
export async function runBatch(
  pool: pg.Pool,
  items: readonly OutboxBatchItem[],
  caller: BatchCaller,
  hooks: BatchHooks,
  limiter: BatchLimiter,
): Promise<OutboxBatchItemAnswer[]> {
  const alone = items.map((item) => hooks.runsAlone(item));
  const together = items.filter((_, n) => !alone[n]);
  const answers: (OutboxBatchItemAnswer | undefined)[] = items.map(() => undefined);
  const inTransaction = await limiter.run(function runBatchTransaction() {
    return together.length > 0 ? runInTransaction(pool, together, caller, hooks) : Promise.resolve([]);
  });
  for (const [n, item] of items.entries()) {
    if (!alone[n]) {
      answers[n] = inTransaction.shift();
      continue;
    }
    try {
      answers[n] = await hooks.runOne(item);
    } catch (error) {
      hooks.onError(error, item);
      answers[n] = INTERNAL_ERROR_ANSWER;
    }
  }
  return answers as OutboxBatchItemAnswer[];
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

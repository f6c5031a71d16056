/**
 * A bounded write-behind queue with group commit, for rows whose write must not hold up an
 * answer but must not pile up in memory either: the report editions (editions.ts, issue #17
 * item 6, decision record 0018).
 *
 * Guarantees:
 * - At most `bound` items are held waiting for their write. A producer that finds the queue full
 *   waits (its `accepted` promise) until a write takes a batch out: the callers slow down to the
 *   database's pace instead of the server's memory growing. Nothing is ever dropped for room.
 * - One write at a time, in the order items were added, `batch` items at most per write. A write
 *   starts on the event loop's next turn after an item arrives (so the answer handed to the
 *   connection in this turn goes first); items arriving meanwhile wait for the next write, so
 *   batches grow with the load by themselves (group commit) and a lone item waits no timer.
 * - A failed write loses its batch (at most `batch` items): each item's `result` answers null and
 *   `onError` hears of it once with the number of items lost; the queue carries on.
 * - {@link BatchQueue.flushed} answers once every item added before the call is written (or lost).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How a {@link BatchQueue} writes and what it holds. */
export interface BatchQueueOptions<T, R> {
  /** Most items held waiting for their write (≥ 1). */
  bound: number;
  /** Most items per write (≥ 1). */
  batch: number;
  /** Writes `items` at once; answers one result per item, in their order. */
  write: (items: readonly T[]) => Promise<R[]>;
}

/** What {@link BatchQueue.add} answers. */
export interface Added<R> {
  /** Resolves once the item is in the queue: at once, unless the queue was full. */
  accepted: Promise<void>;
  /** The item's result once written; null when its batch failed. */
  result: Promise<R | null>;
}

/** Counters of a queue since it was made, for metrics and tests. */
export interface BatchQueueStats {
  /** Items waiting for their write now (never above the bound). */
  queued: number;
  /** Producers waiting for room now. */
  waiting: number;
  /** Most items ever held at once. */
  highWater: number;
  written: number;
  /** Items lost with a failed write. */
  failed: number;
  /** Items whose producer had to wait for room. */
  waited: number;
  /** Writes made (batches). */
  writes: number;
}

interface Entry<T, R> {
  item: T;
  seq: number;
  accept: () => void;
  done: (result: R | null) => void;
  onError: ((error: unknown, lost: number) => void) | undefined;
}

/** See the module comment. */
export class BatchQueue<T, R> {
  readonly #options: BatchQueueOptions<T, R>;
  #queued: Entry<T, R>[] = [];
  #waiting: Entry<T, R>[] = [];
  #running: Promise<void> | null = null;
  #scheduled = false;
  #lastSeq = 0;
  #doneSeq = 0;
  readonly #stats = { highWater: 0, written: 0, failed: 0, waited: 0, writes: 0 };

  constructor(options: BatchQueueOptions<T, R>) {
    if (options.bound < 1 || options.batch < 1) throw new RangeError('bound and batch must be at least 1');
    this.#options = options;
  }

  /**
   * Adds `item`. `onError` hears of the write failure that lost it (with the number of items
   * that write lost), once per failed write.
   */
  add(item: T, onError?: (error: unknown, lost: number) => void): Added<R> {
    let accept!: () => void;
    let done!: (result: R | null) => void;
    const accepted = new Promise<void>((resolve) => {
      accept = resolve;
    });
    const result = new Promise<R | null>((resolve) => {
      done = resolve;
    });
    const entry: Entry<T, R> = { item, seq: ++this.#lastSeq, accept, done, onError };
    if (this.#waiting.length === 0 && this.#queued.length < this.#options.bound) this.#enqueue(entry);
    else {
      this.#stats.waited++;
      this.#waiting.push(entry);
    }
    this.#schedule();
    return { accepted, result };
  }

  /** Resolves once every item added before this call has been written (or lost with its batch). */
  async flushed(): Promise<void> {
    const target = this.#lastSeq;
    while (this.#doneSeq < target) {
      if (!this.#running) this.#run();
      await this.#running;
    }
  }

  /** The counters ({@link BatchQueueStats}). */
  stats(): BatchQueueStats {
    return { queued: this.#queued.length, waiting: this.#waiting.length, ...this.#stats };
  }

  #enqueue(entry: Entry<T, R>): void {
    this.#queued.push(entry);
    if (this.#queued.length > this.#stats.highWater) this.#stats.highWater = this.#queued.length;
    entry.accept();
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    void nextTurn().then(() => {
      this.#scheduled = false;
      if (!this.#running && this.#queued.length > 0) this.#run();
    });
  }

  #run(): void {
    this.#running = (async () => {
      while (this.#queued.length > 0) {
        const batch = this.#queued.splice(0, this.#options.batch);
        while (this.#waiting.length > 0 && this.#queued.length < this.#options.bound) {
          this.#enqueue(this.#waiting.shift()!);
        }
        await this.#write(batch);
      }
    })().finally(() => {
      this.#running = null;
    });
  }

  async #write(batch: Entry<T, R>[]): Promise<void> {
    this.#stats.writes++;
    try {
      const results = await this.#options.write(batch.map((e) => e.item));
      this.#stats.written += batch.length;
      for (const [i, e] of batch.entries()) e.done(results[i] ?? null);
    } catch (error) {
      this.#stats.failed += batch.length;
      batch.find((e) => e.onError)?.onError?.(error, batch.length);
      for (const e of batch) e.done(null);
    }
    this.#doneSeq = batch[batch.length - 1]!.seq;
  }
}

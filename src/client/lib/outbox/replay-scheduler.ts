/**
 * The scheduler of the replay (DESIGN.md §7): decides which outbox items are sent next and by
 * which of the run's workers. It knows nothing of HTTP: replay-sender.ts (one item) and
 * replay-batch.ts (several, decision record 0024) send what it picks.
 *
 * Guarantees:
 * - oldest first (the outbox's auto-increment `seq`): items start in that order, a worker taking
 *   up to a batch of them at a time, up to `concurrency` workers at once;
 * - never two items of one lane in flight together, in one batch or in two;
 * - writes of one lane (the lane the feature declared when it queued them: the same business
 *   record) one after the other, so a later version never overtakes an earlier one; a lane whose
 *   item failed (5xx) waits for the next run;
 * - items queued before lanes existed ({@link QUEUED_BEFORE_LANES}) go first and one by one: while
 *   one of them is waiting or in flight, nothing newer starts;
 * - picking is serialised (one IndexedDB read at a time), so two workers never pick one item.
 */
import { type ComptoirDb, type OutboxItem, QUEUED_BEFORE_LANES } from './local-database.ts';

/** Why a run ended before the queue was empty. */
export type StopReason = 'offline' | 'unauthorized' | 'signedOut' | 'aborted';

/** A promise resolved on demand. (The service worker's TypeScript lib predates Promise.withResolvers.) */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Up to `max` items of `login` that are due, oldest first, at most one per lane (the next of a lane
 * waits for its predecessor's answer), skipping `skip` and the lanes in `closedLanes`. An item of
 * {@link QUEUED_BEFORE_LANES} goes alone and first: when the oldest due item is one, it is the
 * whole batch; while one of them cannot go (waiting for its time, or in flight), nothing newer does.
 */
export function nextDueBatch(
  db: ComptoirDb,
  login: string,
  now: number,
  skip: ReadonlySet<number>,
  closedLanes: { has(lane: string): boolean },
  max: number,
): Promise<OutboxItem[]> {
  let heldBack = closedLanes.has(QUEUED_BEFORE_LANES);
  const lanes = new Set<string>();
  // The filter sees the items in index order, and within equal index keys IndexedDB orders by
  // primary key: this is oldest first by `seq`. It is called once per item, in that order.
  return db.outbox
    .where('state')
    .equals('waiting')
    .filter((i) => {
      if (heldBack || i.login !== login) return false;
      const ready =
        i.nextAttemptAt <= now && !skip.has(i.seq ?? -1) && !closedLanes.has(i.lane) && !lanes.has(i.lane);
      if (i.lane === QUEUED_BEFORE_LANES) {
        // Alone: after it nothing else joins; behind a batch already begun it waits its turn.
        heldBack = true;
        return ready && lanes.size === 0;
      }
      if (ready) lanes.add(i.lane);
      return ready;
    })
    .limit(Math.max(1, max))
    .toArray();
}

/** Where the scheduler reads the items and when it stops. */
export interface SchedulerOptions {
  db: ComptoirDb;
  login: string;
  /** Epoch milliseconds against which `nextAttemptAt` is compared (Infinity: everything is due). */
  now: () => number;
  /** Stops the run: no item is picked once it is aborted. */
  signal?: AbortSignal;
}

/**
 * The lanes and the stop of one run. Workers {@link pickBatch} items and {@link release} their lanes when
 * the items ended; {@link stop} ends the run for every worker (the items in flight finish).
 */
export class ReplayScheduler {
  /** Why the run stopped (the first reason given), or null. */
  stoppedBy: StopReason | null = null;
  /** True once the run stopped, with or without a reason (an unexpected failure). */
  stopped = false;
  private readonly options: SchedulerOptions;
  /** Items given up this run. */
  private readonly skip = new Set<number>();
  /** Lanes with an item in flight (released when it ends). */
  private readonly busyLanes = new Set<string>();
  /** Lanes whose item failed transiently this run: what follows it waits for the next run. */
  private readonly failedLanes = new Set<string>();
  private readonly closedLanes = {
    has: (lane: string) => this.busyLanes.has(lane) || this.failedLanes.has(lane),
  };
  private picking: Promise<unknown> = Promise.resolve();
  private released = deferred();

  constructor(options: SchedulerOptions) {
    this.options = options;
  }

  /** Stops the run; the first reason is the one reported. */
  stop(why: StopReason | null): void {
    if (!this.stopped) this.stoppedBy = why;
    this.stopped = true;
  }

  /**
   * The next items to send, up to `max`, each of another lane, their lanes now busy; empty when
   * the run stopped or nothing is due outside the busy lanes (see {@link waitForWork}).
   */
  pickBatch(max: number): Promise<OutboxItem[]> {
    const next = this.picking.then(async () => {
      if (this.stopped) return [];
      if (this.options.signal?.aborted) {
        this.stop('aborted');
        return [];
      }
      const { db, login, now } = this.options;
      const items = await nextDueBatch(db, login, now(), this.skip, this.closedLanes, max);
      if (this.stopped) return [];
      for (const item of items) this.busyLanes.add(item.lane);
      return items;
    });
    this.picking = next.catch(() => undefined);
    return next;
  }

  /**
   * After a pick found nothing: resolves to false when the run is over (stopped, or nothing in
   * flight that could free a lane), or to true once a lane is released and picking may find more.
   * So a worker that found every due item behind a busy lane waits instead of ending, and the run
   * keeps its width.
   */
  async waitForWork(): Promise<boolean> {
    if (this.stopped || this.busyLanes.size === 0) return false;
    await this.released.promise;
    return true;
  }

  /** The item of `lane` ended: the lane is free again. */
  release(lane: string): void {
    this.busyLanes.delete(lane);
    this.released.resolve();
    this.released = deferred();
  }

  /** The item `seq` failed transiently: it and what follows it in `lane` wait for the next run. */
  giveUp(seq: number, lane: string): void {
    this.skip.add(seq);
    this.failedLanes.add(lane);
  }
}

/**
 * One worker of a run: picks up to `max()` items (one per lane; 1 = one at a time) and gives them
 * to `send` together, until the run is over. Their lanes are released once `send` is done with
 * all of them; if it throws, the run stops and the error goes to the caller.
 */
export async function runBatchWorker(
  scheduler: ReplayScheduler,
  max: () => number,
  send: (items: OutboxItem[]) => Promise<void>,
): Promise<void> {
  for (;;) {
    const items = await scheduler.pickBatch(max());
    if (items.length === 0) {
      if (await scheduler.waitForWork()) continue;
      return;
    }
    try {
      await send(items);
    } catch (error) {
      scheduler.stop(null);
      throw error;
    } finally {
      for (const item of items) scheduler.release(item.lane);
    }
  }
}

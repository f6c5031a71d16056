/**
 * The scheduler of the replay (DESIGN.md §7): decides which outbox item is sent next and by which
 * of the run's workers. It knows nothing of HTTP: replay-sender.ts sends what it picks.
 *
 * Guarantees:
 * - oldest first (the outbox's auto-increment `seq`): items start in that order, up to
 *   `concurrency` at once;
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
 * The oldest waiting item of `login` that is due (`nextAttemptAt <= now`), skipping the items in
 * `skip` and those of a lane in `closedLanes`. Items of {@link QUEUED_BEFORE_LANES} hold back
 * every newer item while one of them cannot go.
 */
export function nextDue(
  db: ComptoirDb,
  login: string,
  now: number,
  skip: ReadonlySet<number>,
  closedLanes: { has(lane: string): boolean },
): Promise<OutboxItem | undefined> {
  // The filter sees the items in index order, and within equal index keys IndexedDB orders by
  // primary key: this is oldest first by `seq`.
  let heldBack = closedLanes.has(QUEUED_BEFORE_LANES);
  return db.outbox
    .where('state')
    .equals('waiting')
    .filter((i) => {
      if (heldBack || i.login !== login) return false;
      const ready = i.nextAttemptAt <= now && !skip.has(i.seq ?? -1) && !closedLanes.has(i.lane);
      if (!ready && i.lane === QUEUED_BEFORE_LANES) heldBack = true;
      return ready;
    })
    .first();
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
 * The lanes and the stop of one run. Workers {@link pick} items and {@link release} their lane when
 * the item ended; {@link stop} ends the run for every worker (the items in flight finish).
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
   * The next item to send, its lane now busy; undefined when the run stopped or nothing is due
   * outside the busy lanes (see {@link waitForWork}).
   */
  pick(): Promise<OutboxItem | undefined> {
    const next = this.picking.then(async () => {
      if (this.stopped) return undefined;
      if (this.options.signal?.aborted) {
        this.stop('aborted');
        return undefined;
      }
      const { db, login, now } = this.options;
      const item = await nextDue(db, login, now(), this.skip, this.closedLanes);
      // The run may have stopped while we read (a 401 or a lost network in another worker).
      if (!item || this.stopped) return undefined;
      this.busyLanes.add(item.lane);
      return item;
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
 * One worker of a run: picks items and sends them until the run is over. `send` takes one item to
 * its end; if it throws, the run stops and the error goes to the caller.
 */
export async function runWorker(
  scheduler: ReplayScheduler,
  send: (item: OutboxItem) => Promise<void>,
): Promise<void> {
  for (;;) {
    const item = await scheduler.pick();
    if (!item || item.seq === undefined) {
      if (await scheduler.waitForWork()) continue;
      return;
    }
    try {
      await send(item);
    } catch (error) {
      scheduler.stop(null);
      throw error;
    } finally {
      scheduler.release(item.lane);
    }
  }
}

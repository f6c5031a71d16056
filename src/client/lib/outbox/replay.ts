/**
 * Replaying the outbox (DESIGN.md §7): the one piece of code that sends queued writes, run by the
 * page (at start, on `online`, on page show, on a timer, after a write) and by the service worker
 * (Background Sync, Chromium only).
 *
 * Guarantees:
 * - one replayer at a time across tabs and the service worker (the `comptoir-outbox` Web Lock,
 *   lock.ts); a context that finds it held does nothing, the holder is already replaying;
 * - oldest first (the outbox's auto-increment `seq`): items start in that order, up to
 *   `concurrency` sends at once, and writes of one lane (declared by the feature that queued them:
 *   the same business record) one after the other, so a recount never overtakes its count
 *   (replay-scheduler.ts);
 * - several due items of different lanes travel in one request to the batch route, each with its
 *   own key and its own answer, settled as if sent alone (replay-batch.ts, decision record 0024);
 *   a lone item, and every item a batch could not settle, is sent alone;
 * - every send carries the item's `Idempotency-Key`, so a write whose answer was lost (network cut
 *   after the server committed, tab closed mid-request) is sent again safely: the server answers a
 *   repeated key with its first answer and stores nothing twice;
 * - network errors, timeouts, 5xx, 408 and 429 are retried with exponential backoff and jitter
 *   (p-retry within a run; `nextAttemptAt` across runs and reloads);
 * - any other 4xx marks the item "needs attention" with the server's error code and keeps it
 *   until the user resends or discards it; a 401 stops the run and keeps everything waiting for
 *   the next sign-in; an item of an unknown schema version needs attention, it is never sent;
 * - an item is removed only in the same transaction that stores the server's answer on its local
 *   record (replay-sender.ts).
 *
 * This module runs a replay: the scheduler (replay-scheduler.ts) picks the items, the senders
 * (replay-sender.ts alone, replay-batch.ts together) take them to their end.
 */
import type { OutboxCredentials } from './credentials.ts';
import type { ComptoirDb, OutboxItem } from './local-database.ts';
import type { OutboxLock } from './lock.ts';
import { OUTBOX_BATCH_MAX_ITEMS } from '../../../contract/outbox-batch-wire.ts';
import { lacksBatchRoute, sendBatch } from './replay-batch.ts';
import { ReplayScheduler, runBatchWorker, type StopReason } from './replay-scheduler.ts';
import { type BackoffOptions, type SendOptions, type SendOutcome, sendItem } from './replay-sender.ts';

export type { BackoffOptions } from './replay-sender.ts';
export { persistedDelayMs, SCHEMA_VERSION_HEADER, TransientFailure } from './replay-sender.ts';

/** The backoff of a run unless its options change it (milliseconds). */
export const DEFAULT_BACKOFF: BackoffOptions = {
  retries: 3,
  minDelayMs: 1_000,
  factor: 2,
  maxDelayMs: 15_000,
  maxPersistedDelayMs: 5 * 60_000,
  requestTimeoutMs: 30_000,
};

/** Sends in flight at once in one run, across different lanes. */
export const DEFAULT_REPLAY_CONCURRENCY = 4;

/** How to run a replay: where, as whom, under which lock, how fast. */
export interface ReplayOptions {
  db: ComptoirDb;
  lock: OutboxLock;
  /** Absolute API base, e.g. `https://host/api/`. */
  apiBase: string;
  credentials: () => Promise<OutboxCredentials | null>;
  backoff?: Partial<BackoffOptions>;
  /** Stops the run (waits between retries end at once). */
  signal?: AbortSignal;
  /** Injected by tests to count sends; defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * Send waiting items now even if their backoff delay (`nextAttemptAt`) is not over: the network
   * just came back (`online`), the app (re)started, the user asked, or the browser fired
   * Background Sync. The page's timer leaves it off, so failing items back off.
   */
  ignoreSchedule?: boolean;
  /** Called after each item changes state (the page refreshes its badge). */
  onProgress?: () => void;
  /** Sends in flight at once, each of another lane (default {@link DEFAULT_REPLAY_CONCURRENCY}); 1 = strictly one by one. */
  concurrency?: number;
  /**
   * Most items of one send (default OUTBOX_BATCH_MAX_ITEMS): several due items of different lanes
   * go in one request to the batch route (replay-batch.ts); 1 = every item alone.
   */
  batchSize?: number;
}

/** What one run did; `null` from {@link replayOutbox} means another replayer held the lock. */
export interface ReplayResult {
  sent: number;
  refused: number;
  /** Why the run ended before the queue was empty, if it did. */
  stoppedBy: StopReason | null;
  /** Items still waiting for this login (due later or after a stop). */
  remaining: number;
}

/**
 * Replays the outbox of the stored user once, holding the lock. Resolves to `null` when another
 * replayer holds it. Never throws for a failed send (the item records it); rethrows IndexedDB
 * failures.
 */
export function replayOutbox(options: ReplayOptions): Promise<ReplayResult | null> {
  return options.lock.runIfFree(() => replayHeld(options));
}

/**
 * Items left "sending" go back to waiting. Called holding the lock, so nobody is sending: such an
 * item belongs to a run that died (tab closed mid-request); its key makes a second arrival harmless.
 */
async function requeueInterrupted(db: ComptoirDb): Promise<void> {
  await db.outbox.where('state').equals('sending').modify({ state: 'waiting' });
}

/** Counts a send's outcome in `result` and tells the scheduler what it means for the run. */
function recordOutcome(
  outcome: SendOutcome,
  item: OutboxItem,
  scheduler: ReplayScheduler,
  result: ReplayResult,
): void {
  if (outcome === 'sent') result.sent += 1;
  else if (outcome === 'refused') result.refused += 1;
  else if (outcome === 'unauthorized') scheduler.stop('unauthorized');
  else if (outcome === 'offline') scheduler.stop('offline');
  else if (outcome === 'aborted') scheduler.stop('aborted');
  // A 5xx may be this item's alone: the other lanes still get their turn, this lane keeps its order.
  else if (outcome === 'failed') scheduler.giveUp(item.seq as number, item.lane);
}

/** One run, the lock held: `concurrency` workers share a scheduler and send with the sender. */
async function replayHeld(options: ReplayOptions): Promise<ReplayResult> {
  const { db } = options;
  const result: ReplayResult = { sent: 0, refused: 0, stoppedBy: null, remaining: 0 };
  const credentials = await options.credentials();
  if (!credentials) {
    result.stoppedBy = 'signedOut';
    return result;
  }
  await requeueInterrupted(db);

  const scheduler = new ReplayScheduler({
    db,
    login: credentials.login,
    now: options.ignoreSchedule ? () => Number.POSITIVE_INFINITY : Date.now,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const sendOptions: SendOptions = {
    db,
    apiBase: options.apiBase,
    credentials,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    runStopped: () => scheduler.stopped,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
  const record = (item: OutboxItem, outcome: SendOutcome) => recordOutcome(outcome, item, scheduler, result);
  const send = async (items: OutboxItem[]) => {
    // One item goes alone, as it always did: a batch only pays off for several.
    if (items.length > 1) return sendBatch(items, sendOptions, record);
    for (const item of items) record(item, await sendItem(item, sendOptions));
  };
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? OUTBOX_BATCH_MAX_ITEMS));
  const perSend = () => (lacksBatchRoute(options.apiBase) ? 1 : batchSize);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_REPLAY_CONCURRENCY));
  const workers = Array.from({ length: concurrency }, () => runBatchWorker(scheduler, perSend, send));
  const settled = await Promise.allSettled(workers);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  result.stoppedBy = scheduler.stoppedBy;

  result.remaining = await db.outbox
    .where('state')
    .equals('waiting')
    .filter((i) => i.login === credentials.login)
    .count();
  // "Last synced" moves only when a write reached the server (the sender records it with the
  // answer): a run with nothing to send, offline or not, proves nothing about the server.
  return result;
}

/**
 * Replaying the outbox (DESIGN.md §7): the one piece of code that sends queued writes, run by the
 * page (at start, on `online`, on page show, on a timer, after a write) and by the service worker
 * (Background Sync, Chromium only).
 *
 * Guarantees:
 * - one replayer at a time across tabs and the service worker (the `comptoir-outbox` Web Lock,
 *   lock.ts); a context that finds it held does nothing, the holder is already replaying;
 * - oldest first (the outbox's auto-increment `seq`): items start in that order, up to
 *   `concurrency` at once, and writes of the same record (same drawer, same safe, same site's
 *   receipts: {@link replayLane}) one after the other, so a recount never overtakes its count;
 * - every send carries the item's `Idempotency-Key`, so a write whose answer was lost (network cut
 *   after the server committed, tab closed mid-request) is sent again safely: the server answers a
 *   repeated key with its first answer and stores nothing twice;
 * - network errors, timeouts, 5xx, 408 and 429 are retried with exponential backoff and jitter
 *   (p-retry within a run; `nextAttemptAt` across runs and reloads);
 * - any other 4xx marks the item "needs attention" with the server's error code and keeps it
 *   until the user resends or discards it; a 401 stops the run and keeps everything waiting for
 *   the next sign-in; an item of an unknown schema version needs attention, it is never sent;
 * - an item is removed only in the same transaction that stores the server's answer on its local
 *   record.
 */
import pRetry, { AbortError } from 'p-retry';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../contract/constants.ts';
import type { ComptoirDb, LocalRecord, OutboxItem } from '../db.ts';
import type { OutboxCredentials } from './credentials.ts';
import type { OutboxLock } from './lock.ts';
import { LAST_SYNCED_KEY, OUTBOX_SCHEMA_VERSION } from './queue.ts';

/** Header carrying the item's client UUID (the server keeps keys and answers repeats identically). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Header carrying the item's body format, for the server's logs and refusals. */
export const SCHEMA_VERSION_HEADER = 'X-Comptoir-Schema-Version';

/** Backoff of the replayer, in milliseconds. */
export interface BackoffOptions {
  /** Retries of one item within a run (after its first try). */
  retries: number;
  /** First delay; each next one is `factor` times longer, randomised ×1–2 (jitter), capped at maxDelayMs. */
  minDelayMs: number;
  factor: number;
  maxDelayMs: number;
  /** Cap of the delay kept in `nextAttemptAt` between runs. */
  maxPersistedDelayMs: number;
  /** One send's time limit (a delayed answer counts as a network error). */
  requestTimeoutMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  retries: 3,
  minDelayMs: 1_000,
  factor: 2,
  maxDelayMs: 15_000,
  maxPersistedDelayMs: 5 * 60_000,
  requestTimeoutMs: 30_000,
};

/** Sends in flight at once in one run, across different {@link replayLane}s. */
export const DEFAULT_REPLAY_CONCURRENCY = 4;

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
}

/** What one run did; `null` from {@link replayOutbox} means another replayer held the lock. */
export interface ReplayResult {
  sent: number;
  refused: number;
  /** Why the run ended before the queue was empty, if it did. */
  stoppedBy: 'offline' | 'unauthorized' | 'signedOut' | 'aborted' | null;
  /** Items still waiting for this login (due later or after a stop). */
  remaining: number;
}

/** A failure worth retrying: no answer, timeout, 5xx, 408, 429. */
export class TransientFailure extends Error {
  readonly code: string;
  readonly status: number | null;
  constructor(code: string, status: number | null) {
    super(`transient failure ${code}${status === null ? '' : ` (HTTP ${status})`}`);
    this.name = 'TransientFailure';
    this.code = code;
    this.status = status;
  }
}

/** The server refused the write (4xx other than 401/408/429): the user must act. */
class RefusedFailure extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, status: number) {
    super(`refused ${code} (HTTP ${status})`);
    this.name = 'RefusedFailure';
    this.code = code;
    this.status = status;
  }
}

class UnauthorizedFailure extends Error {
  constructor() {
    super('the stored token was refused (401)');
    this.name = 'UnauthorizedFailure';
  }
}

/** The item was discarded or changed by the user between two attempts. */
class ItemGone extends Error {
  constructor() {
    super('outbox item discarded or resent meanwhile');
    this.name = 'ItemGone';
  }
}

/** `Basic base64(login:token)`, UTF-8 safe (same as lib/http's, without the page's session). */
function basicAuth(login: string, token: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(`${login}:${token}`)) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

function codeForStatus(status: number): string {
  if (status === 400) return 'BadRequest';
  if (status === 403) return 'Forbidden';
  if (status === 404) return 'NotFound';
  if (status === 408) return 'Network Error';
  if (status === 409) return 'Conflict';
  if (status === 422) return 'Unprocessable';
  if (status === 429) return 'TooManyRequests';
  if (status === 502 || status === 503 || status === 504) return 'Network Error';
  return 'InternalError';
}

/** One send of `item`; resolves to the server's JSON answer (null when it has no body). */
async function sendOnce(
  item: OutboxItem,
  options: ReplayOptions,
  credentials: OutboxCredentials,
  timeoutMs: number,
): Promise<unknown> {
  const url = new URL(item.path, options.apiBase);
  for (const [name, value] of Object.entries(item.searchParams ?? {})) {
    url.searchParams.append(name, value);
  }
  const doFetch = options.fetch ?? fetch;
  const signals = [AbortSignal.timeout(timeoutMs)];
  if (options.signal) signals.push(options.signal);
  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, {
      method: item.method,
      headers: {
        Authorization: basicAuth(credentials.login, credentials.token),
        [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
        [IDEMPOTENCY_HEADER]: item.idempotencyKey,
        [SCHEMA_VERSION_HEADER]: String(item.schemaVersion),
        'Content-Type': 'application/json',
      },
      body: item.method === 'DELETE' ? null : JSON.stringify(item.body ?? null),
      signal: AbortSignal.any(signals),
      cache: 'no-store',
    });
    // Read the whole body before deciding: a connection cut mid-answer is a network error, and
    // the write is sent again under the same key.
    text = await response.text();
  } catch {
    if (options.signal?.aborted) throw new AbortError('aborted');
    throw new TransientFailure('Network Error', null);
  }
  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (response.ok) return body;
  const status = response.status;
  const code =
    typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string'
      ? (body as { code: string }).code
      : codeForStatus(status);
  if (status === 401) throw new AbortError(new UnauthorizedFailure());
  if (status >= 500 || status === 408 || status === 429) throw new TransientFailure(code, status);
  throw new AbortError(new RefusedFailure(code, status));
}

/**
 * Delay before the next run retries an item that failed `attempts` times: exponential, jittered
 * ×1–2 like p-retry's, capped. In milliseconds.
 */
export function persistedDelayMs(attempts: number, backoff: BackoffOptions): number {
  const exp = backoff.minDelayMs * backoff.factor ** Math.max(0, attempts - 1);
  return Math.min(backoff.maxPersistedDelayMs, Math.round(exp * (1 + Math.random())));
}

/**
 * The replay lane of an item: items of one lane are sent one after the other, oldest first; items
 * of different lanes may be in flight together. A lane is the business record a write changes,
 * so that two counts of the same drawer (a count and its recount, each a new version on the
 * server) arrive in the order they were made:
 * - `cashCount`: site, fiscal date and terminal;
 * - `safeCount`: site and fiscal date;
 * - receipts (create and update): site and fiscal date;
 * - anything else, or an item whose summary lacks its site or date: one shared lane.
 * @returns an opaque string; equal strings mean "keep in order".
 */
export function replayLane(item: Pick<OutboxItem, 'kind' | 'summary'>): string {
  const { site, date, terminal } = item.summary ?? {};
  if (site === undefined || date === undefined) return 'serial';
  if (item.kind === 'cashCount')
    return terminal === undefined ? 'serial' : `cash|${site}|${date}|${terminal}`;
  if (item.kind === 'safeCount') return `safe|${site}|${date}`;
  if (item.kind === 'receipt' || item.kind === 'receiptUpdate') return `receipt|${site}|${date}`;
  return 'serial';
}

/**
 * The oldest waiting item of `login` that is due, skipping `skip` (items given up this run) and
 * items of the lanes in `closedLanes` (one of theirs is in flight, or failed this run).
 */
async function nextDue(
  db: ComptoirDb,
  login: string,
  now: number,
  skip: ReadonlySet<number>,
  closedLanes: { has(lane: string): boolean },
): Promise<OutboxItem | undefined> {
  // Within equal index keys IndexedDB orders by primary key: this is oldest first by `seq`.
  return db.outbox
    .where('state')
    .equals('waiting')
    .filter(
      (i) =>
        i.login === login &&
        i.nextAttemptAt <= now &&
        !skip.has(i.seq ?? -1) &&
        !closedLanes.has(replayLane(i)),
    )
    .first();
}

/** Marks the item sending, if it is still the same waiting item (not discarded or resent meanwhile). */
async function claim(db: ComptoirDb, item: OutboxItem): Promise<void> {
  const changed = await db.outbox
    .where('seq')
    .equals(item.seq ?? -1)
    .filter((i) => i.state === 'waiting' && i.idempotencyKey === item.idempotencyKey)
    .modify({ state: 'sending' });
  if (changed === 0) throw new AbortError(new ItemGone());
}

/** Stores the answer on the local record and removes the item, in one transaction. */
async function complete(db: ComptoirDb, item: OutboxItem, answer: unknown, now: number): Promise<void> {
  await db.transaction('rw', [db.outbox, db.cashCounts, db.safeCounts, db.receipts, db.meta], async () => {
    if (item.record) {
      const table = db.table<LocalRecord, string>(item.record.table);
      const record = await table.get(item.record.key);
      // A newer edit of the same record may be queued behind this one: it stays pending.
      if (record && record.outboxId === item.id) {
        await table.update(item.record.key, {
          syncState: 'synced',
          serverAnswer: answer,
          outboxId: null,
          reason: null,
        });
      } else if (record) {
        await table.update(item.record.key, { serverAnswer: answer });
      }
    }
    if (item.seq !== undefined) await db.outbox.delete(item.seq);
    await db.meta.put({ key: LAST_SYNCED_KEY, value: now });
  });
}

async function markNeedsAttention(
  db: ComptoirDb,
  item: OutboxItem,
  code: string,
  status: number | null,
): Promise<void> {
  await db.transaction('rw', [db.outbox, db.cashCounts, db.safeCounts, db.receipts], async () => {
    if (item.seq === undefined) return;
    await db.outbox.update(item.seq, { state: 'needsAttention', reason: code, status });
    if (item.record) {
      const table = db.table<LocalRecord, string>(item.record.table);
      const record = await table.get(item.record.key);
      if (record && record.outboxId === item.id) {
        await table.update(item.record.key, { syncState: 'needsAttention', reason: code });
      }
    }
  });
}

/**
 * Replays the outbox of the stored user once, holding the lock. Resolves to `null` when another
 * replayer holds it. Never throws for a failed send (the item records it); rethrows IndexedDB
 * failures.
 */
export function replayOutbox(options: ReplayOptions): Promise<ReplayResult | null> {
  return options.lock.runIfFree(() => replayHeld(options));
}

async function replayHeld(options: ReplayOptions): Promise<ReplayResult> {
  const { db } = options;
  const backoff: BackoffOptions = { ...DEFAULT_BACKOFF, ...options.backoff };
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_REPLAY_CONCURRENCY));
  const result: ReplayResult = { sent: 0, refused: 0, stoppedBy: null, remaining: 0 };
  const credentials = await options.credentials();
  if (!credentials) {
    result.stoppedBy = 'signedOut';
    return result;
  }
  // We hold the lock, so nobody is sending: an item left "sending" belongs to a run that died
  // (tab closed mid-request). It goes back in line; its key makes a second arrival harmless.
  await db.outbox.where('state').equals('sending').modify({ state: 'waiting' });

  const skip = new Set<number>();
  /** Lanes with an item in flight (released when it ends). */
  const busyLanes = new Set<string>();
  /** Lanes whose item failed transiently this run: what follows it waits for the next run. */
  const failedLanes = new Set<string>();
  const closedLanes = { has: (lane: string) => busyLanes.has(lane) || failedLanes.has(lane) };
  let stopped = false;
  const stop = (why: NonNullable<ReplayResult['stoppedBy']>) => {
    if (!stopped) result.stoppedBy = why;
    stopped = true;
  };
  // Picking is serialised (one IndexedDB read at a time), so two workers never pick one item.
  let picking: Promise<unknown> = Promise.resolve();
  const pick = (): Promise<OutboxItem | undefined> => {
    const next = picking.then(async () => {
      if (stopped) return undefined;
      if (options.signal?.aborted) {
        stop('aborted');
        return undefined;
      }
      const item = await nextDue(
        db,
        credentials.login,
        options.ignoreSchedule ? Number.POSITIVE_INFINITY : Date.now(),
        skip,
        closedLanes,
      );
      // The run may have stopped while we read (a 401 or a lost network in another worker).
      if (!item || stopped) return undefined;
      busyLanes.add(replayLane(item));
      return item;
    });
    picking = next.catch(() => undefined);
    return next;
  };

  // Resolved (and replaced) whenever a lane is released: a worker that found every due item
  // behind a busy lane waits for it instead of ending, so the run keeps its width.
  // (A plain deferred: the service worker's TypeScript lib predates Promise.withResolvers.)
  const deferred = () => {
    let resolve = () => {};
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };
  let released = deferred();
  const release = (lane: string) => {
    busyLanes.delete(lane);
    released.resolve();
    released = deferred();
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      const item = await pick();
      if (!item || item.seq === undefined) {
        if (stopped || busyLanes.size === 0) return;
        await released.promise;
        continue;
      }
      const lane = replayLane(item);
      try {
        await replayItem(item, lane);
      } finally {
        release(lane);
      }
    }
  };

  /** Sends one item to its end: sent, refused, or back to waiting (then the run may stop). */
  const replayItem = async (item: OutboxItem, lane: string): Promise<void> => {
    const seq = item.seq as number;
    if (item.schemaVersion !== OUTBOX_SCHEMA_VERSION) {
      await markNeedsAttention(db, item, 'OutboxSchemaOutdated', null);
      result.refused += 1;
      options.onProgress?.();
      return;
    }

    let attempts = item.attempts;
    try {
      const answer = await pRetry(
        async () => {
          await claim(db, item);
          options.onProgress?.();
          return sendOnce(item, options, credentials, backoff.requestTimeoutMs);
        },
        {
          retries: backoff.retries,
          minTimeout: backoff.minDelayMs,
          factor: backoff.factor,
          maxTimeout: backoff.maxDelayMs,
          randomize: true,
          ...(options.signal ? { signal: options.signal } : {}),
          // Once the run stops (offline, 401), the other in-flight items do not retry.
          shouldRetry: ({ error }) => error instanceof TransientFailure && !stopped,
          onFailedAttempt: async ({ error }) => {
            if (!(error instanceof TransientFailure)) return;
            attempts += 1;
            // Back to waiting between attempts, so the user may still discard or resend it.
            await db.outbox.update(seq, {
              state: 'waiting',
              attempts,
              reason: error.code,
              status: error.status,
              nextAttemptAt: Date.now() + persistedDelayMs(attempts, backoff),
            });
            options.onProgress?.();
          },
        },
      );
      await complete(db, item, answer, Date.now());
      result.sent += 1;
      options.onProgress?.();
    } catch (error) {
      if (error instanceof RefusedFailure) {
        await markNeedsAttention(db, item, error.code, error.status);
        result.refused += 1;
        options.onProgress?.();
        return;
      }
      // Whatever else happened, the item is no longer being sent.
      await db.outbox
        .where('seq')
        .equals(seq)
        .filter((i) => i.state === 'sending')
        .modify({ state: 'waiting' });
      options.onProgress?.();
      if (error instanceof ItemGone) return;
      if (error instanceof UnauthorizedFailure) {
        stop('unauthorized');
        return;
      }
      if (error instanceof TransientFailure) {
        // No answer at all: the following items would fail the same way; a 5xx may be this
        // item's alone, so the other lanes still get their turn (this lane keeps its order).
        if (error.status === null || error.code === 'Network Error') {
          stop('offline');
          return;
        }
        skip.add(seq);
        failedLanes.add(lane);
        return;
      }
      if (options.signal?.aborted) {
        stop('aborted');
        return;
      }
      stopped = true;
      throw error;
    }
  };

  const workers = Array.from({ length: concurrency }, () => worker());
  const settled = await Promise.allSettled(workers);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;

  result.remaining = await db.outbox
    .where('state')
    .equals('waiting')
    .filter((i) => i.login === credentials.login)
    .count();
  if (result.remaining === 0 && result.stoppedBy === null) {
    await db.meta.put({ key: LAST_SYNCED_KEY, value: Date.now() });
  }
  return result;
}

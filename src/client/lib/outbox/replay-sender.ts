/**
 * The sender of the replay (DESIGN.md §7): takes ONE outbox item to its end: sent (its answer
 * stored on its local record and the item removed, in one transaction), refused (needs attention),
 * or back to waiting with its attempts and next-attempt time. It knows nothing of lanes or of the
 * other items: replay-scheduler.ts picks what to send, replay.ts runs the two.
 *
 * Every send carries the item's `Idempotency-Key` (contract), so a write whose answer was lost is
 * sent again safely; network errors, timeouts, 5xx, 408 and 429 are retried with exponential
 * backoff and jitter (p-retry within a run, `nextAttemptAt` across runs).
 */
import pRetry, { AbortError } from 'p-retry';
import { basicAuth } from '../../../contract/basic-auth.ts';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE, IDEMPOTENCY_KEY_HEADER } from '../../../contract/constants.ts';
import type { OutboxCredentials } from './credentials.ts';
import type { ComptoirDb, LocalRecord, OutboxItem } from './local-database.ts';
import { LAST_SYNCED_KEY, OUTBOX_SCHEMA_VERSION } from './queue.ts';

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

/** What a send needs besides the item. */
export interface SendOptions {
  db: ComptoirDb;
  /** Absolute API base, e.g. `https://host/api/`. */
  apiBase: string;
  credentials: OutboxCredentials;
  backoff: BackoffOptions;
  /** Stops the send (waits between retries end at once). */
  signal?: AbortSignal;
  /** Injected by tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Called after each change of the item's state. */
  onProgress?: () => void;
  /** True once the run stopped (offline, 401): the item then no longer retries. */
  runStopped: () => boolean;
}

/**
 * How a send ended:
 * - `sent`: the server answered 2xx; the item is gone, its answer stored;
 * - `refused`: a 4xx (other than 401/408/429) or an unknown schema version: the item needs attention;
 * - `gone`: the user discarded or resent it meanwhile;
 * - `unauthorized`: a 401, the item waits for the next sign-in;
 * - `offline`: no answer at all, the item waits;
 * - `failed`: a 5xx, 408 or 429 after the retries: the item waits (its lane waits with it);
 * - `aborted`: the run's signal stopped it, the item waits;
 * - `skipped`: the run stopped before it was sent (replay-batch.ts), the item waits untouched.
 */
export type SendOutcome =
  | 'sent'
  | 'refused'
  | 'gone'
  | 'unauthorized'
  | 'offline'
  | 'failed'
  | 'aborted'
  | 'skipped';

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

/** The error code of an answer without one in its body, by its status. */
export function codeForStatus(status: number): string {
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
  options: SendOptions,
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
        ...requestHeaders(credentials),
        [IDEMPOTENCY_KEY_HEADER]: item.idempotencyKey,
        [SCHEMA_VERSION_HEADER]: String(item.schemaVersion),
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
  const body = parseJson(text);
  if (response.ok) return body;
  const status = response.status;
  const code = errorCodeOf(status, body);
  const kind = answerKind(status);
  if (kind === 'unauthorized') throw new AbortError(new UnauthorizedFailure());
  if (kind === 'transient') throw new TransientFailure(code, status);
  throw new AbortError(new RefusedFailure(code, status));
}

/** The headers of every replay request: the stored credentials, the client header, JSON. */
export function requestHeaders(credentials: OutboxCredentials): Record<string, string> {
  return {
    Authorization: basicAuth(credentials.login, credentials.token),
    [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
    'Content-Type': 'application/json',
  };
}

/** `text` parsed as JSON; null when empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The error code of a refused write: its body's `code` (SPEC.md §8 shape), else by status. */
export function errorCodeOf(status: number, body: unknown): string {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string'
    ? (body as { code: string }).code
    : codeForStatus(status);
}

/**
 * What an answer's status means for the write: accepted (2xx), unauthorized (401: the stored
 * token was refused), transient (5xx, 408, 429: try again later) or refused (any other: the user
 * must act).
 */
export function answerKind(status: number): 'accepted' | 'unauthorized' | 'transient' | 'refused' {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 401) return 'unauthorized';
  if (status >= 500 || status === 408 || status === 429) return 'transient';
  return 'refused';
}

/**
 * Delay before the next run retries an item that failed `attempts` times: exponential, jittered
 * ×1–2 like p-retry's, capped. In milliseconds.
 */
export function persistedDelayMs(attempts: number, backoff: BackoffOptions): number {
  const exp = backoff.minDelayMs * backoff.factor ** Math.max(0, attempts - 1);
  return Math.min(backoff.maxPersistedDelayMs, Math.round(exp * (1 + Math.random())));
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
function complete(db: ComptoirDb, item: OutboxItem, answer: unknown, now: number): Promise<void> {
  return completeAll(db, [{ item, answer }], now);
}

/**
 * Stores each answer on its item's local record and removes the items, all in one transaction
 * (an item is removed only with its answer stored; a batch's accepted items settle at once, with
 * one read and one write of each table).
 */
export async function completeAll(
  db: ComptoirDb,
  done: readonly { item: OutboxItem; answer: unknown }[],
  now: number,
): Promise<void> {
  if (done.length === 0) return;
  await db.transaction('rw', [db.outbox, db.localRecords, db.meta], async () => {
    const withRecord = done.filter(({ item }) => item.record);
    const keys = withRecord.map(({ item }): [string, string] => [item.record!.table, item.record!.key]);
    const records = await db.localRecords.bulkGet(keys);
    const updated = withRecord.flatMap(({ item, answer }, n): LocalRecord[] => {
      const record = records[n];
      if (!record) return [];
      // A newer edit of the same record may be queued behind this one: it stays pending.
      const update: Partial<LocalRecord> =
        record.outboxId === item.id
          ? { syncState: 'synced', serverAnswer: answer, outboxId: null, reason: null }
          : { serverAnswer: answer };
      return [{ ...record, ...update }];
    });
    // The records just read, written back whole: bulkUpdate would read each one again.
    await db.localRecords.bulkPut(updated);
    await db.outbox.bulkDelete(done.flatMap(({ item }) => (item.seq === undefined ? [] : [item.seq])));
    await db.meta.put({ key: LAST_SYNCED_KEY, value: now });
  });
}

/** Marks the item (and its local record, if still its own) as refused with `code`. */
export async function markNeedsAttention(
  db: ComptoirDb,
  item: OutboxItem,
  code: string,
  status: number | null,
): Promise<void> {
  await db.transaction('rw', [db.outbox, db.localRecords], async () => {
    if (item.seq === undefined) return;
    await db.outbox.update(item.seq, { state: 'needsAttention', reason: code, status });
    if (item.record) {
      const key: [string, string] = [item.record.table, item.record.key];
      const record = await db.localRecords.get(key);
      if (record && record.outboxId === item.id) {
        await db.localRecords.update(key, { syncState: 'needsAttention', reason: code });
      }
    }
  });
}

/** Puts the item back to waiting if it is still marked sending (its send ended without an answer). */
export async function releaseClaim(db: ComptoirDb, seq: number): Promise<void> {
  await db.outbox
    .where('seq')
    .equals(seq)
    .filter((i) => i.state === 'sending')
    .modify({ state: 'waiting' });
}

/**
 * Sends `item` with the retries of {@link BackoffOptions}: each attempt claims it (waiting →
 * sending) and each transient failure puts it back to waiting with its attempts and next-attempt
 * time, so the user may still discard or resend it between attempts. Resolves to the server's answer.
 */
function sendWithRetries(item: OutboxItem, options: SendOptions): Promise<unknown> {
  const { db, backoff } = options;
  let attempts = item.attempts;
  return pRetry(
    async () => {
      await claim(db, item);
      options.onProgress?.();
      return sendOnce(item, options, options.credentials, backoff.requestTimeoutMs);
    },
    {
      retries: backoff.retries,
      minTimeout: backoff.minDelayMs,
      factor: backoff.factor,
      maxTimeout: backoff.maxDelayMs,
      randomize: true,
      ...(options.signal ? { signal: options.signal } : {}),
      // Once the run stops (offline, 401), the other in-flight items do not retry.
      shouldRetry: ({ error }) => error instanceof TransientFailure && !options.runStopped(),
      onFailedAttempt: async ({ error }) => {
        if (!(error instanceof TransientFailure)) return;
        attempts += 1;
        await db.outbox.update(item.seq as number, {
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
}

/**
 * Takes one item (with its `seq`) to its end and says how it ended ({@link SendOutcome}). Never
 * throws for a failed send (the item records it); rethrows IndexedDB failures and anything
 * unexpected, after putting the item back to waiting.
 */
export async function sendItem(item: OutboxItem, options: SendOptions): Promise<SendOutcome> {
  const { db } = options;
  if (item.schemaVersion !== OUTBOX_SCHEMA_VERSION) {
    await markNeedsAttention(db, item, 'OutboxSchemaOutdated', null);
    options.onProgress?.();
    return 'refused';
  }
  try {
    const answer = await sendWithRetries(item, options);
    await complete(db, item, answer, Date.now());
    options.onProgress?.();
    return 'sent';
  } catch (error) {
    if (error instanceof RefusedFailure) {
      await markNeedsAttention(db, item, error.code, error.status);
      options.onProgress?.();
      return 'refused';
    }
    // Whatever else happened, the item is no longer being sent.
    await releaseClaim(db, item.seq as number);
    options.onProgress?.();
    if (error instanceof ItemGone) return 'gone';
    if (error instanceof UnauthorizedFailure) return 'unauthorized';
    if (error instanceof TransientFailure) {
      // No answer at all: the following items would fail the same way; a 5xx may be this item's alone.
      return error.status === null || error.code === 'Network Error' ? 'offline' : 'failed';
    }
    if (options.signal?.aborted) return 'aborted';
    throw error;
  }
}

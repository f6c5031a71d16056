/**
 * The batch sender of the replay (decision record 0024): takes several outbox items, each of
 * another lane, to their end in one request to `POST bo/outbox/batch`
 * (contract/outbox-batch-wire.ts), where the server runs each as if it had been sent alone.
 *
 * Each item's answer settles it exactly as the single send (replay-sender.ts) would: 2xx → its
 * answer stored on its local record and the item removed (the batch's accepted items in one
 * transaction); 401 → waits for the next sign-in; any other 4xx → needs attention with its error
 * code. Whatever the batch could not settle goes through the single send, with its retries and
 * backoff: an item answered 5xx, 408 or 429, and every item of a batch that got no usable answer
 * (network lost, timeout, the batch refused). The keys are the items' own, so an item the server
 * stored before its answer was lost is answered again, never written twice. A server without the
 * route (404: older than the route) is remembered, and this context sends one by one there.
 */
import { OUTBOX_BATCH_PATH, type OutboxBatchItem } from '../../../contract/outbox-batch-wire.ts';
import type { ComptoirDb, OutboxItem } from './local-database.ts';
import { OUTBOX_SCHEMA_VERSION } from './queue.ts';
import {
  answerKind,
  completeAll,
  errorCodeOf,
  markNeedsAttention,
  parseJson,
  releaseClaim,
  requestHeaders,
  type SendOptions,
  type SendOutcome,
  sendItem,
} from './replay-sender.ts';

/** API bases that answered the batch route 404 (an older server): sent one by one from then on. */
const withoutBatchRoute = new Set<string>();

/** True when the server at `apiBase` was found without the batch route in this context. */
export function lacksBatchRoute(apiBase: string): boolean {
  return withoutBatchRoute.has(apiBase);
}

/** Tells how each item ended, as it ends. */
export type OutcomeSink = (item: OutboxItem, outcome: SendOutcome) => void;

/** The answers of a batch, or why there are none. */
type BatchResult =
  | { answers: { status: number; body: unknown }[] }
  | 'aborted'
  | 'unauthorized'
  | 'unsettled';

/** Marks the still-waiting items sending, in one transaction; answers those it could claim. */
async function claimAll(db: ComptoirDb, items: readonly OutboxItem[]): Promise<OutboxItem[]> {
  const claimed: OutboxItem[] = [];
  await db.transaction('rw', db.outbox, async () => {
    const stored = await db.outbox.bulkGet(items.map((i) => i.seq as number));
    const sending: OutboxItem[] = [];
    for (const [n, item] of items.entries()) {
      const now = stored[n];
      if (now?.state !== 'waiting' || now.idempotencyKey !== item.idempotencyKey) continue;
      claimed.push(item);
      sending.push({ ...now, state: 'sending' });
    }
    // The rows just read, written back whole: bulkUpdate would read each one again.
    await db.outbox.bulkPut(sending);
  });
  return claimed;
}

/** An outbox item as the batch carries it: what it would send alone. */
function wireItem(item: OutboxItem): OutboxBatchItem {
  const wire: OutboxBatchItem = {
    method: item.method,
    path: item.path,
    idempotencyKey: item.idempotencyKey,
    schemaVersion: item.schemaVersion,
  };
  if (item.searchParams) wire.query = item.searchParams;
  if (item.method !== 'DELETE') wire.body = item.body ?? null;
  return wire;
}

/** Sends one batch of `items` and reads its answer (see {@link BatchResult}). */
async function postBatch(items: readonly OutboxItem[], options: SendOptions): Promise<BatchResult> {
  const signals = [AbortSignal.timeout(options.backoff.requestTimeoutMs)];
  if (options.signal) signals.push(options.signal);
  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? fetch)(new URL(OUTBOX_BATCH_PATH, options.apiBase), {
      method: 'POST',
      headers: requestHeaders(options.credentials),
      body: JSON.stringify({ items: items.map(wireItem) }),
      signal: AbortSignal.any(signals),
      cache: 'no-store',
    });
    text = await response.text();
  } catch {
    return options.signal?.aborted ? 'aborted' : 'unsettled';
  }
  if (response.status === 404 || response.status === 405) withoutBatchRoute.add(options.apiBase);
  if (response.status === 401) return 'unauthorized';
  const body = parseJson(text) as { answers?: unknown } | null;
  const answers = body?.answers;
  if (!response.ok || !Array.isArray(answers) || answers.length !== items.length) return 'unsettled';
  const wellFormed = answers.every((a) => typeof a === 'object' && a !== null && Number.isInteger(a.status));
  return wellFormed ? { answers } : 'unsettled';
}

/**
 * Sends `items` one by one through the single send, in order, until the run stops; those left
 * when it stops wait untouched (`skipped`).
 */
async function sendAlone(
  items: readonly OutboxItem[],
  options: SendOptions,
  sink: OutcomeSink,
): Promise<void> {
  for (const item of items) {
    if (options.runStopped()) sink(item, 'skipped');
    else sink(item, await sendItem(item, options));
  }
}

/** Settles each claimed item by its own answer (see the module comment). */
async function settle(
  items: readonly OutboxItem[],
  answers: readonly { status: number; body: unknown }[],
  options: SendOptions,
  sink: OutcomeSink,
): Promise<void> {
  const { db } = options;
  const accepted: { item: OutboxItem; answer: unknown }[] = [];
  const again: OutboxItem[] = [];
  for (const [n, item] of items.entries()) {
    const { status, body } = answers[n]!;
    const kind = answerKind(status);
    if (kind === 'accepted') accepted.push({ item, answer: body });
    else if (kind === 'refused') {
      await markNeedsAttention(db, item, errorCodeOf(status, body), status);
      sink(item, 'refused');
    } else {
      await releaseClaim(db, item.seq as number);
      if (kind === 'unauthorized') sink(item, 'unauthorized');
      else again.push(item);
    }
  }
  await completeAll(db, accepted, Date.now());
  for (const { item } of accepted) sink(item, 'sent');
  options.onProgress?.();
  await sendAlone(again, options, sink);
}

/**
 * Takes `items` (each of another lane, with their `seq`) to their end through one batch request,
 * telling `sink` how each ended. Never throws for a failed send (the items record it); rethrows
 * IndexedDB failures and anything unexpected, after putting the claimed items back to waiting.
 */
export async function sendBatch(
  items: readonly OutboxItem[],
  options: SendOptions,
  sink: OutcomeSink,
): Promise<void> {
  const { db } = options;
  // An item of an unknown body format is never sent: the single send marks it.
  const outdated = items.filter((i) => i.schemaVersion !== OUTBOX_SCHEMA_VERSION);
  for (const item of outdated) sink(item, await sendItem(item, options));
  const current = items.filter((i) => i.schemaVersion === OUTBOX_SCHEMA_VERSION);
  const claimed = await claimAll(db, current);
  for (const item of current) if (!claimed.includes(item)) sink(item, 'gone');
  if (claimed.length === 0) return;
  options.onProgress?.();
  try {
    const result = await postBatch(claimed, options);
    if (typeof result === 'object') return await settle(claimed, result.answers, options, sink);
    for (const item of claimed) await releaseClaim(db, item.seq as number);
    options.onProgress?.();
    if (result === 'unsettled') return await sendAlone(claimed, options, sink);
    for (const item of claimed) sink(item, result);
  } catch (error) {
    for (const item of claimed) await releaseClaim(db, item.seq as number);
    throw error;
  }
}

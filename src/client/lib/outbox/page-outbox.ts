/**
 * The outbox as the page's features use it, their one door into it: one replayer per page, started
 * after sign-in and stopped at sign-out; `submitWrite`, which stores a write with its local record
 * (one transaction, queue.ts) and asks for it to be sent at once; and the reads, resends and
 * discards of the unsent writes. Features never send their writes themselves, nor open the
 * database: online or offline, a write goes through the outbox, so it is sent the same way,
 * exactly once, whatever happens to the network or the tab.
 */
import { API_BASE } from '../http.ts';
import { db, type LocalRecord, type LocalTableName, type OutboxItem } from './local-database.ts';
import { clearOfflineCopies } from './offline-copy-store.ts';
import { startPageReplayer, type PageReplayer, requestBackgroundSync } from './page-replayer.ts';
import {
  confirmDiscard,
  type DiscardTicket,
  findItem,
  lastSyncedAt,
  listItems,
  listUnsentRecords,
  type OutboxCounts,
  prepareDiscard,
  readLocalRecord,
  resendItem,
  retryNow,
  type WriteToQueue,
  queueWrite,
} from './queue.ts';

export type { DiscardTicket, LocalRecord, LocalTableName, OutboxCounts, OutboxItem, WriteToQueue };
export type { LocalSyncState } from './local-database.ts';
export { OutboxItemBusy } from './queue.ts';
/** Offline copies kept by the service worker, listed and read back for a screen that shows them offline. */
export { listOfflineCopies, type OfflineCopyEntry, readOfflineCopy } from './offline-copy-list.ts';

let replayer: PageReplayer | null = null;

/** Absolute API base of this page (`/api/` resolved against the page's address). */
export function absoluteApiBase(): string {
  return new URL(API_BASE, globalThis.location?.href ?? 'http://localhost/').href;
}

/** Starts the page's replayer (idempotent). */
export function startOutbox(): void {
  replayer ??= startPageReplayer({
    db: db(),
    apiBase: absoluteApiBase(),
  });
}

/** Stops it (sign-out); queued writes stay for the same user's next sign-in. */
export function stopOutbox(): void {
  replayer?.stop();
  replayer = null;
}

/** Asks for a replay now (the /sync screen's retry, after an edit). */
export function kickOutbox(): void {
  replayer?.kick();
  void requestBackgroundSync();
}

/** Resolves when this page's replayer is idle. */
export async function outboxIdle(): Promise<void> {
  await replayer?.idle();
}

/** Queues a write with its local record and asks for it to be sent; resolves once stored locally. */
export async function submitWrite(write: WriteToQueue): Promise<OutboxItem> {
  const item = await queueWrite(db(), write);
  kickOutbox();
  return item;
}

/** What a resend may correct: the body, the local record's data, the summary, the query. */
export interface WriteCorrection {
  body: unknown;
  data?: Record<string, unknown>;
  summary?: Record<string, string | number>;
  searchParams?: Record<string, string>;
}

/**
 * Sends the queued write `id` again, corrected (a write the server refused, fixed by the user),
 * under a new Idempotency-Key, and asks for a replay. Throws OutboxItemBusy (queue.ts `resendItem`).
 */
export async function resendWrite(id: string, change: WriteCorrection): Promise<void> {
  await resendItem(db(), id, change);
  kickOutbox();
}

/** The queued write `id`, or undefined once it is sent or discarded. */
export function findWrite(id: string): Promise<OutboxItem | undefined> {
  return findItem(db(), id);
}

/** The user's "retry now" on write `id`, then a replay. Throws OutboxItemBusy while it is sent. */
export async function retryWrite(id: string): Promise<void> {
  await retryNow(db(), id);
  kickOutbox();
}

/** First step of a discard: what the confirmation shows. Throws OutboxItemBusy. */
export function prepareWriteDiscard(id: string): Promise<DiscardTicket> {
  return prepareDiscard(db(), id);
}

/** Second step, once the user confirmed `ticket`. Throws OutboxItemBusy if the write changed. */
export function confirmWriteDiscard(ticket: DiscardTicket): Promise<void> {
  return confirmDiscard(db(), ticket);
}

/** The local record `localId` of the feature's `table`, or undefined. */
export function findLocalRecord(table: LocalTableName, localId: string): Promise<LocalRecord | undefined> {
  return readLocalRecord(db(), table, localId);
}

/** The records of `table` for a site and fiscal date (YYYY-MM-DD) still waiting or refused. */
export function listUnsentLocalRecords(
  table: LocalTableName,
  siteId: number,
  fiscalDate: string,
): Promise<LocalRecord[]> {
  return listUnsentRecords(db(), table, siteId, fiscalDate);
}

/**
 * The outbox of `login` as every screen shows it: its writes (oldest first), their counts per
 * state, and the last time a write reached the server (epoch ms, null if none did here). The
 * counts are taken from the very list returned, in one read, so a badge and a list fed by one
 * answer can never disagree (issue #20 item 7).
 */
export async function readOutboxState(
  login: string,
): Promise<OutboxCounts & { items: OutboxItem[]; lastSyncedAt: number | null }> {
  const items = await listItems(db(), login);
  const counts: OutboxCounts = { waiting: 0, sending: 0, needsAttention: 0 };
  for (const item of items) counts[item.state] += 1;
  return { ...counts, items, lastSyncedAt: await lastSyncedAt(db()) };
}

/** Forgets every offline copy of read-only answers (sign-out: they hold that user's figures). */
export function forgetOfflineCopies(): Promise<void> {
  return clearOfflineCopies(db());
}

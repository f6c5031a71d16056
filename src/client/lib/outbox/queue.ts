/**
 * Putting writes into the outbox and taking them out by the user's hand (DESIGN.md §7).
 *
 * Guarantees:
 * - a write and its local record are stored in ONE Dexie transaction: either both exist or
 *   neither, so a count typed offline is never shown saved without a pending write, nor sent
 *   without a local copy;
 * - every item carries a client UUID (its Idempotency-Key), the schema version of its body, its
 *   creation time, attempts, next-attempt time and state;
 * - nothing leaves the outbox except by reaching the server (replay.ts) or by a discard the user
 *   confirmed (`confirmDiscard` needs the ticket `prepareDiscard` gave for the same item).
 *
 * The outbox knows no feature: the feature that queues a write names its table of local records
 * and its replay lane ({@link WriteToQueue}), and reads them back through the functions below.
 */
import type { ComptoirDb, LocalRecord, LocalTableName, OutboxItem } from './local-database.ts';

/** Format of queued bodies. Bump it when a body's shape changes; older items then need attention. */
export const OUTBOX_SCHEMA_VERSION = 1;

/** Tag of the Background Sync registration the service worker answers (Chromium only). */
export const OUTBOX_SYNC_TAG = 'comptoir-outbox';

/** A write to queue. `record` is the local copy stored with it (same transaction). */
export interface WriteToQueue {
  /** What it writes, as the feature names it (picks the label on /sync). */
  kind: string;
  /**
   * Its replay lane: writes of the same business record (as the feature defines it) share a
   * lane and arrive in the order they were made; other lanes may be sent meanwhile.
   */
  lane: string;
  method: OutboxItem['method'];
  path: string;
  searchParams?: Record<string, string>;
  body: unknown;
  login: string;
  summary: Record<string, string | number>;
  record?: {
    /** The feature's table of local records (any name it chooses; see local-database.ts). */
    table: LocalTableName;
    siteId: number;
    fiscalDate: string;
    data: Record<string, unknown>;
    /** Reuse a local record (an edit of a write still pending); a new UUID otherwise. */
    localId?: string;
  };
  /** Clock for tests (epoch ms). */
  now?: number;
}

/** Stores the local record and its outbox item in one transaction; resolves to the item. */
export async function queueWrite(db: ComptoirDb, write: WriteToQueue): Promise<OutboxItem> {
  const now = write.now ?? Date.now();
  const id = crypto.randomUUID();
  const localId = write.record?.localId ?? id;
  const item: OutboxItem = {
    id,
    idempotencyKey: id,
    kind: write.kind,
    lane: write.lane,
    method: write.method,
    path: write.path,
    body: write.body,
    schemaVersion: OUTBOX_SCHEMA_VERSION,
    login: write.login,
    createdAt: now,
    attempts: 0,
    nextAttemptAt: now,
    state: 'waiting',
    reason: null,
    status: null,
    record: write.record ? { table: write.record.table, key: localId } : null,
    summary: write.summary,
  };
  if (write.searchParams) item.searchParams = write.searchParams;
  await db.transaction('rw', [db.outbox, db.localRecords], async () => {
    if (write.record) {
      const record: LocalRecord = {
        table: write.record.table,
        localId,
        syncState: 'pending',
        serverAnswer: null,
        savedAt: now,
        login: write.login,
        siteId: write.record.siteId,
        fiscalDate: write.record.fiscalDate,
        data: write.record.data,
        outboxId: id,
        reason: null,
      };
      await db.localRecords.put(record);
    }
    item.seq = await db.outbox.add(item);
  });
  return item;
}

/** The outbox item with this id, or undefined. */
export function findItem(db: ComptoirDb, id: string): Promise<OutboxItem | undefined> {
  return db.outbox.where('id').equals(id).first();
}

/** Thrown when an item cannot be changed now (it is being sent, or is gone). */
export class OutboxItemBusy extends Error {
  readonly itemId: string;
  constructor(itemId: string) {
    super(`outbox item ${itemId} is being sent or no longer exists`);
    this.name = 'OutboxItemBusy';
    this.itemId = itemId;
  }
}

/**
 * Sends an item again now, optionally with a corrected body (the user fixed what the server
 * refused, or edits a write never tried yet). The item gets a new Idempotency-Key: the old one may be known to the server with the
 * refused body, and a known key with another body is refused (422). Attempts start again.
 * Throws {@link OutboxItemBusy} while the item is being sent, and for a waiting item already
 * tried (its first send may have been stored by the server).
 */
export async function resendItem(
  db: ComptoirDb,
  id: string,
  change?: {
    body: unknown;
    data?: Record<string, unknown>;
    summary?: Record<string, string | number>;
    searchParams?: Record<string, string>;
  },
  now: number = Date.now(),
): Promise<void> {
  await db.transaction('rw', [db.outbox, db.localRecords], async () => {
    const item = await findItem(db, id);
    if (!item || item.seq === undefined || item.state === 'sending') throw new OutboxItemBusy(id);
    // A waiting item already tried may have reached the server with its answer lost: a new key
    // could store it twice, and the old key with another body is refused. It must arrive first.
    if (item.state === 'waiting' && item.attempts > 0) throw new OutboxItemBusy(id);
    const update: Partial<OutboxItem> = {
      idempotencyKey: crypto.randomUUID(),
      state: 'waiting',
      attempts: 0,
      nextAttemptAt: now,
      reason: null,
      status: null,
    };
    if (change) {
      update.body = change.body;
      update.schemaVersion = OUTBOX_SCHEMA_VERSION;
      if (change.summary) update.summary = change.summary;
      if (change.searchParams) update.searchParams = change.searchParams;
    }
    await db.outbox.update(item.seq, update);
    if (item.record) {
      const recordUpdate: Partial<LocalRecord> = { syncState: 'pending', reason: null };
      if (change?.data) recordUpdate.data = change.data;
      await db.localRecords.update([item.record.table, item.record.key], recordUpdate);
    }
  });
}

/** What the confirmation dialog shows before a discard; pass it back to {@link confirmDiscard}. */
export interface DiscardTicket {
  id: string;
  idempotencyKey: string;
  kind: string;
  summary: Record<string, string | number>;
  createdAt: number;
}

/** First step of a discard: describes the item (nothing is removed). Throws OutboxItemBusy. */
export async function prepareDiscard(db: ComptoirDb, id: string): Promise<DiscardTicket> {
  const item = await findItem(db, id);
  if (!item || item.state === 'sending') throw new OutboxItemBusy(id);
  return {
    id: item.id,
    idempotencyKey: item.idempotencyKey,
    kind: item.kind,
    summary: item.summary,
    createdAt: item.createdAt,
  };
}

/**
 * Second step, after the user confirmed: removes the item and marks its local record discarded
 * (kept on the device, never sent). Refuses (OutboxItemBusy) if the item is being sent or was
 * resent since the ticket was made, so a confirmation never applies to something else.
 */
export async function confirmDiscard(db: ComptoirDb, ticket: DiscardTicket): Promise<void> {
  await db.transaction('rw', [db.outbox, db.localRecords], async () => {
    const item = await findItem(db, ticket.id);
    if (
      !item ||
      item.seq === undefined ||
      item.state === 'sending' ||
      item.idempotencyKey !== ticket.idempotencyKey
    ) {
      throw new OutboxItemBusy(ticket.id);
    }
    await db.outbox.delete(item.seq);
    if (item.record) {
      const key: [string, string] = [item.record.table, item.record.key];
      const record = await db.localRecords.get(key);
      if (record && record.outboxId === item.id) {
        await db.localRecords.update(key, { syncState: 'discarded', outboxId: null });
      }
    }
  });
}

/** Counts shown by the sync badge, for one login (or every login when null). */
export interface OutboxCounts {
  waiting: number;
  sending: number;
  needsAttention: number;
}

/** How many items of `login` (every login when null) wait, are being sent, or need attention. */
export async function countOutbox(db: ComptoirDb, login: string | null): Promise<OutboxCounts> {
  const counts: OutboxCounts = { waiting: 0, sending: 0, needsAttention: 0 };
  await db.outbox.each((item) => {
    if (login !== null && item.login !== login) return;
    counts[item.state] += 1;
  });
  return counts;
}

/** meta key of the last time a write reached the server (epoch ms). */
export const LAST_SYNCED_KEY = 'lastSyncedAt';

/**
 * The user's "retry now": a waiting item becomes due at once; an item needing attention is sent
 * again as it is ({@link resendItem}). Throws OutboxItemBusy while it is being sent.
 */
export async function retryNow(db: ComptoirDb, id: string, now: number = Date.now()): Promise<void> {
  const item = await findItem(db, id);
  if (!item || item.seq === undefined || item.state === 'sending') throw new OutboxItemBusy(id);
  if (item.state === 'needsAttention') {
    await resendItem(db, id, undefined, now);
    return;
  }
  await db.outbox.update(item.seq, { nextAttemptAt: now });
}

/** Epoch milliseconds of the last time a write reached the server, or null if none did here. */
export async function lastSyncedAt(db: ComptoirDb): Promise<number | null> {
  const last = await db.meta.get(LAST_SYNCED_KEY);
  return typeof last?.value === 'number' ? last.value : null;
}

/** Every item of `login`, oldest first (the /sync screen's list). */
export function listItems(db: ComptoirDb, login: string): Promise<OutboxItem[]> {
  return db.outbox
    .orderBy('seq')
    .filter((i) => i.login === login)
    .toArray();
}

/** The local record `localId` of `table`, or undefined. */
export function readLocalRecord(
  db: ComptoirDb,
  table: LocalTableName,
  localId: string,
): Promise<LocalRecord | undefined> {
  return db.localRecords.get([table, localId]);
}

/**
 * The records of `table` for a site (restaurantId) and fiscal date (YYYY-MM-DD) that have not
 * reached the server: waiting to leave, or refused. Oldest saved first.
 */
export function listUnsentRecords(
  db: ComptoirDb,
  table: LocalTableName,
  siteId: number,
  fiscalDate: string,
): Promise<LocalRecord[]> {
  return db.localRecords
    .where('[table+siteId+fiscalDate]')
    .equals([table, siteId, fiscalDate])
    .filter((r) => r.syncState === 'pending' || r.syncState === 'needsAttention')
    .sortBy('savedAt');
}

/**
 * The app's Dexie database (DESIGN.md §7, §8: "reports, dashboards, the outbox and drafts in
 * Dexie"). One module opened by the page and by the service worker, so both always agree on the
 * schema: a version bump here reaches both in the same build. It knows no feature: a feature names
 * its own table of local records when it queues a write (lib/outbox/queue.ts).
 *
 * Tables:
 * - `outbox`: offline writes waiting to reach the server (see lib/outbox). `seq` is an
 *   auto-increment key: IndexedDB never reuses or reorders it, so "oldest first" is exact even for
 *   writes queued in the same millisecond.
 * - `localRecords`: the local records the user typed, keyed by `[table, localId]` (`table` is the
 *   name the feature gave them). Each is written in the same transaction as its outbox item, so a
 *   record and its pending write never part.
 * - `offlineCopies`: the last answers of allow-listed read-only GETs, kept by the service worker
 *   (bounded by count and bytes, oldest out) and served offline.
 * - `meta`: small named values (`lastSyncedAt`).
 *
 * Version 1 kept each feature's records in a store of its own; version 2 moves them into
 * `localRecords` (see {@link moveRecordsIntoOneTable}) and drops those stores, and queued items keep
 * their place in the outbox.
 */
import { Dexie, type EntityTable, type Table, type Transaction } from 'dexie';

/** Name of the IndexedDB database. */
export const DB_NAME = 'comptoir';

/** Where a local record stands with the server. */
export type LocalSyncState = 'pending' | 'synced' | 'needsAttention' | 'discarded';

/** The outbox item's life (DESIGN.md §7). */
export type OutboxState = 'waiting' | 'sending' | 'needsAttention';

/**
 * Name a feature gives its local records (any name it chooses). Records of
 * different tables never mix: lists and reads always name their table.
 */
export type LocalTableName = string;

/**
 * Lane of the items queued before version 2, which carried no lane: they keep their order among
 * themselves and before any newer item (lib/outbox/replay-scheduler.ts).
 */
export const QUEUED_BEFORE_LANES = 'queuedBeforeLanes';

/**
 * One queued write. `body` is the JSON the server receives; `searchParams` the query string
 * (SPEC.md §7 writes some parameters in the query, e.g. createDocument's codeVendeur).
 */
export interface OutboxItem {
  /** Auto-increment order key (oldest first). */
  seq?: number;
  /** Stable id of the item on this device (UUID). */
  id: string;
  /**
   * UUID sent as `Idempotency-Key`. Equal to `id` at first; a user's resend after a 4xx gets a new
   * key, because the server refuses a known key with another body (422).
   */
  idempotencyKey: string;
  /** What it writes, as the feature names it: picks the label on /sync. */
  kind: string;
  /**
   * Replay lane, declared by the feature that queued it: items of one lane are sent one after the
   * other, oldest first; items of different lanes may be in flight together (replay-scheduler.ts).
   */
  lane: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path relative to the API base, no leading slash (e.g. `bo/some/write`). */
  path: string;
  searchParams?: Record<string, string>;
  body: unknown;
  /** Format of `body` (OUTBOX_SCHEMA_VERSION when queued); a replayer never sends a format it does not know. */
  schemaVersion: number;
  /** Login of the user who queued it: only their session sends it. */
  login: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Sends tried so far (network errors, 5xx). */
  attempts: number;
  /** Epoch milliseconds before which no replayer retries it. */
  nextAttemptAt: number;
  state: OutboxState;
  /** Error code of the last failure (server `{code}`, `Network Error`, `InternalError`…). */
  reason: string | null;
  /** HTTP status of the last failure, null without an answer. */
  status: number | null;
  /** The local record this write carries, updated with the answer once sent. */
  record: { table: LocalTableName; key: string } | null;
  /** Short human summary shown on /sync (site, fiscal date, terminal…), never translated text. */
  summary: Record<string, string | number>;
}

/** Fields every local record has; the rest is the contract's shape of the write. */
export interface LocalRecord {
  /** The feature's name for this kind of record ({@link LocalTableName}). */
  table: LocalTableName;
  /** Client UUID (also the first Idempotency-Key of its write). */
  localId: string;
  syncState: LocalSyncState;
  /** The server's answer once synced (its id, version…). */
  serverAnswer: unknown;
  /** Epoch milliseconds of the local save. */
  savedAt: number;
  /** Login of the author. */
  login: string;
  /** Site (restaurantId) and fiscal date (YYYY-MM-DD) for listing. */
  siteId: number;
  fiscalDate: string;
  /** The write as sent (contract shape). */
  data: Record<string, unknown>;
  /** The outbox item carrying it, while it is queued. */
  outboxId: string | null;
  /** Set when the server refused it (error code). */
  reason: string | null;
}

/** A kept answer of an allow-listed GET (see offline-copy-store.ts). */
export interface OfflineCopy {
  /** Login + normalised path and query (cache-busting `_` removed). */
  key: string;
  /** Epoch milliseconds of the network answer. */
  storedAt: number;
  status: number;
  contentType: string;
  body: ArrayBuffer;
  /** `body.byteLength`, indexed for the size bound. */
  bytes: number;
  login: string;
}

/** A small named value (`lastSyncedAt`…). */
export interface MetaEntry {
  key: string;
  value: unknown;
}

/** The database with its tables typed. */
export type ComptoirDb = Dexie & {
  outbox: EntityTable<OutboxItem, 'seq'>;
  localRecords: Table<LocalRecord, [LocalTableName, string]>;
  offlineCopies: EntityTable<OfflineCopy, 'key'>;
  meta: EntityTable<MetaEntry, 'key'>;
};

/** The stores of the current version (2) and their indexes. */
const STORES = {
  outbox: '++seq, &id, state, login, createdAt',
  localRecords: '[table+localId], [table+siteId+fiscalDate], syncState, savedAt',
  offlineCopies: 'key, storedAt, login',
  meta: 'key',
};

/**
 * Version 2's upgrade: every row of a store that version 2 no longer declares (version 1 kept one
 * store per kind of record) and that is a local record moves into `localRecords`, under the store's
 * name as its `table`, so the `{ table, key }` of the queued items that carry it still finds it.
 * Items queued then get {@link QUEUED_BEFORE_LANES}. Dexie drops the old stores afterwards.
 */
async function moveRecordsIntoOneTable(tx: Transaction): Promise<void> {
  const names = tx.idbtrans.objectStoreNames;
  const oldStores: string[] = [];
  for (let i = 0; i < names.length; i += 1) {
    const name = names.item(i);
    if (name !== null && !(name in STORES) && !name.startsWith('$')) oldStores.push(name);
  }
  for (const name of oldStores) {
    const rows: Array<Record<string, unknown>> = await tx.table(name).toArray();
    const records = rows
      .filter((row) => typeof row.localId === 'string')
      .map((row) => ({ ...row, table: name }) as unknown as LocalRecord);
    await tx.table<LocalRecord>('localRecords').bulkPut(records);
  }
  await tx
    .table<OutboxItem>('outbox')
    .toCollection()
    .modify((item) => {
      item.lane ??= QUEUED_BEFORE_LANES;
    });
}

/** Opens (lazily) a database named `name`; tests open one per "tab" on the same name. */
export function openDb(name: string = DB_NAME): ComptoirDb {
  const db = new Dexie(name) as ComptoirDb;
  db.version(2).stores(STORES).upgrade(moveRecordsIntoOneTable);
  return db;
}

let shared: ComptoirDb | null = null;

/** The database of this page or service worker (one connection per context). */
export function db(): ComptoirDb {
  shared ??= openDb();
  return shared;
}

/**
 * A device upgraded with writes still queued (issue #16): version 1 of the database kept each
 * feature's local records in a store of its own (cashCounts, safeCounts, receipts) and its outbox
 * items had no lane. Opening it with the current schema (version 2) must move the records into
 * `localRecords` and keep every queued item, which the replayer then sends exactly once, oldest
 * first, before any write queued after the upgrade. IndexedDB from fake-indexeddb; the loopback
 * write server of the other outbox tests.
 */
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webLock } from '../../src/client/lib/outbox/lock.ts';
import {
  type LocalRecord,
  openDb,
  type OutboxItem,
  QUEUED_BEFORE_LANES,
} from '../../src/client/lib/outbox/local-database.ts';
import { findItem, OUTBOX_SCHEMA_VERSION, queueWrite } from '../../src/client/lib/outbox/queue.ts';
import { replayOutbox } from '../../src/client/lib/outbox/replay.ts';
import { type OutboxServer, startOutboxServer } from './outbox-server.ts';

const LOGIN = 'gérant';
const credentials = async () => ({ login: LOGIN, token: 'tok-1' });
const FAST = { minDelayMs: 20, maxDelayMs: 80, retries: 3, requestTimeoutMs: 2_000 };

/** The schema of version 1, as the app declared it before local records shared one table. */
const VERSION_1_STORES = {
  outbox: '++seq, &id, state, login, createdAt',
  cashCounts: 'localId, [siteId+fiscalDate], syncState, savedAt',
  safeCounts: 'localId, [siteId+fiscalDate], syncState, savedAt',
  receipts: 'localId, [siteId+fiscalDate], fiscalDate, syncState, savedAt',
  offlineCopies: 'key, storedAt, login',
  meta: 'key',
};

type Version1Item = Omit<OutboxItem, 'lane' | 'seq'>;
type Version1Record = Omit<LocalRecord, 'table'>;

/** An item and its record as version 1 queued them (no lane, the record in its feature's store). */
function version1Write(
  n: number,
  store: 'cashCounts' | 'safeCounts' | 'receipts',
  syncState: LocalRecord['syncState'] = 'pending',
): { item: Version1Item; record: Version1Record } {
  const id = `00000000-0000-4000-8000-00000000000${n}`;
  const body = { site: 3, dateFiscale: '2026-11-22', n };
  return {
    item: {
      id,
      idempotencyKey: id,
      kind: store === 'receipts' ? 'receipt' : store.slice(0, -1),
      method: 'POST',
      path: `bo/v1/${store}`,
      body,
      schemaVersion: OUTBOX_SCHEMA_VERSION,
      login: LOGIN,
      createdAt: 1_000 + n,
      attempts: 0,
      nextAttemptAt: 1_000 + n,
      state: 'waiting',
      reason: null,
      status: null,
      record: { table: store, key: id },
      summary: { site: 3, date: '2026-11-22', terminal: 1 },
    },
    record: {
      localId: id,
      syncState,
      serverAnswer: null,
      savedAt: 1_000 + n,
      login: LOGIN,
      siteId: 3,
      fiscalDate: '2026-11-22',
      data: body,
      outboxId: id,
      reason: null,
    },
  };
}

/** Creates database `name` at version 1 with `writes` queued, then closes it. */
async function createVersion1(
  name: string,
  writes: Array<ReturnType<typeof version1Write> & { store: keyof typeof VERSION_1_STORES }>,
  extraRecords: Array<{ store: keyof typeof VERSION_1_STORES; record: Version1Record }> = [],
) {
  const old = new Dexie(name);
  old.version(1).stores(VERSION_1_STORES);
  await old.open();
  for (const { item, record, store } of writes) {
    await old.table(store).put(record);
    await old.table('outbox').add(item);
  }
  for (const { store, record } of extraRecords) await old.table(store).put(record);
  await old.table('meta').put({ key: 'lastSyncedAt', value: 999 });
  old.close();
}

let server: OutboxServer;
let dbCount = 0;

beforeAll(async () => {
  server = await startOutboxServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

describe('outbox database upgrade from version 1', () => {
  it('moves the local records and keeps the queued items, then replays each exactly once', async () => {
    const name = `outbox-upgrade-${++dbCount}`;
    const cash = version1Write(1, 'cashCounts');
    const safe = version1Write(2, 'safeCounts');
    const receipt = version1Write(3, 'receipts');
    const synced = version1Write(4, 'cashCounts', 'synced');
    await createVersion1(
      name,
      [
        { ...cash, store: 'cashCounts' },
        { ...safe, store: 'safeCounts' },
        { ...receipt, store: 'receipts' },
      ],
      [{ store: 'cashCounts', record: { ...synced.record, outboxId: null } }],
    );

    const db = openDb(name);
    await db.open();
    expect(db.verno).toBe(2);
    expect(db.tables.map((t) => t.name).sort()).toEqual(['localRecords', 'meta', 'offlineCopies', 'outbox']);
    expect(await db.localRecords.count()).toBe(4);
    expect(await db.localRecords.get(['cashCounts', cash.item.id])).toMatchObject({
      table: 'cashCounts',
      syncState: 'pending',
      outboxId: cash.item.id,
      data: cash.record.data,
    });
    expect(await db.localRecords.get(['receipts', receipt.item.id])).toMatchObject({ table: 'receipts' });
    expect(await db.localRecords.get(['cashCounts', synced.item.id])).toMatchObject({ syncState: 'synced' });
    const items = await db.outbox.orderBy('seq').toArray();
    expect(items.map((i) => [i.id, i.lane, i.idempotencyKey, i.state])).toEqual(
      [cash, safe, receipt].map(({ item }) => [item.id, QUEUED_BEFORE_LANES, item.idempotencyKey, 'waiting']),
    );
    expect((await db.meta.get('lastSyncedAt'))?.value).toBe(999);

    // A write queued after the upgrade, in a lane of its own, still waits for the older ones.
    const newer = await queueWrite(db, {
      kind: 'cashCount',
      lane: 'cash|3|2026-11-22|1',
      method: 'POST',
      path: 'bo/v2/cashCounts',
      body: { n: 5 },
      login: LOGIN,
      summary: { site: 3, date: '2026-11-22', terminal: 1 },
      record: { table: 'cashCounts', siteId: 3, fiscalDate: '2026-11-22', data: { n: 5 } },
    });

    const result = await replayOutbox({
      db,
      lock: webLock(),
      apiBase: server.base,
      credentials,
      backoff: FAST,
      concurrency: 4,
    });
    expect(result).toMatchObject({ sent: 4, refused: 0, stoppedBy: null, remaining: 0 });
    expect(server.received.map((r) => r.key)).toEqual([
      cash.item.id,
      safe.item.id,
      receipt.item.id,
      newer.id,
    ]);
    expect(server.rows.size).toBe(4);
    for (const { item } of [cash, safe, receipt]) {
      expect(server.rows.get(item.id)?.body).toEqual(item.body);
      expect(await findItem(db, item.id)).toBeUndefined();
      expect(await db.localRecords.get([item.record!.table, item.id])).toMatchObject({
        syncState: 'synced',
        outboxId: null,
      });
    }

    // Reopened (another tab, a reload): nothing moves again, nothing is sent again.
    db.close();
    const again = openDb(name);
    expect(await again.localRecords.count()).toBe(5);
    await replayOutbox({ db: again, lock: webLock(), apiBase: server.base, credentials, backoff: FAST });
    expect(server.received).toHaveLength(4);
    again.close();
  });

  it('creates a new device’s database at version 2 directly', async () => {
    const db = openDb(`outbox-upgrade-${++dbCount}`);
    await db.open();
    expect(db.verno).toBe(2);
    expect(await db.localRecords.count()).toBe(0);
    db.close();
  });
});

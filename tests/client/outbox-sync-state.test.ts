/**
 * What the header's sync badge claims (issue #3 point 5): never "synced" before the outbox was
 * read, the most urgent state first, from the outbox's counts alone; and "last synced" moves only
 * when a write reached the server (issue #20 item 6), never on a replay with nothing to send.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { type SyncState, summarise } from '../../src/client/features/sync/sync-state.ts';
import { type ComptoirDb, openDb } from '../../src/client/lib/outbox/local-database.ts';
import { webLock } from '../../src/client/lib/outbox/lock.ts';
import { LAST_SYNCED_KEY, lastSyncedAt, queueWrite } from '../../src/client/lib/outbox/queue.ts';
import { type ReplayOptions, replayOutbox } from '../../src/client/lib/outbox/replay.ts';

const state = (s: Partial<Omit<SyncState, 'items'>>): Omit<SyncState, 'items'> => ({
  loaded: true,
  online: true,
  waiting: 0,
  sending: 0,
  needsAttention: 0,
  lastSyncedAt: null,
  ...s,
});

describe('sync badge summary', () => {
  it('claims nothing before the outbox was read', () => {
    expect(summarise(state({ loaded: false }))).toBe('checking');
    expect(summarise(state({ loaded: false, online: false }))).toBe('offline');
  });

  it('puts needs attention first, then offline, sending, waiting, and synced only when nothing is left', () => {
    expect(summarise(state({ needsAttention: 1, online: false, waiting: 3 }))).toBe('needsAttention');
    expect(summarise(state({ online: false, waiting: 3 }))).toBe('offline');
    expect(summarise(state({ sending: 1 }))).toBe('sending');
    // Waiting items are "waiting" until the outbox marks one as sent: as /sync lists them.
    expect(summarise(state({ waiting: 2 }))).toBe('waiting');
    expect(summarise(state({}))).toBe('synced');
  });
});

describe('last synced', () => {
  const LOGIN = 'gérant';
  let db: ComptoirDb;
  let dbCount = 0;
  let fetches = 0;
  /** The network is down: every request fails as fetch does offline. */
  const offlineFetch: typeof fetch = async () => {
    fetches += 1;
    throw new TypeError('Failed to fetch');
  };
  /** The server takes every write. */
  const acceptingFetch: typeof fetch = async () => {
    fetches += 1;
    return new Response(JSON.stringify({ id: 1 }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  const replay = (fetchImpl: typeof fetch) =>
    replayOutbox({
      db,
      lock: webLock(),
      apiBase: 'http://127.0.0.1:9/api/',
      credentials: async () => ({ login: LOGIN, token: 'tok-1' }),
      backoff: { minDelayMs: 1, maxDelayMs: 2, retries: 0, requestTimeoutMs: 500 },
      fetch: fetchImpl,
      ignoreSchedule: true,
    } satisfies ReplayOptions);

  beforeEach(() => {
    db = openDb(`sync-state-test-${++dbCount}`);
    fetches = 0;
  });

  it('stays unknown after a replay with nothing to send, offline or online', async () => {
    expect(await replay(offlineFetch)).toMatchObject({ sent: 0, remaining: 0, stoppedBy: null });
    expect(await replay(acceptingFetch)).toMatchObject({ sent: 0 });
    expect(fetches).toBe(0);
    expect(await lastSyncedAt(db)).toBeNull();
  });

  it('keeps the time of the last delivered write while replays find nothing to send', async () => {
    await db.meta.put({ key: LAST_SYNCED_KEY, value: 1_000 });
    await replay(offlineFetch);
    await replay(offlineFetch);
    expect(await lastSyncedAt(db)).toBe(1_000);
  });

  it('keeps it too when the network fails a write, and moves it once a write is delivered', async () => {
    await db.meta.put({ key: LAST_SYNCED_KEY, value: 1_000 });
    await queueWrite(db, {
      kind: 'write',
      lane: 'serial',
      method: 'POST',
      path: 'things',
      body: { n: 1 },
      login: LOGIN,
      summary: { n: 1 },
    });
    expect(await replay(offlineFetch)).toMatchObject({ sent: 0, stoppedBy: 'offline' });
    expect(await lastSyncedAt(db)).toBe(1_000);

    const before = Date.now();
    expect(await replay(acceptingFetch)).toMatchObject({ sent: 1, remaining: 0 });
    expect(await lastSyncedAt(db)).toBeGreaterThanOrEqual(before);
  });
});

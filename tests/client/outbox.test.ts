/**
 * The outbox (DESIGN.md §7, issue #3 point 4) against a real HTTP server on loopback that can be
 * down, answer 500 or 4xx, delay, or commit and lose its answer; IndexedDB from fake-indexeddb;
 * the real Web Locks of Node 24 (`navigator.locks`, the same API Chromium gives tabs and the
 * service worker).
 */
import 'fake-indexeddb/auto';
import { set } from 'idb-keyval';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ComptoirDb, openDb } from '../../src/client/lib/outbox/local-database.ts';
import {
  readStoredCredentials,
  STORED_SESSION_FORMAT,
  STORED_SESSION_KEY,
} from '../../src/client/lib/outbox/credentials.ts';
import { contextLock, webLock } from '../../src/client/lib/outbox/lock.ts';
import {
  confirmDiscard,
  countOutbox,
  findItem,
  LAST_SYNCED_KEY,
  OUTBOX_SCHEMA_VERSION,
  prepareDiscard,
  queueWrite,
  resendItem,
} from '../../src/client/lib/outbox/queue.ts';
import {
  DEFAULT_REPLAY_CONCURRENCY,
  type ReplayOptions,
  replayOutbox,
} from '../../src/client/lib/outbox/replay.ts';
import { SESSION_FORMAT, SESSION_KEY } from '../../src/client/lib/session.ts';
import { type OutboxServer, startOutboxServer } from './outbox-server.ts';

const LOGIN = 'gérant';
const credentials = async () => ({ login: LOGIN, token: 'tok-1' });
const FAST = { minDelayMs: 20, maxDelayMs: 80, retries: 3, requestTimeoutMs: 2_000 };

let server: OutboxServer;
let db: ComptoirDb;
let dbCount = 0;

beforeAll(async () => {
  server = await startOutboxServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  db = openDb(`outbox-test-${++dbCount}`);
});

function options(extra: Partial<ReplayOptions> = {}): ReplayOptions {
  return { db, lock: webLock(), apiBase: server.base, credentials, backoff: FAST, ...extra };
}

/** Queues a cash count as the counting screen does: local record and outbox item together. */
function queueCount(n: number, login = LOGIN) {
  return queueWrite(db, {
    kind: 'cashCount',
    lane: 'serial',
    method: 'POST',
    path: 'bo/comptage/caisses',
    body: { restaurantId: 3, dateFiscale: '2026-11-22', caisse: n, countedCents: 1000 * n },
    login,
    summary: { site: 3, terminal: n },
    record: { table: 'cashCounts', siteId: 3, fiscalDate: '2026-11-22', data: { caisse: n } },
  });
}

/** A count of drawer `caisse` as the cash-count screen queues it (summary with site, date, terminal). */
function queueDrawerCount(caisse: number, round: number) {
  return queueWrite(db, {
    kind: 'cashCount',
    lane: `cash|3|2026-11-22|${caisse}`,
    method: 'POST',
    path: 'bo/comptage/caisses',
    body: { restaurantId: 3, dateFiscale: '2026-11-22', caisse, round },
    login: LOGIN,
    summary: { site: 3, date: '2026-11-22', terminal: caisse },
    record: { table: 'cashCounts', siteId: 3, fiscalDate: '2026-11-22', data: { caisse, round } },
  });
}

describe('outbox', () => {
  it('a count queued while offline reaches the server exactly once after reconnecting', async () => {
    server.down = true;
    const item = await queueCount(1);
    expect(await db.localRecords.get(['cashCounts', item.id])).toMatchObject({
      syncState: 'pending',
      outboxId: item.id,
    });

    const offline = await replayOutbox(options());
    expect(offline).toMatchObject({ sent: 0, stoppedBy: 'offline', remaining: 1 });
    const waiting = await findItem(db, item.id);
    expect(waiting).toMatchObject({ state: 'waiting', reason: 'Network Error', attempts: 4 });
    expect(waiting!.nextAttemptAt).toBeGreaterThan(item.createdAt);

    server.down = false;
    // The next run is due only at nextAttemptAt: wait for it as the page timer would.
    await new Promise((r) => setTimeout(r, Math.max(0, waiting!.nextAttemptAt - Date.now()) + 5));
    const online = await replayOutbox(options());
    expect(online).toMatchObject({ sent: 1, refused: 0, stoppedBy: null, remaining: 0 });
    expect(server.rows.size).toBe(1);
    expect(server.rows.get(item.id)!.body).toEqual(item.body);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.localRecords.get(['cashCounts', item.id])).toMatchObject({
      syncState: 'synced',
      serverAnswer: { id: 1 },
      outboxId: null,
    });
    expect((await db.meta.get(LAST_SYNCED_KEY))?.value).toBeTypeOf('number');

    // Nothing left: another run sends nothing more.
    await replayOutbox(options());
    expect(server.received.filter((r) => r.key === item.id)).toHaveLength(1);
  });

  it('retries 5xx answers with growing delays under the same Idempotency-Key', async () => {
    const item = await queueCount(1);
    server.script(
      { kind: 'status', status: 500, code: 'InternalError' },
      { kind: 'status', status: 503, code: 'Unavailable' },
    );
    const result = await replayOutbox(options({ backoff: { ...FAST, minDelayMs: 60, maxDelayMs: 1_000 } }));
    expect(result).toMatchObject({ sent: 1, remaining: 0 });
    expect(server.received.map((r) => r.key)).toEqual([item.id, item.id, item.id]);
    const [a, b, c] = server.received.map((r) => r.at) as [number, number, number];
    // p-retry's jittered exponential delays: first ≥ 60 ms, second ≥ 120 ms.
    expect(b - a).toBeGreaterThanOrEqual(55);
    expect(c - b).toBeGreaterThanOrEqual(115);
    expect(server.rows.size).toBe(1);
  });

  it('sends again a write whose answer was lost after the server committed, and the server keeps one row', async () => {
    const item = await queueCount(1);
    server.script({ kind: 'commitThenCut' });
    const result = await replayOutbox(options());
    expect(result).toMatchObject({ sent: 1, remaining: 0 });
    expect(server.received).toHaveLength(2);
    expect(server.rows.size).toBe(1);
    // The repeat got the first answer.
    expect(await db.localRecords.get(['cashCounts', item.id])).toMatchObject({
      syncState: 'synced',
      serverAnswer: { id: 1 },
    });
  });

  it('treats a delayed answer past the time limit as a network error and sends again', async () => {
    const item = await queueCount(1);
    server.script({ kind: 'delay', ms: 400 });
    const result = await replayOutbox(options({ backoff: { ...FAST, requestTimeoutMs: 150 } }));
    expect(result?.sent).toBe(1);
    expect(server.received.filter((r) => r.key === item.id).length).toBeGreaterThanOrEqual(2);
    expect(server.rows.size).toBe(1);
  });

  it('marks a 4xx "needs attention" with the server code, keeps it, and still sends the next ones', async () => {
    const refused = await queueCount(1);
    const next = await queueCount(2);
    server.script({ kind: 'status', status: 400, code: 'CountRuleMissing' });
    const result = await replayOutbox(options());
    expect(result).toMatchObject({ sent: 1, refused: 1, remaining: 0 });
    expect(await findItem(db, refused.id)).toMatchObject({
      state: 'needsAttention',
      reason: 'CountRuleMissing',
      status: 400,
    });
    expect(await db.localRecords.get(['cashCounts', refused.id])).toMatchObject({
      syncState: 'needsAttention',
      reason: 'CountRuleMissing',
    });
    expect(server.rows.has(next.id)).toBe(true);

    // Left alone, it stays: later runs do not send it, nothing drops it.
    await replayOutbox(options());
    await replayOutbox(options());
    expect(server.received.filter((r) => r.key === refused.id)).toHaveLength(1);
    expect(await countOutbox(db, LOGIN)).toEqual({ waiting: 0, sending: 0, needsAttention: 1 });

    // The user fixes it and resends: a new key (the old one is tied to the refused body).
    const fixed = { ...(refused.body as object), countedCents: 1234 };
    await resendItem(db, refused.id, { body: fixed, data: { caisse: 1, fixed: true } });
    const resent = await findItem(db, refused.id);
    expect(resent).toMatchObject({ state: 'waiting', attempts: 0, reason: null });
    expect(resent!.idempotencyKey).not.toBe(refused.idempotencyKey);
    await replayOutbox(options());
    expect(server.rows.get(resent!.idempotencyKey)?.body).toEqual(fixed);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.localRecords.get(['cashCounts', refused.id])).toMatchObject({
      syncState: 'synced',
      data: { fixed: true },
    });
  });

  it('discards an item only after the confirmation step, keeping the local record marked discarded', async () => {
    server.script({ kind: 'status', status: 422, code: 'CheckReportParam' });
    const item = await queueCount(1);
    await replayOutbox(options());
    const ticket = await prepareDiscard(db, item.id);
    expect(ticket).toMatchObject({ id: item.id, kind: 'cashCount', summary: { site: 3, terminal: 1 } });
    // Asking is not discarding.
    expect(await findItem(db, item.id)).toBeDefined();

    await confirmDiscard(db, ticket);
    expect(await findItem(db, item.id)).toBeUndefined();
    expect(await db.localRecords.get(['cashCounts', item.id])).toMatchObject({
      syncState: 'discarded',
      outboxId: null,
    });
  });

  it('refuses a confirmation given for an item that was resent since', async () => {
    server.script({ kind: 'status', status: 409, code: 'Conflict' });
    const item = await queueCount(1);
    await replayOutbox(options());
    const ticket = await prepareDiscard(db, item.id);
    await resendItem(db, item.id);
    await expect(confirmDiscard(db, ticket)).rejects.toThrow(/being sent or no longer exists/);
    expect(await findItem(db, item.id)).toBeDefined();
  });

  it('sends oldest first, in the order the writes were queued, when sending one at a time', async () => {
    const items = [];
    for (let n = 1; n <= 6; n++) items.push(await queueCount(n));
    await replayOutbox(options({ concurrency: 1 }));
    expect(server.received.map((r) => r.key)).toEqual(items.map((i) => i.id));
  });

  it('sends different drawers side by side, but a drawer’s count and recounts in the order they were made', async () => {
    // Three drawers, each counted then recounted twice (a new version each time on the server).
    const items = [];
    for (let round = 1; round <= 3; round++) {
      for (const caisse of [1, 2, 3]) items.push(await queueDrawerCount(caisse, round));
    }
    // Every answer takes 40 ms, so sends of one lane would never overlap if the lanes were one.
    server.script(...items.map(() => ({ kind: 'delay' as const, ms: 40 })));
    const result = await replayOutbox(options());
    expect(result).toMatchObject({ sent: 9, refused: 0, stoppedBy: null, remaining: 0 });
    expect(server.rows.size).toBe(9);
    const arrivals = server.received.map((r) => r.body as { caisse: number; round: number });
    for (const caisse of [1, 2, 3]) {
      expect(arrivals.filter((a) => a.caisse === caisse).map((a) => a.round)).toEqual([1, 2, 3]);
    }
    // Side by side: the first three arrivals are the three drawers' first counts.
    expect(new Set(arrivals.slice(0, 3).map((a) => a.caisse))).toEqual(new Set([1, 2, 3]));
    // A recount starts only once the count before it was answered.
    for (const caisse of [1, 2, 3]) {
      const times = server.received
        .filter((r) => (r.body as { caisse: number }).caisse === caisse)
        .map((r) => r.at);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(35);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(35);
    }
  });

  it('keeps a drawer’s later counts back for the next run when one of its sends failed with 5xx', async () => {
    const first = await queueDrawerCount(1, 1);
    const second = await queueDrawerCount(1, 2);
    const other = await queueDrawerCount(2, 1);
    server.failAll = { status: 503, code: 'Unavailable' };
    const failing = await replayOutbox(options({ concurrency: 2, backoff: { ...FAST, retries: 0 } }));
    expect(failing).toMatchObject({ sent: 0, stoppedBy: null, remaining: 3 });
    // The recount of drawer 1 was never sent ahead of its count.
    expect(server.received.some((r) => r.key === second.id)).toBe(false);
    expect(server.received.map((r) => r.key).sort()).toEqual([first.id, other.id].sort());
    server.failAll = null;
    await replayOutbox(options({ ignoreSchedule: true }));
    const order = server.received.map((r) => r.key).filter((k) => k === first.id || k === second.id);
    expect(order.slice(-2)).toEqual([first.id, second.id]);
    expect(server.rows.size).toBe(3);
  });

  it('sends the schema version with every item and never sends an item of an unknown version', async () => {
    const item = await queueCount(1);
    expect(item.schemaVersion).toBe(OUTBOX_SCHEMA_VERSION);
    const old = await queueCount(2);
    await db.outbox.update(old.seq!, { schemaVersion: OUTBOX_SCHEMA_VERSION + 1 });
    await replayOutbox(options());
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({
      key: item.id,
      schemaVersion: String(OUTBOX_SCHEMA_VERSION),
      method: 'POST',
      path: '/api/bo/comptage/caisses',
    });
    expect(await findItem(db, old.id)).toMatchObject({
      state: 'needsAttention',
      reason: 'OutboxSchemaOutdated',
    });
  });

  it('two tabs replaying at once never send the same item twice', async () => {
    const items = [];
    for (let n = 1; n <= 30; n++) items.push(await queueCount(n));
    // A second connection to the same database, as a second tab or the service worker has.
    const otherTab = openDb(db.name);
    server.script(...items.map(() => ({ kind: 'delay' as const, ms: 2 })));
    const runs = await Promise.all([
      replayOutbox(options()),
      replayOutbox(options({ db: otherTab })),
      replayOutbox(options({ db: otherTab })),
    ]);
    // One run held the lock; the others found it taken and did nothing.
    expect(runs.filter((r) => r !== null)).toHaveLength(1);
    expect(server.received.map((r) => r.key)).toEqual(items.map((i) => i.id));
    expect(server.rows.size).toBe(30);
    otherTab.close();
  });

  it('two tabs taking turns (each starting when the other stops) still send each item once', async () => {
    const items = [];
    for (let n = 1; n <= 12; n++) items.push(await queueCount(n));
    const otherTab = openDb(db.name);
    const controller = new AbortController();
    server.script(...items.map(() => ({ kind: 'delay' as const, ms: 5 })));
    const first = replayOutbox(options({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 25);
    await first;
    // The second tab picks up where the first stopped, including an item it left "sending".
    const second = await replayOutbox(options({ db: otherTab }));
    expect(second?.remaining).toBe(0);
    expect(server.rows.size).toBe(12);
    const keys = server.received.map((r) => r.key);
    // An item cut mid-send may arrive twice, under the same key: the server stored it once.
    expect(new Set(keys)).toEqual(new Set(items.map((i) => i.id)));
    otherTab.close();
  });

  it('the context lock (no Web Locks in the browser) lets one replay of this context run at a time', async () => {
    for (let n = 1; n <= 5; n++) await queueCount(n);
    const lock = contextLock();
    const runs = await Promise.all([replayOutbox(options({ lock })), replayOutbox(options({ lock }))]);
    expect(runs.filter((r) => r === null)).toHaveLength(1);
    expect(server.received).toHaveLength(5);
  });

  it('stops on 401 and keeps everything waiting for the next sign-in', async () => {
    const items = [];
    for (let n = 1; n <= 8; n++) items.push(await queueCount(n));
    // The token was revoked: every request meets 401.
    server.failAll = { status: 401, code: 'Unauthorized' };
    const result = await replayOutbox(options());
    expect(result).toMatchObject({ sent: 0, stoppedBy: 'unauthorized', remaining: 8 });
    // Only the sends already in flight when the first 401 came (at most one per worker), none retried.
    expect(server.received.length).toBeGreaterThanOrEqual(1);
    expect(server.received.length).toBeLessThanOrEqual(DEFAULT_REPLAY_CONCURRENCY);
    expect(new Set(server.received.map((r) => r.key)).size).toBe(server.received.length);
    for (const item of items) expect(await findItem(db, item.id)).toMatchObject({ state: 'waiting' });
  });

  it('sends only the signed-in user’s items, with their own login and token', async () => {
    await queueCount(1, 'someone-else');
    const mine = await queueCount(2);
    await replayOutbox(options());
    expect(server.received.map((r) => r.key)).toEqual([mine.id]);
    const auth = server.received[0]!.authorization!;
    expect(Buffer.from(auth.slice(6), 'base64').toString('utf8')).toBe(`${LOGIN}:tok-1`);
    expect(await countOutbox(db, 'someone-else')).toEqual({ waiting: 1, sending: 0, needsAttention: 0 });
    const signedOut = await replayOutbox(options({ credentials: async () => null }));
    expect(signedOut?.stoppedBy).toBe('signedOut');
  });

  it('reads the login and token the session stored, under the session’s own key and format', async () => {
    expect(STORED_SESSION_KEY).toBe(SESSION_KEY);
    expect(STORED_SESSION_FORMAT).toBe(SESSION_FORMAT);
    await set(SESSION_KEY, { format: SESSION_FORMAT, user: { id: 1, login: LOGIN, token: 'tok-9' } });
    expect(await readStoredCredentials()).toEqual({ login: LOGIN, token: 'tok-9' });
    await set(SESSION_KEY, { format: SESSION_FORMAT + 1, user: { login: LOGIN, token: 'x' } });
    expect(await readStoredCredentials()).toBeNull();
  });
});

describe('editing a queued write', () => {
  it('is refused once a send was tried without an answer (it may be stored already), allowed before', async () => {
    const untried = await queueCount(1);
    await resendItem(db, untried.id, { body: { changed: true }, searchParams: { id: '9' } });
    expect(await findItem(db, untried.id)).toMatchObject({
      body: { changed: true },
      searchParams: { id: '9' },
    });

    server.down = true;
    await replayOutbox(options({ backoff: { ...FAST, retries: 0 } }));
    const tried = await findItem(db, untried.id);
    expect(tried).toMatchObject({ state: 'waiting', attempts: 1 });
    await expect(resendItem(db, untried.id, { body: { again: true } })).rejects.toThrow(/being sent/);
    expect((await findItem(db, untried.id))?.idempotencyKey).toBe(tried!.idempotencyKey);
  });
});

describe('when a replay may send', () => {
  it('waits for an item’s backoff delay on a timer run, but not when the network is back or the browser syncs', async () => {
    server.down = true;
    const item = await queueCount(1);
    await replayOutbox(
      options({ backoff: { ...FAST, retries: 0, minDelayMs: 60_000, maxPersistedDelayMs: 60_000 } }),
    );
    expect((await findItem(db, item.id))!.nextAttemptAt).toBeGreaterThan(Date.now() + 30_000);
    server.down = false;

    const timerRun = await replayOutbox(options());
    expect(timerRun).toMatchObject({ sent: 0, remaining: 1 });
    const onlineRun = await replayOutbox(options({ ignoreSchedule: true }));
    expect(onlineRun).toMatchObject({ sent: 1, remaining: 0 });
    expect(server.rows.size).toBe(1);
  });
});

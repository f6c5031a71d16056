/**
 * The outbox under chaos (issue #3 point 4, the unit-level twin of the e2e chaos suite): 200
 * writes queued while a seeded PRNG makes the loopback server refuse connections, answer 500 or
 * 503, commit and then lose its answer, or answer late past the time limit, while replays are cut
 * mid-run (a reload) and resumed from another connection to the database (another tab). At the
 * end the server holds exactly one row per write, with the body that was queued, the outbox is
 * empty and nothing needs attention.
 */
import 'fake-indexeddb/auto';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComptoirDb, openDb } from '../../src/client/lib/outbox/local-database.ts';
import { webLock } from '../../src/client/lib/outbox/lock.ts';
import { countOutbox, queueWrite } from '../../src/client/lib/outbox/queue.ts';
import { replayOutbox } from '../../src/client/lib/outbox/replay.ts';
import { type Behaviour, type OutboxServer, startOutboxServer } from './outbox-server.ts';

const SEED = 20261122;
const WRITES = 200;
const LOGIN = 'gérant';

let server: OutboxServer;
beforeAll(async () => {
  server = await startOutboxServer();
});
afterAll(async () => {
  await server.close();
});

class Rng {
  private readonly g = xoroshiro128plus(SEED);
  float(): number {
    return (this.g.next() >>> 0) / 4_294_967_296;
  }
  int(max: number): number {
    return Math.floor(this.float() * max);
  }
}

describe('outbox under chaos', () => {
  it('delivers 200 writes exactly once through cuts, 5xx, lost answers, delays, reloads and tabs', async () => {
    const rng = new Rng();
    const behaviour = (): Behaviour => {
      const x = rng.float();
      if (x < 0.45) return { kind: 'ok' };
      if (x < 0.55) return { kind: 'status', status: 500, code: 'InternalError' };
      if (x < 0.6) return { kind: 'status', status: 503, code: 'IdempotencyKeyInProgress' };
      if (x < 0.72) return { kind: 'cut' };
      if (x < 0.85) return { kind: 'commitThenCut' };
      if (x < 0.93) return { kind: 'delay', ms: 5 + rng.int(20) };
      return { kind: 'delay', ms: 150 }; // past the time limit: the client gives up, the server commits
    };
    server.script(...Array.from({ length: 4_000 }, behaviour));

    const name = 'outbox-chaos';
    let tab: ComptoirDb = openDb(name);
    const queued: { key: string; body: unknown }[] = [];
    const backoff = {
      minDelayMs: 2,
      maxDelayMs: 10,
      maxPersistedDelayMs: 20,
      retries: 2,
      requestTimeoutMs: 80,
    };
    const credentials = async () => ({ login: LOGIN, token: 't' });

    let rounds = 0;
    while (rounds < 400) {
      rounds += 1;
      // Some writes arrive between replays, as a manager keeps counting.
      if (queued.length < WRITES) {
        const n = Math.min(WRITES - queued.length, 1 + rng.int(12));
        for (let i = 0; i < n; i++) {
          const k = queued.length;
          const body = { caisse: k % 7, countedCents: 100 * k, note: `n°${k}` };
          const item = await queueWrite(tab, {
            kind: 'cashCount',
            lane: 'serial',
            method: 'POST',
            path: 'bo/comptage/save',
            body,
            login: LOGIN,
            summary: { terminal: k % 7 },
            record: { table: 'cashCounts', siteId: 1, fiscalDate: '2026-11-22', data: body },
          });
          queued.push({ key: item.idempotencyKey, body });
        }
      }
      // The network drops now and then for a whole run.
      server.down = rng.float() < 0.15;
      const controller = new AbortController();
      const reload = rng.float() < 0.3;
      if (reload) setTimeout(() => controller.abort(), rng.int(40));
      // Sometimes two tabs try at once; the lock lets one through.
      const other = rng.float() < 0.2 ? openDb(name) : null;
      await Promise.all([
        replayOutbox({
          db: tab,
          lock: webLock(),
          apiBase: server.base,
          credentials,
          backoff,
          signal: controller.signal,
        }),
        other
          ? replayOutbox({ db: other, lock: webLock(), apiBase: server.base, credentials, backoff })
          : Promise.resolve(null),
      ]);
      other?.close();
      if (reload) {
        // The page is gone: the next run is a fresh connection, as after a reload.
        tab.close();
        tab = openDb(name);
      }
      server.down = false;
      const counts = await countOutbox(tab, LOGIN);
      if (queued.length === WRITES && counts.waiting + counts.sending + counts.needsAttention === 0) break;
      // Let persisted backoff delays come due.
      await new Promise((r) => setTimeout(r, 25));
    }

    expect(queued).toHaveLength(WRITES);
    expect(await countOutbox(tab, LOGIN)).toEqual({ waiting: 0, sending: 0, needsAttention: 0 });
    expect(server.rows.size).toBe(WRITES);
    for (const { key, body } of queued) expect(server.rows.get(key)?.body).toEqual(body);
    // Chaos really happened: many more requests than writes.
    expect(server.received.length).toBeGreaterThan(WRITES * 1.3);
    const local = await tab.localRecords.toArray();
    expect(local.filter((r) => r.syncState !== 'synced')).toEqual([]);
    tab.close();
  });
});

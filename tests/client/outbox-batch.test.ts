/**
 * The outbox's batch path (decision record 0024) against the real server and PostgreSQL (a
 * TestApp listening on loopback): several queued writes of different lanes leave in one request
 * to POST bo/outbox/batch, each settled by its own answer as if sent alone; a lane's writes stay
 * in order; a batch whose answer is lost after the server committed is settled by sending its
 * items alone under the same keys (nothing stored twice); a 401 stops the run. A server without
 * the route (tests/client/outbox-server.ts answers it 404) gets every write one by one.
 */
import 'fake-indexeddb/auto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CashCount, CashCountBody } from '../../src/contract/counting.ts';
import { type ComptoirDb, openDb } from '../../src/client/lib/outbox/local-database.ts';
import { webLock } from '../../src/client/lib/outbox/lock.ts';
import { countOutbox, listItems, queueWrite } from '../../src/client/lib/outbox/queue.ts';
import { type ReplayOptions, replayOutbox } from '../../src/client/lib/outbox/replay.ts';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/api.ts';
import { basic, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedCounting } from '../server/counting/seed.ts';
import { startOutboxServer } from './outbox-server.ts';

const DAY = '2026-03-02';
const PASSWORD = 'Correct-Horse1';
const FAST = { minDelayMs: 5, maxDelayMs: 20, retries: 2, requestTimeoutMs: 10_000 };

let t: TestApp;
let apiBase: string;
let paris: number;
let nantes: number;
let manager: { id: number; login: string; token: string };
let dbCount = 0;

beforeAll(async () => {
  t = await createTestApp();
  const seeded = await seedCounting(t);
  paris = seeded.chain.sites.paris;
  nantes = seeded.chain.sites.nantes;
  await t.database.pool.query(
    `INSERT INTO terminals (site_id, terminal_id, libelle) SELECT $1, n, 'Caisse ' || n FROM generate_series(10, 99) AS n`,
    [paris],
  );
  const signIn = await t.app.inject({
    url: '/api/bo/connexion?username=manager',
    headers: { authorization: basic('manager', PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  });
  manager = { id: seeded.manager.id, login: 'manager', token: signIn.json<{ token: string }>().token };
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
});
afterAll(async () => {
  await t.close();
});

/** The paths this run's requests went to, and the fetch that records them (and may lose answers). */
function recordingFetch(loseBatchAnswers = 0) {
  const paths: string[] = [];
  let toLose = loseBatchAnswers;
  const send: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    paths.push(url.pathname.replace('/api/', ''));
    const response = await fetch(input, init);
    if (url.pathname.endsWith('/bo/outbox/batch') && toLose > 0) {
      toLose -= 1;
      await response.text(); // the server answered: everything is committed
      throw new TypeError('fetch failed'); // … and the answer is lost on the way back
    }
    return response;
  };
  return { paths, send };
}

function options(db: ComptoirDb, send: typeof fetch, extra: Partial<ReplayOptions> = {}): ReplayOptions {
  return {
    db,
    lock: webLock(),
    apiBase,
    credentials: async () => ({ login: manager.login, token: manager.token }),
    backoff: FAST,
    ignoreSchedule: true,
    fetch: send,
    ...extra,
  };
}

const body = (caisse: number, comment: string, site = paris): CashCountBody => ({
  site,
  dateFiscale: DAY,
  caisse,
  cash: [{ denominationCents: 500, quantity: 2 }],
  chequesCents: 3000,
  mealVouchersCents: 900,
  cardSlipsCents: null,
  comment,
});

/** Queues a count of drawer `caisse` as the counting screen does (its lane: one drawer, one day). */
function queueCount(db: ComptoirDb, caisse: number, comment: string, site = paris) {
  const count = body(caisse, comment, site);
  return queueWrite(db, {
    kind: 'count',
    lane: `${site}|${DAY}|${caisse}`,
    method: 'POST',
    path: 'bo/comptage/save',
    searchParams: { id: String(manager.id) },
    body: count,
    login: manager.login,
    summary: { site, terminal: caisse },
    record: { table: 'counts', siteId: site, fiscalDate: DAY, data: { ...count } },
  });
}

/** The server's rows whose comment starts with `tag`: comment → versions, in version order. */
async function serverRows(tag: string): Promise<Map<string, number[]>> {
  const { rows } = await t.database.pool.query<{ comment: string; version: number }>(
    'SELECT comment, version FROM cash_counts WHERE comment LIKE $1 ORDER BY terminal_id, version',
    [`${tag}%`],
  );
  const byComment = new Map<string, number[]>();
  for (const r of rows) byComment.set(r.comment, [...(byComment.get(r.comment) ?? []), r.version]);
  return byComment;
}

describe('outbox replay in batches against the real server', () => {
  it('sends queued writes of different drawers in a few requests, each stored once with its own answer', async () => {
    const db = openDb(`outbox-batch-${++dbCount}`);
    const items = [];
    for (let caisse = 10; caisse < 40; caisse++) items.push(await queueCount(db, caisse, `a-${caisse}`));
    const { paths, send } = recordingFetch();

    const result = await replayOutbox(options(db, send, { batchSize: 10 }));
    expect(result).toMatchObject({ sent: 30, refused: 0, stoppedBy: null, remaining: 0 });
    expect(paths).toEqual(Array(3).fill('bo/outbox/batch'));
    const rows = await serverRows('a-');
    expect(rows.size).toBe(30);
    expect([...rows.values()].every((v) => v.length === 1)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    for (const item of items) {
      const record = await db.localRecords.get(['counts', item.id]);
      expect(record).toMatchObject({ syncState: 'synced', outboxId: null, reason: null });
      expect((record!.serverAnswer as CashCount).caisse).toBe((item.body as CashCountBody).caisse);
    }
  });

  it('keeps a refused write for the user beside the accepted ones, and a drawer’s recount after its count', async () => {
    const db = openDb(`outbox-batch-${++dbCount}`);
    await queueCount(db, 40, 'b-first');
    const refused = await queueCount(db, 41, 'b-elsewhere', nantes); // not one of the manager's sites
    await queueCount(db, 42, 'b-other');
    await queueCount(db, 40, 'b-recount');
    const { paths, send } = recordingFetch();

    const result = await replayOutbox(options(db, send));
    expect(result).toMatchObject({ sent: 3, refused: 1, remaining: 0 });
    // The recount waited for its count's answer: a second request, after the batch.
    expect(paths[0]).toBe('bo/outbox/batch');
    expect(paths).toHaveLength(2);
    expect(await listItems(db, manager.login)).toMatchObject([
      { id: refused.id, state: 'needsAttention', reason: 'Forbidden', status: 403 },
    ]);
    expect(await db.localRecords.get(['counts', refused.id])).toMatchObject({
      syncState: 'needsAttention',
      reason: 'Forbidden',
    });
    const { rows } = await t.database.pool.query<{ comment: string; version: number }>(
      'SELECT comment, version FROM cash_counts WHERE site_id = $1 AND terminal_id = 40 ORDER BY version',
      [paris],
    );
    expect(rows).toEqual([
      { comment: 'b-first', version: 1 },
      { comment: 'b-recount', version: 2 },
    ]);
  });

  it('a batch whose answer is lost after the server committed is settled alone under the same keys, nothing twice', async () => {
    const db = openDb(`outbox-batch-${++dbCount}`);
    for (let caisse = 50; caisse < 62; caisse++) await queueCount(db, caisse, `c-${caisse}`);
    const { paths, send } = recordingFetch(1);

    const result = await replayOutbox(options(db, send));
    expect(result).toMatchObject({ sent: 12, refused: 0, stoppedBy: null, remaining: 0 });
    expect(paths.filter((p) => p === 'bo/outbox/batch')).toHaveLength(1);
    expect(paths.filter((p) => p === 'bo/comptage/save')).toHaveLength(12);
    const rows = await serverRows('c-');
    expect(rows.size).toBe(12);
    expect([...rows.values()].every((v) => v.length === 1)).toBe(true);
    expect(await countOutbox(db, manager.login)).toEqual({ waiting: 0, sending: 0, needsAttention: 0 });
  });

  it('a refused token stops the run with every write still waiting', async () => {
    const db = openDb(`outbox-batch-${++dbCount}`);
    for (let caisse = 70; caisse < 75; caisse++) await queueCount(db, caisse, `d-${caisse}`);
    const { send } = recordingFetch();

    const result = await replayOutbox(
      options(db, send, { credentials: async () => ({ login: manager.login, token: 'revoked' }) }),
    );
    expect(result).toMatchObject({ sent: 0, stoppedBy: 'unauthorized', remaining: 5 });
    expect(await countOutbox(db, manager.login)).toEqual({ waiting: 5, sending: 0, needsAttention: 0 });
    expect((await serverRows('d-')).size).toBe(0);

    expect(await replayOutbox(options(db, send))).toMatchObject({ sent: 5, remaining: 0 });
    expect((await serverRows('d-')).size).toBe(5);
  });

  it('a server without the batch route gets the writes one by one, and is not asked again', async () => {
    const old = await startOutboxServer();
    try {
      const db = openDb(`outbox-batch-${++dbCount}`);
      for (let caisse = 80; caisse < 84; caisse++) await queueCount(db, caisse, `e-${caisse}`);
      const run = (): ReplayOptions => ({ ...options(db, fetch), apiBase: old.base });
      expect(await replayOutbox(run())).toMatchObject({ sent: 4, remaining: 0 });
      expect(old.batchCalls).toBe(1);
      expect(old.rows.size).toBe(4);

      for (let caisse = 84; caisse < 88; caisse++) await queueCount(db, caisse, `e-${caisse}`);
      expect(await replayOutbox(run())).toMatchObject({ sent: 4, remaining: 0 });
      expect(old.batchCalls).toBe(1);
      expect(old.rows.size).toBe(8);
    } finally {
      await old.close();
    }
  });
});

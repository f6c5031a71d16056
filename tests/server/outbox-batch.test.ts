/**
 * The batch write route POST bo/outbox/batch (issue #17 "Outbox replay throughput", decision
 * record 0024) on the real app and PostgreSQL: each item runs as if sent alone (its own answer,
 * right, validation and Idempotency-Key), a failing item never fails the others, a replayed
 * batch writes nothing twice, and a batch out of bounds is refused whole. The items of a batch
 * run in one transaction, each in its own savepoint (the second describe): an item that fails
 * after writing is rolled back alone, a key held by a lone request answers 503 for that item,
 * a batch that cannot commit keeps nothing and answers 503, and no request from outside can
 * join a batch's transaction.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CashCount, CashCountBody } from '../../src/contract/counting.ts';
import {
  OUTBOX_BATCH_ITEM_MAX_CHARS,
  OUTBOX_BATCH_MAX_ITEMS,
  type OutboxBatchAnswer,
  type OutboxBatchItem,
} from '../../src/contract/outbox-batch.ts';
import { DAY, PASSWORD, setUpCounting } from './counting/seed.ts';
import { ON_CITUS } from '../helpers/citus.ts';

const ctx = setUpCounting();

beforeAll(async () => {
  // Terminals 10 to 40 of Paris: each test counts its own.
  await ctx.t.database.pool.query(
    `INSERT INTO terminals (site_id, terminal_id, libelle) SELECT $1, n, 'Caisse ' || n FROM generate_series(10, 40) AS n`,
    [ctx.paris],
  );
});

const count = (caisse: number, chequesCents = 3000, site = ctx.paris): CashCountBody => ({
  site,
  dateFiscale: DAY,
  caisse,
  cash: [{ denominationCents: 500, quantity: 2 }],
  chequesCents,
  mealVouchersCents: 900,
  cardSlipsCents: null,
});

/** A cash count as the outbox would send it alone: POST bo/comptage/save?id=<manager>. */
function countItem(body: CashCountBody, key = randomUUID()): OutboxBatchItem {
  return {
    method: 'POST',
    path: 'bo/comptage/save',
    query: { id: String(ctx.manager.id) },
    idempotencyKey: key,
    schemaVersion: 1,
    body,
  };
}

function batch(items: unknown[], headers: Record<string, string> = ctx.manager.headers) {
  return ctx.t.app.inject({ method: 'POST', url: '/api/bo/outbox/batch', headers, payload: { items } });
}

async function rowsOf(caisse: number): Promise<number> {
  const { rows } = await ctx.t.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM cash_counts WHERE site_id = $1 AND terminal_id = $2',
    [ctx.paris, caisse],
  );
  return rows[0]!.n;
}

describe('POST bo/outbox/batch', () => {
  it('answers each item with what it would have answered alone, in order; the same batch again writes nothing', async () => {
    const items = [10, 11, 12, 13, 14].map((caisse) => countItem(count(caisse, 100 * caisse)));
    const first = await batch(items);
    expect(first.statusCode).toBe(200);
    const { answers } = first.json<OutboxBatchAnswer>();
    expect(answers.map((a) => [a.status, a.replayed])).toEqual(items.map(() => [200, false]));
    expect(answers.map((a) => (a.body as CashCount).caisse)).toEqual([10, 11, 12, 13, 14]);
    expect(answers.map((a) => (a.body as CashCount).chequesCents)).toEqual([1000, 1100, 1200, 1300, 1400]);

    const again = await batch(items);
    expect(again.statusCode).toBe(200);
    const replayed = again.json<OutboxBatchAnswer>().answers;
    expect(replayed.map((a) => [a.status, a.replayed])).toEqual(items.map(() => [200, true]));
    expect(replayed.map((a) => a.body)).toEqual(answers.map((a) => a.body));
    for (const caisse of [10, 11, 12, 13, 14]) expect(await rowsOf(caisse)).toBe(1);
  });

  it('a key first sent alone whose answer was lost is answered again from a batch, and the reverse', async () => {
    const key = randomUUID();
    const alone = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/comptage/save?id=${ctx.manager.id}`,
      headers: { ...ctx.manager.headers, 'idempotency-key': key },
      payload: count(15),
    });
    expect(alone.statusCode).toBe(200);
    const [fromBatch] = (await batch([countItem(count(15), key)])).json<OutboxBatchAnswer>().answers;
    expect(fromBatch).toMatchObject({ status: 200, replayed: true, body: alone.json() });

    const batchKey = randomUUID();
    const [batched] = (await batch([countItem(count(16), batchKey)])).json<OutboxBatchAnswer>().answers;
    const aloneAgain = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/comptage/save?id=${ctx.manager.id}`,
      headers: { ...ctx.manager.headers, 'idempotency-key': batchKey },
      payload: count(16),
    });
    expect(aloneAgain.headers['idempotent-replayed']).toBe('true');
    expect(aloneAgain.json()).toEqual(batched!.body);
    expect([await rowsOf(15), await rowsOf(16)]).toEqual([1, 1]);
  });

  it('a key reused with another body is refused beside accepted items, which are kept', async () => {
    const key = randomUUID();
    expect((await batch([countItem(count(17), key)])).statusCode).toBe(200);
    const res = await batch([countItem(count(18)), countItem(count(17, 9999), key), countItem(count(19))]);
    expect(res.statusCode).toBe(200);
    const { answers } = res.json<OutboxBatchAnswer>();
    expect(answers.map((a) => a.status)).toEqual([200, 422, 200]);
    expect(answers[1]!.body).toMatchObject({ code: 'IdempotencyKeyReused' });
    expect([await rowsOf(17), await rowsOf(18), await rowsOf(19)]).toEqual([1, 1, 1]);
  });

  it('each item is checked with its own right, site and validation', async () => {
    const res = await batch([
      countItem(count(20)),
      // bo/updateRule needs CONFIGURATION, which the manager lacks.
      {
        method: 'GET',
        path: 'bo/updateRule',
        query: { id: String(ctx.manager.id), libelle: 'comptageCartes', active: 'true' },
        idempotencyKey: randomUUID(),
      },
      countItem(count(21, 3000, ctx.chain.sites.nantes)), // a site outside the manager's scope
      countItem({ ...count(22), caisse: 2_147_483_648 }), // beyond the column's range
      countItem(count(23)),
    ]);
    expect(res.statusCode).toBe(200);
    const { answers } = res.json<OutboxBatchAnswer>();
    expect(answers.map((a) => a.status)).toEqual([200, 403, 403, 400, 200]);
    expect(answers[1]!.body).toMatchObject({ code: 'Forbidden' });
    expect(answers[3]!.body).toMatchObject({ code: 'BadRequest' });
    expect([await rowsOf(20), await rowsOf(23)]).toEqual([1, 1]);

    const admin = await batch(
      [
        {
          method: 'GET',
          path: 'bo/updateRule',
          query: { id: String(ctx.admin.id), libelle: 'comptageCartes', active: 'false' },
          idempotencyKey: randomUUID(),
        },
      ],
      ctx.admin.headers,
    );
    expect(admin.json<OutboxBatchAnswer>().answers[0]).toMatchObject({ status: 200, replayed: false });
  });

  it('the same key twice in one batch writes once, and both items get its answer', async () => {
    const key = randomUUID();
    const res = await batch([countItem(count(24), key), countItem(count(24), key)]);
    const { answers } = res.json<OutboxBatchAnswer>();
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.filter((a) => a.replayed)).toHaveLength(1);
    expect(answers[0]!.body).toEqual(answers[1]!.body);
    expect(await rowsOf(24)).toBe(1);
  });

  it('a batch out of bounds, naming a route that is not a write, or holding a batch, is refused whole', async () => {
    const tooMany = Array.from({ length: OUTBOX_BATCH_MAX_ITEMS + 1 }, () => countItem(count(25)));
    const big = countItem({ ...count(25), comment: 'x'.repeat(OUTBOX_BATCH_ITEM_MAX_CHARS) });
    const read = { ...countItem(count(25)), method: 'GET', path: 'bo/getSites', body: undefined };
    const nested = {
      ...countItem(count(25)),
      path: 'bo/outbox/batch',
      body: { items: [countItem(count(25))] },
    };
    const signIn = { ...countItem(count(25)), method: 'GET', path: 'bo/connexion', body: undefined };
    const reset = { ...countItem(count(25)), path: 'reinit/reinitPassword' }; // public: no session needed
    const badKey = { ...countItem(count(25)), idempotencyKey: 'not-a-uuid' };
    const cases = [[], tooMany, [countItem(count(25)), big], [read], [nested], [signIn], [reset], [badKey]];
    for (const items of cases) {
      const res = await batch(items);
      expect(res.statusCode, JSON.stringify(items).slice(0, 120)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BadRequest' });
    }
    const keyed = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/bo/outbox/batch',
      headers: { ...ctx.manager.headers, 'idempotency-key': randomUUID() },
      payload: { items: [countItem(count(25))] },
    });
    expect(keyed.statusCode).toBe(400);
    expect(await rowsOf(25)).toBe(0);
  });

  it('needs a session; an item carries the caller’s credentials, never others’', async () => {
    const res = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/bo/outbox/batch',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { items: [countItem(count(26))] },
    });
    expect(res.statusCode).toBe(401);
    expect(await rowsOf(26)).toBe(0);
  });
});

/** Cash counts of the Paris terminals `caisses` on DAY, in that order. */
async function rowsOfEach(...caisses: number[]): Promise<number[]> {
  const counts: number[] = [];
  for (const caisse of caisses) counts.push(await rowsOf(caisse));
  return counts;
}

/**
 * Holds the lock a cash count of terminal `caisse` takes (counting/cash-counts.ts), as another
 * request counting that drawer would, until `release` is called: a write of that drawer waits.
 */
async function holdDrawer(caisse: number): Promise<{ release: () => Promise<void> }> {
  const holder = await ctx.t.database.pool.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [
    `cash_count:${ctx.paris}:${DAY}:${caisse}`,
  ]);
  return {
    async release() {
      await holder.query('COMMIT');
      holder.release();
    },
  };
}

/** Waits until a request waits for an advisory lock (a drawer held by {@link holdDrawer}). */
async function someoneWaitsForALock(): Promise<void> {
  for (;;) {
    const { rows } = await ctx.t.database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
    );
    if (rows[0]!.n > 0) return;
    await sleep(10);
  }
}

/** A cash count sent alone, as the outbox sends it. */
function countAlone(body: CashCountBody, key: string, headers: Record<string, string> = {}) {
  return ctx.t.app.inject({
    method: 'POST',
    url: `/api/bo/comptage/save?id=${ctx.manager.id}`,
    headers: { ...ctx.manager.headers, 'idempotency-key': key, ...headers },
    payload: body,
  });
}

describe('POST bo/outbox/batch: one transaction, a savepoint per item', () => {
  /** SQL that undoes what a test planted in the database (triggers), run after it. */
  const cleanUp: string[] = [];
  /** Undoes, now, what the test planted (runs its clean-up SQL). */
  async function undo(): Promise<void> {
    for (const sql of cleanUp.splice(0)) await triggerDdl(sql);
  }
  afterEach(undo);

  /**
   * Runs `sql`, DDL of a trigger on cash_counts. That table is distributed on a Citus cluster,
   * which creates or drops a trigger on it only when told (the test's own, on the shards): then
   * in one transaction with the setting.
   */
  async function triggerDdl(sql: string): Promise<void> {
    if (!ON_CITUS) {
      await ctx.t.database.pool.query(sql);
      return;
    }
    const client = await ctx.t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL citus.enable_unsafe_triggers = on');
      await client.query(sql);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }

  /** Makes every cash count of terminal `caisse` fail: at its INSERT, or at COMMIT when `atCommit`. */
  async function refuseCountsOf(caisse: number, atCommit = false): Promise<void> {
    const name = `test_refuse_${caisse}`;
    await ctx.t.database.pool.query(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.terminal_id = ${caisse} THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`,
    );
    const trigger = atCommit
      ? `CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT ON cash_counts DEFERRABLE INITIALLY DEFERRED
           FOR EACH ROW EXECUTE FUNCTION ${name}()`
      : `CREATE TRIGGER ${name} AFTER INSERT ON cash_counts FOR EACH ROW EXECUTE FUNCTION ${name}()`;
    await triggerDdl(trigger);
    cleanUp.push(`DROP TRIGGER IF EXISTS ${name} ON cash_counts`, `DROP FUNCTION IF EXISTS ${name}()`);
  }

  it('an item failing after its write is rolled back to its savepoint; the items after it still commit', async () => {
    await refuseCountsOf(28);
    const items = [27, 28, 29].map((caisse) => countItem(count(caisse)));
    const res = await batch(items);
    expect(res.statusCode).toBe(200);
    expect(res.json<OutboxBatchAnswer>().answers.map((a) => a.status)).toEqual([200, 500, 200]);
    expect(await rowsOfEach(27, 28, 29)).toEqual([1, 0, 1]);

    // Its key was not kept: the same batch, once the drawer is accepted, runs it and replays the others.
    await undo();
    const again = (await batch(items)).json<OutboxBatchAnswer>().answers;
    expect(again.map((a) => [a.status, a.replayed])).toEqual([
      [200, true],
      [200, false],
      [200, true],
    ]);
    expect(await rowsOfEach(27, 28, 29)).toEqual([1, 1, 1]);
  });

  it('a batch that cannot commit keeps none of its items and answers 503; its items sent alone then run once', async () => {
    await refuseCountsOf(31, true);
    const items = [30, 31].map((caisse) => countItem(count(caisse)));
    const res = await batch(items);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ code: 'ServerBusy', details: { retryAfterSeconds: 5 } });
    expect(await rowsOfEach(30, 31)).toEqual([0, 0]);

    await undo();
    for (const item of items) {
      const alone = await countAlone(item.body as CashCountBody, item.idempotencyKey);
      expect([alone.statusCode, alone.headers['idempotent-replayed']]).toEqual([200, undefined]);
    }
    expect(await rowsOfEach(30, 31)).toEqual([1, 1]);
  });

  it('an item whose key a lone request holds answers 503 at once, the others commit, and the key is written once', async () => {
    const key = randomUUID();
    const drawer = await holdDrawer(32);
    const lone = countAlone(count(32), key); // holds the key's lock, waits for the drawer
    await someoneWaitsForALock();

    const res = await batch([countItem(count(33)), countItem(count(32), key)]);
    const { answers } = res.json<OutboxBatchAnswer>();
    expect(answers.map((a) => a.status)).toEqual([200, 503]);
    expect(answers[1]).toMatchObject({ body: { code: 'IdempotencyKeyInProgress' }, retryAfterSeconds: 5 });

    await drawer.release();
    const first = await lone;
    expect(first.statusCode).toBe(200);
    const [replayed] = (await batch([countItem(count(32), key)])).json<OutboxBatchAnswer>().answers;
    expect(replayed).toMatchObject({ status: 200, replayed: true, body: first.json() });
    expect(await rowsOfEach(32, 33)).toEqual([1, 1]);
  });

  it('two batches with the same keys at once never both write: each item is written once, then replayed', async () => {
    const items = [34, 35].map((caisse) => countItem(count(caisse)));
    const both = await Promise.all([batch(items), batch(items)]);
    const answers = both.map((res) => res.json<OutboxBatchAnswer>().answers);
    for (const n of [0, 1]) {
      const pair = answers.map((a) => a[n]!);
      for (const a of pair) expect([200, 503]).toContain(a.status);
      expect(pair.filter((a) => a.status === 200 && !a.replayed)).toHaveLength(1);
    }
    const again = (await batch(items)).json<OutboxBatchAnswer>().answers;
    expect(again.map((a) => [a.status, a.replayed])).toEqual([
      [200, true],
      [200, true],
    ]);
    expect(await rowsOfEach(34, 35)).toEqual([1, 1]);
  });

  it('an item whose route writes on its own connections runs alone after the commit, never waiting for it', async () => {
    const id = await ctx.t.createUser({
      login: 'analyste',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [ctx.paris],
    });
    const headers = await ctx.t.signIn('analyste', PASSWORD);
    const favourite = {
      libelle: 'Ventes de la semaine',
      typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
      type: 'Daily',
      lSites: [ctx.paris],
      periode: 'W-1',
      format: 'XLSX',
    };
    const saved = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/bo/favoris/save?id=${id}`,
      headers,
      payload: favourite,
    });
    expect(saved.statusCode).toBe(200);
    const favoriId = saved.json<{ id: number }>().id;
    // The removal runs in the batch's transaction; the save (POST bo/favoris/save writes on the
    // pool) would wait there for the removed row, which the batch holds until it commits.
    const res = await batch(
      [
        {
          method: 'POST',
          path: 'bo/favoris/save',
          query: { id: String(id) },
          idempotencyKey: randomUUID(),
          body: { ...favourite, id: favoriId, libelle: 'Renommé' },
        },
        {
          method: 'GET',
          path: 'bo/favoris/remove',
          query: { id: String(id), favoriId: String(favoriId) },
          idempotencyKey: randomUUID(),
        },
      ],
      headers,
    );
    expect(res.statusCode).toBe(200);
    const { answers } = res.json<OutboxBatchAnswer>();
    expect(answers.map((a) => a.status)).toEqual([404, 200]);
    expect(answers[0]!.body).toMatchObject({ code: 'NotFound' });
  });

  it('a lone request never joins a running batch’s transaction, whatever headers it forges', async () => {
    const drawer = await holdDrawer(37);
    // Terminal 36 is written in the batch's transaction, then the batch waits for drawer 37.
    const running = batch([countItem(count(36)), countItem(count(37))]);
    await someoneWaitsForALock();

    const forged = await countAlone(count(38), randomUUID(), {
      'x-comptoir-schema-version': '1',
      'x-comptoir-batch': 'true',
      'x-outbox-batch': '1',
      'x-batch-transaction': '1',
      'x-forwarded-for': '127.0.0.1',
    });
    expect(forged.statusCode).toBe(200);
    // The lone count committed on its own while the batch's first item is not committed yet.
    expect(await rowsOfEach(36, 38)).toEqual([0, 1]);

    await drawer.release();
    const res = await running;
    expect(res.json<OutboxBatchAnswer>().answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await rowsOfEach(36, 37, 38)).toEqual([1, 1, 1]);
  });
});

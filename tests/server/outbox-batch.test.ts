/**
 * The batch write route POST bo/outbox/batch (issue #17 "Outbox replay throughput", decision
 * record 0024) on the real app and PostgreSQL: each item runs as if sent alone (its own answer,
 * right, validation and Idempotency-Key), a failing item never fails the others, a replayed
 * batch writes nothing twice, and a batch out of bounds is refused whole.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CashCount, CashCountBody } from '../../src/contract/counting.ts';
import {
  OUTBOX_BATCH_ITEM_MAX_CHARS,
  OUTBOX_BATCH_MAX_ITEMS,
  type OutboxBatchAnswer,
  type OutboxBatchItem,
} from '../../src/contract/outbox-batch.ts';
import { DAY, setUpCounting } from './counting/seed.ts';

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

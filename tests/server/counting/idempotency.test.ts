import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CashCount, CashCountBody } from '../../../src/contract/counting.ts';
import { DAY, PASSWORD, setUpCounting } from './seed.ts';

const ctx = setUpCounting();
const STALE_KEY = randomUUID();

beforeAll(async () => {
  // Each test counts its own terminal (10 to 20): Paris gets them, as bo/getCaisses would list them.
  await ctx.t.database.pool.query(
    `INSERT INTO terminals (site_id, terminal_id, libelle) SELECT $1, n, 'Caisse ' || n FROM generate_series(10, 20) AS n`,
    [ctx.paris],
  );
  // A key of eight days ago, which the first stored key of this process purges.
  await ctx.t.database.pool.query(
    `INSERT INTO idempotency_keys (user_id, key, method, path, request_hash, status, body, created_at, expires_at)
     VALUES ($1, $2, 'POST', '/api/bo/comptage/save', 'x', 200, '{}', now() - interval '8 days', now() - interval '1 day')`,
    [ctx.manager.id, STALE_KEY],
  );
});

const count = (caisse: number, chequesCents = 3000): CashCountBody => ({
  site: ctx.paris,
  dateFiscale: DAY,
  caisse,
  cash: [{ denominationCents: 500, quantity: 2 }],
  chequesCents,
  mealVouchersCents: 900,
  cardSlipsCents: null,
});

function save(
  body: CashCountBody,
  key: string | undefined,
  headers = ctx.manager.headers,
  userId = ctx.manager.id,
) {
  return ctx.t.app.inject({
    method: 'POST',
    url: `/api/bo/comptage/save?id=${userId}`,
    headers: key === undefined ? headers : { ...headers, 'idempotency-key': key },
    payload: body,
  });
}

async function rowsOf(caisse: number): Promise<number> {
  const { rows } = await ctx.t.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM cash_counts WHERE site_id = $1 AND terminal_id = $2',
    [ctx.paris, caisse],
  );
  return rows[0]!.n;
}

describe('Idempotency-Key on writes', () => {
  it('a repeat with the same key and body answers the first answer and writes nothing more; expired keys are purged', async () => {
    const key = randomUUID();
    const first = await save(count(10), key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await save(count(10), key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.body).toBe(first.body);
    expect(await rowsOf(10)).toBe(1);
    const stale = await ctx.t.database.pool.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [
      STALE_KEY,
    ]);
    expect(stale.rows).toHaveLength(0);
  });

  it('the same key with another body answers 422 IdempotencyKeyReused and writes nothing', async () => {
    const key = randomUUID();
    expect((await save(count(11), key)).statusCode).toBe(200);
    const other = await save(count(11, 4000), key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'IdempotencyKeyReused' });
    expect(await rowsOf(11)).toBe(1);
  });

  it('the same key with another query answers 422, and the rights guard still answers first', async () => {
    const key = randomUUID();
    expect((await save(count(12), key)).statusCode).toBe(200);
    const res = await ctx.t.app.inject({
      url: `/api/bo/updateRule?id=${ctx.admin.id}&libelle=comptageCartes&active=true`,
      headers: { ...ctx.manager.headers, 'idempotency-key': key },
    });
    // The manager lacks CONFIGURATION: the guard answers first. Same key, same user, other route:
    expect(res.statusCode).toBe(403);
    const onList = await ctx.t.app.inject({
      method: 'POST',
      // Another query (unknown parameters are refused before any key is looked up: 0023; ids are
      // canonical decimal, so `id=0<id>` is refused too: issue #32 C.7). Another user's id is a
      // query the key was not first sent with: 422 before the handler would refuse the id.
      url: `/api/bo/comptage/save?id=${ctx.admin.id}`,
      headers: { ...ctx.manager.headers, 'idempotency-key': key },
      payload: count(12),
    });
    expect(onList.statusCode).toBe(422);
  });

  it('ten concurrent sends of one key write once and all answer the same', async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => save(count(13), key)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await rowsOf(13)).toBe(1);
  });

  it('ten concurrent counts with different keys get versions 1 to 10, never the same twice', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => save(count(14), randomUUID())));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.map((a) => a.json<CashCount>().version).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
  });

  it('a refused write keeps no answer: the same key may be sent again once corrected', async () => {
    const key = randomUUID();
    const refused = await save({ ...count(15), chequesCents: null }, key);
    expect(refused.statusCode).toBe(400);
    expect(
      (await save({ ...count(15), chequesCents: null }, key)).headers['idempotent-replayed'],
    ).toBeUndefined();
    const fixed = await save(count(15), key);
    expect(fixed.statusCode).toBe(200);
    expect(await rowsOf(15)).toBe(1);
  });

  it('keys belong to a user: another user sending the same key makes their own write', async () => {
    const key = randomUUID();
    const other = await ctx.t.createUser({
      login: 'other',
      password: PASSWORD,
      droits: ['COMPTAGE'],
      restaurantIds: [ctx.paris],
    });
    const otherHeaders = await ctx.t.signIn('other', PASSWORD);
    expect((await save(count(16), key)).statusCode).toBe(200);
    const theirs = await save(count(16), key, otherHeaders, other);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json<CashCount>().countedBy.login).toBe('other');
    expect(await rowsOf(16)).toBe(2);
  });

  it('a key past its 7 days counts as new', async () => {
    const key = randomUUID();
    expect((await save(count(17), key)).statusCode).toBe(200);
    const { rows } = await ctx.t.database.pool.query<{ days: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    expect(rows[0]!.days).toBe(7);
    await ctx.t.database.pool.query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`,
      [key],
    );
    const later = await save(count(17), key);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json<CashCount>().version).toBe(2);
  });

  it('a key that is not a UUID is refused', async () => {
    const res = await save(count(18), 'not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(await rowsOf(18)).toBe(0);
  });

  it('a GET that writes honours the key, whatever its cache-busting timestamp', async () => {
    const key = randomUUID();
    const url = (stamp: number) =>
      `/api/bo/updateRule?id=${ctx.admin.id}&libelle=comptageCartes&active=true&site=${ctx.paris}&_=${stamp}`;
    const headers = { ...ctx.admin.headers, 'idempotency-key': key };
    const first = await ctx.t.app.inject({ url: url(1), headers });
    expect(first.statusCode).toBe(200);
    // Someone turns it off in between; the replayed answer is still the first one and changes nothing.
    await ctx.t.app.inject({
      url: `/api/bo/updateRule?id=${ctx.admin.id}&libelle=comptageCartes&active=false&site=${ctx.paris}`,
      headers: ctx.admin.headers,
    });
    const again = await ctx.t.app.inject({ url: url(2), headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    const { rows } = await ctx.t.database.pool.query<{ active: boolean }>(
      `SELECT active FROM counting_rules WHERE site_id = $1 AND libelle = 'comptageCartes'`,
      [ctx.paris],
    );
    expect(rows[0]!.active).toBe(false);
  });

  it('without a key a write simply runs each time', async () => {
    await save(count(19), undefined);
    await save(count(19), undefined);
    expect(await rowsOf(19)).toBe(2);
  });

  it('a write route of another module (POST bo/favoris/save) honours the key too, even sent ten times at once', async () => {
    const id = await ctx.t.createUser({
      login: 'fav',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [ctx.paris],
    });
    const headers = { ...(await ctx.t.signIn('fav', PASSWORD)), 'idempotency-key': randomUUID() };
    const payload = {
      libelle: 'Ventes du jour',
      typeRapport: { className: 'RapportVentes' },
      lSites: [ctx.paris],
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.t.app.inject({ method: 'POST', url: `/api/bo/favoris/save?id=${id}`, headers, payload }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    const list = await ctx.t.app.inject({ url: `/api/bo/favoris?id=${id}`, headers });
    expect(list.body.match(/Ventes du jour/g)).toHaveLength(1);
  });

  it('a repeat sent while the first holds its key waits for it, then answers', async () => {
    const key = randomUUID();
    const holder = await ctx.t.database.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 7))', [
        `idempotency:${ctx.manager.id}:${key}`,
      ]);
      let settled = false;
      const pending = save(count(20), key).then((r) => {
        settled = true;
        return r;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      expect(await rowsOf(20)).toBe(0);
      await holder.query('SELECT pg_advisory_unlock_all()');
      const res = await pending;
      expect(res.statusCode).toBe(200);
      expect(await rowsOf(20)).toBe(1);
    } finally {
      holder.release();
    }
  });
});

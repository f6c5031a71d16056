/**
 * The change feed (src/server/db/changes.ts, migration 0007) and the two caches it keeps true:
 * the session check of every signed-in call and the report's site lookup. Against the real
 * server on PostgreSQL: what the caches save (statements counted on the pool), and that a
 * change made anywhere — this process, another server on the same database, psql — is seen.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { ChangeFeed } from '../../src/server/db/changes.ts';
import { recordDataLoad } from '../../src/server/db/data-loads.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { seedChain, type Chain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

/** Counts the statements sent through `pool.query` while `run` runs, and their texts. */
async function statements(pool: pg.Pool, run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = pool.query;
  // Instrumentation of the pg pool (a library), not a mock: every call still goes to PostgreSQL.
  pool.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text: string };
    seen.push(typeof first === 'string' ? first : first.text);
    return (original as (...a: unknown[]) => unknown).apply(pool, args);
  }) as typeof pool.query;
  try {
    await run();
  } finally {
    pool.query = original;
  }
  return seen;
}

const isSessionCheck = (text: string) => text.includes('FROM sessions s JOIN users u');
const isSiteLookup = (text: string) => text.includes('s.time_zone AS "timeZone"');

describe('change feed and the caches of the per-call reads', () => {
  let t: TestApp;
  let chain: Chain;
  let userId: number;
  let headers: AuthHeaders;
  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    userId = await t.createUser({
      login: 'ines',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris, chain.sites.lyon],
    });
    headers = await t.signIn('ines', PASSWORD);
    await t.app.changes.settled();
  });
  afterAll(async () => {
    await t.close();
  });

  const sites = (h: AuthHeaders = headers) =>
    t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId}`, headers: h });
  const salesUrl = () =>
    `/api/bo/getReport?id=${userId}&rapportClassName=RapportVentes&typeRapport=Daily&format=JSON` +
    `&dateDebut=2026-03-01&dateFin=2026-03-02&sites[]=${chain.sites.paris}&sites[]=${chain.sites.lyon}`;

  it('listens once the server is built', () => {
    expect(t.app.changes.live).toBe(true);
  });

  it('checks a session against the database once, then from the cache', async () => {
    await sites(); // fills the cache if an earlier change emptied it
    const texts = await statements(t.database.pool, async () => {
      for (let i = 0; i < 3; i++) expect((await sites()).statusCode).toBe(200);
    });
    expect(texts.filter(isSessionCheck)).toHaveLength(0);
    expect(texts.length).toBeGreaterThan(0); // the route's own reads still go to the database
  });

  it('reads the sites of a report once, then from the cache', async () => {
    const first = await t.app.inject({ method: 'GET', url: salesUrl(), headers });
    expect(first.statusCode, first.body).toBe(200);
    const texts = await statements(t.database.pool, async () => {
      const res = await t.app.inject({ method: 'GET', url: salesUrl(), headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().sites.map((s: { libelle: string }) => s.libelle)).toEqual(['Paris', 'Lyon']);
    });
    expect(texts.filter(isSiteLookup)).toHaveLength(0);
  });

  it('sees a site renamed behind its back (psql, another process) once the change arrives', async () => {
    await t.database.pool.query(`UPDATE sites SET libelle = 'Paris Opéra' WHERE id = $1`, [
      chain.sites.paris,
    ]);
    await t.app.changes.settled();
    const res = await t.app.inject({ method: 'GET', url: salesUrl(), headers });
    expect(res.json().sites.map((s: { libelle: string }) => s.libelle)).toEqual(['Paris Opéra', 'Lyon']);
    await t.database.pool.query(`UPDATE sites SET libelle = 'Paris' WHERE id = $1`, [chain.sites.paris]);
    await t.app.changes.settled();
  });

  it('applies a right taken away in the database to the next call', async () => {
    const other = await t.createUser({
      login: 'hugo',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    const h = await t.signIn('hugo', PASSWORD);
    const url = `/api/bo/getReport?id=${other}&rapportClassName=RapportVentes&typeRapport=Daily&format=JSON&dateDebut=2026-03-01&dateFin=2026-03-02`;
    expect((await t.app.inject({ method: 'GET', url, headers: h })).statusCode).toBe(200);
    await t.database.pool.query(`UPDATE profiles SET droits = '{}' WHERE titre = 'profile-hugo'`);
    await t.app.changes.settled();
    const res = await t.app.inject({ method: 'GET', url, headers: h });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'Forbidden' });
  });

  it('applies a scope narrowed in the database to the next call', async () => {
    const other = await t.createUser({
      login: 'lea',
      password: PASSWORD,
      droits: [],
      restaurantIds: [chain.sites.paris, chain.sites.nantes],
    });
    const h = await t.signIn('lea', PASSWORD);
    const ids = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${other}`, headers: h }))
        .json()
        .map((s: { restaurantId: number }) => s.restaurantId)
        .sort();
    expect(await ids()).toEqual([chain.sites.paris, chain.sites.nantes].sort());
    await t.database.pool.query(`UPDATE profiles SET restaurant_ids = $1 WHERE titre = 'profile-lea'`, [
      [chain.sites.nantes],
    ]);
    await t.app.changes.settled();
    expect(await ids()).toEqual([chain.sites.nantes]);
  });

  it('refuses a token at once after its sign-out, and one shortened to the past in the database', async () => {
    const h = await t.signIn('ines', PASSWORD);
    expect((await sites(h)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'GET', url: '/api/bo/logout', headers: h });
    expect(out.statusCode).toBe(204);
    // No wait for the feed: the logout dropped the token from this server's cache itself.
    expect((await sites(h)).statusCode).toBe(401);

    const h2 = await t.signIn('ines', PASSWORD);
    expect((await sites(h2)).statusCode).toBe(200);
    await t.database.pool.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [userId],
    );
    await t.app.changes.settled();
    expect((await sites(h2)).statusCode).toBe(401);
    headers = await t.signIn('ines', PASSWORD);
  });

  it('keeps a second server on the same database true: a sign-out on one stops the token on the other', async () => {
    const config = loadConfig({ COMPTOIR_DEMO: '0', LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-unused' });
    const second = await buildApp({ config, database: t.database });
    try {
      await second.ready();
      const h = await t.signIn('ines', PASSWORD);
      const onSecond = () =>
        second.inject({ method: 'GET', url: `/api/bo/getSites?id=${userId}`, headers: h });
      expect((await onSecond()).statusCode).toBe(200);
      expect((await onSecond()).statusCode).toBe(200); // now from the second server's cache
      expect((await t.app.inject({ method: 'GET', url: '/api/bo/logout', headers: h })).statusCode).toBe(204);
      await second.changes.settled();
      expect((await onSecond()).statusCode).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('does not store a value read while a change to its tables arrived', async () => {
    const feed = new ChangeFeed(t.database.pool.options);
    await feed.start();
    try {
      const cache = feed.cache<string>(['sites']);
      const value = await cache.get('k', async () => {
        await t.database.pool.query(`UPDATE sites SET extras = extras WHERE id = $1`, [chain.sites.lille]);
        await feed.settled(); // the change reached the cache while this read was under way
        return 'read before the change';
      });
      expect(value).toBe('read before the change');
      expect(cache.size).toBe(0);
      expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
      expect(cache.size).toBe(1);
      // A change to a table the cache does not read leaves it alone.
      await t.database.pool.query(`UPDATE groups SET raison_sociale = raison_sociale`);
      await t.database.pool.query(`UPDATE users SET login = login WHERE id = $1`, [userId]);
      await feed.settled();
      expect(cache.size).toBe(1);
    } finally {
      await feed.close();
    }
  });

  it('hears a load of sales recorded by a loader (data_loads: distributed on a cluster)', async () => {
    // On Citus the table's shards are on the workers, whose triggers cannot notify: the loader's
    // own notification (recordDataLoad → notifyChanged, decision 0046) is what empties the cache.
    const feed = new ChangeFeed(t.database.pool.options);
    await feed.start();
    try {
      const cache = feed.cache<string>(['data_loads']);
      expect(await cache.get('k', async () => 'before')).toBe('before');
      expect(await cache.get('k', async () => 'stale')).toBe('before');
      const client = await t.database.pool.connect();
      try {
        await client.query('BEGIN');
        await recordDataLoad(client, {
          siteId: chain.sites.paris,
          source: 'file:feed.csv',
          firstFiscalDate: null,
          lastFiscalDate: null,
          tickets: 0,
        });
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      await feed.settled();
      expect(await cache.get('k', async () => 'after')).toBe('after');
    } finally {
      await feed.close();
    }
  });

  it('serves nothing from the cache while the feed is lost, and listens again afterwards', async () => {
    const feed = new ChangeFeed(t.database.pool.options, () => {}, { reconnectAfterMs: 50 });
    await feed.start();
    try {
      const cache = feed.cache<number>(['sites']);
      expect(await cache.get('k', async () => 1)).toBe(1);
      expect(await cache.get('k', async () => 2)).toBe(1);
      // The listening connection is killed from another session, as a restart of PostgreSQL would.
      const pid = feed.backendPid;
      expect(pid).toBeTypeOf('number');
      await t.database.pool.query('SELECT pg_terminate_backend($1::int)', [pid]);
      await expect.poll(() => feed.live).toBe(false);
      expect(await cache.get('k', async () => 3)).toBe(3); // read, not stored
      expect(cache.size).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 60));
      await cache.get('k', async () => 4); // the next call after reconnectAfterMs reconnects
      await expect.poll(() => feed.live).toBe(true);
      expect(await cache.get('j', async () => 5)).toBe(5);
      expect(await cache.get('j', async () => 6)).toBe(5);
    } finally {
      await feed.close();
    }
  });

  it('answers every call when the feed cannot connect, reading each time', async () => {
    // Nothing listens on port 1: refused at once, whichever PostgreSQL the suite runs on (a
    // connection string would override a wrong user or password given beside it).
    const problems: string[] = [];
    const feed = new ChangeFeed({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 5_000 }, (m) =>
      problems.push(m),
    );
    await feed.start();
    expect(feed.live).toBe(false);
    const cache = feed.cache<number>(['sites']);
    expect(await cache.get('k', async () => 1)).toBe(1);
    expect(await cache.get('k', async () => 2)).toBe(2);
    await feed.settled(); // resolves at once when the feed is down
    await feed.close();
    expect(problems).toEqual(['change feed: cannot listen, caches stay off']);
  });
});

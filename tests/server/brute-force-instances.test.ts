/**
 * The sign-in counters live in PostgreSQL (issue #17 item 4, decision record 0020): two server
 * instances on one database share them, counting at once loses no failure, and a restart keeps
 * a lock.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { type Database, openDatabase } from '../../src/server/db/connect.ts';
import { basic, createTestApp, type TestApp } from '../helpers/app.ts';

const XRW = { 'x-requested-with': 'XMLHttpRequest' };
const PASSWORD = 'Correct-Horse1';

describe('two instances on one database', () => {
  let t: TestApp;
  let secondDatabase: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;

  /** Another server on the database of `t`, opened the way main.ts opens it (DATABASE_URL). */
  async function anotherInstance(): Promise<FastifyInstance> {
    const app = await buildApp({ config: t.config, database: secondDatabase });
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    t = await createTestApp();
    secondDatabase = await openDatabase({
      databaseUrl: t.database.url,
      dataDir: '/tmp/comptoir-test-unused',
    });
    a = t.app;
    b = await anotherInstance();
    for (const login of ['paul', 'race', 'rita'])
      await t.createUser({ login, password: PASSWORD, droits: [] });
  });
  afterAll(async () => {
    await b.close();
    await secondDatabase.close();
    await t.close();
  });

  const attempt = (app: FastifyInstance, login: string, secret: string) =>
    app.inject({
      method: 'GET',
      url: `/api/bo/connexion?username=${login}`,
      headers: { ...XRW, authorization: basic(login, secret) },
      remoteAddress: '10.0.0.2',
    });

  it('failures through A then B lock the account on both', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt(a, 'paul', `Wrong-Pass${i}!`)).statusCode).toBe(401);
    for (let i = 3; i < 5; i++) expect((await attempt(b, 'paul', `Wrong-Pass${i}!`)).statusCode).toBe(401);
    expect((await attempt(a, 'paul', PASSWORD)).statusCode).toBe(429);
    expect((await attempt(b, 'paul', PASSWORD)).statusCode).toBe(429);
  });

  it('loses no failure when both count at the same time', async () => {
    const tries = [a, b, a, b].map((app, i) => attempt(app, 'race', `Wrong-Pass${i}!`));
    expect((await Promise.all(tries)).map((r) => r.statusCode)).toEqual([401, 401, 401, 401]);
    const { rows } = await t.database.pool.query(
      `SELECT failures FROM auth_throttle WHERE scope = 'account' AND subject = 'race'`,
    );
    expect(rows).toEqual([{ failures: 4 }]);
    expect((await attempt(b, 'race', 'Wrong-Pass9!')).statusCode).toBe(401); // the fifth locks
    expect((await attempt(a, 'race', PASSWORD)).statusCode).toBe(429);
  });

  it('keeps the lock across a restart', async () => {
    for (let i = 0; i < 5; i++) await attempt(b, 'rita', `Wrong-Pass${i}!`);
    await b.close();
    b = await anotherInstance(); // a fresh process' memory: nothing but the database remembers
    expect((await attempt(b, 'rita', PASSWORD)).statusCode).toBe(429);
  });
});

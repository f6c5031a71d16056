/**
 * A fresh database for one test file, cloned from the migrated template of the run's
 * PostgreSQL server (tests/setup/postgres.ts). Real PostgreSQL, never a mock.
 */
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Database } from '../../src/server/db/connect.ts';
import * as schema from '../../src/server/db/schema.ts';
import { TEMPLATE_DB, withDatabase } from '../setup/postgres.ts';
import { createCitusDatabase, dropCitusDatabase, ON_CITUS } from './citus.ts';

/** Connection settings of database `name` on the test server. */
export function testConnection(name: string): pg.PoolConfig {
  const admin = inject('pgAdmin');
  return admin.connectionString
    ? { connectionString: withDatabase(admin.connectionString, name) }
    : { ...admin, database: name };
}

/**
 * A database of the test server as {@link createTestDatabase} opens it: the server's
 * {@link Database}, its `name`, `connection` settings and `url`.
 */
export type TestDatabase = Database & { name: string; connection: pg.PoolConfig; url: string };

/**
 * Creates a new database from the template and opens it. `close()` drops it.
 * @returns a {@link Database} like the server's own, plus the database `name` and its `url`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const connection = testConnection(name);
  if (ON_CITUS) {
    // Citus takes no template but template1: the database is built anew (tests/helpers/citus.ts).
    await createCitusDatabase(inject('pgAdmin'), name, String(connection.connectionString));
  } else {
    const admin = new pg.Client(inject('pgAdmin'));
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
    await admin.end();
  }
  const pool = new pg.Pool({ ...connection, max: 8 });
  const url =
    connection.connectionString ??
    `postgresql://${connection.user}:${encodeURIComponent(String(connection.password))}@${encodeURIComponent(String(connection.host))}:${connection.port}/${name}`;
  return {
    name,
    connection,
    url,
    pool,
    db: drizzle(pool, { schema }),
    async close() {
      await pool.end();
      const a = new pg.Client(inject('pgAdmin'));
      await a.connect();
      // pool.end() resolves before its connections have closed; dropping WITH (FORCE) at once
      // kills them mid-close and their client raises an uncaught FATAL. Wait (briefly) for them.
      for (let i = 0; i < 50; i++) {
        const { rows } = await a.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      if (ON_CITUS) {
        await a.end();
        await dropCitusDatabase(inject('pgAdmin'), name);
        return;
      }
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** What {@link setUpFixtureDatabase} hands a test file: the `database` and whatever its loader returned. */
export type FixtureDatabase<T extends object> = { database: TestDatabase } & T;

/**
 * The set-up of a test file that reads one fixture: before the file's tests (vitest `beforeAll`),
 * a fresh database ({@link createTestDatabase}) with `load` run on it; after them (`afterAll`),
 * the database closed and dropped. Call it at the top level of the file.
 * @param load writes the fixture and returns what the tests need of it, as an object
 *   (e.g. `loadFixture`, or `async (db) => ({ tickets: await loadChain(db) })`).
 * @returns one object that the `beforeAll` fills with `database` and the fields `load` returned:
 *   read them inside tests and hooks, never at the top level (they are unset until then).
 *   A failing `load` fails the file's tests; the database is still dropped.
 */
export function setUpFixtureDatabase<T extends object>(
  load: (database: TestDatabase) => Promise<T>,
): FixtureDatabase<T> {
  const fixture = {} as FixtureDatabase<T>;
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    Object.assign(fixture, await load(fixture.database));
  });
  afterAll(async () => {
    await fixture.database?.close();
  });
  return fixture;
}

/**
 * Vitest global setup: one PostgreSQL server per test run (DESIGN.md §9). By default the
 * embedded server on a fresh temporary folder; with TEST_DATABASE_URL (CI's Debian PostgreSQL)
 * that server instead. A template database `comptoir_template` holds the migrated schema; each
 * test file clones it (tests/helpers/db.ts), so files never see each other's rows.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from '../../src/server/db/connect.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection to the server's maintenance database (`postgres`), as a pg PoolConfig. */
    pgAdmin: pg.PoolConfig;
  }
}

export const TEMPLATE_DB = 'comptoir_template';

export default async function setup(project: TestProject) {
  let admin: pg.PoolConfig;
  let stop = async () => {};
  let dir: string | undefined;
  if (process.env.TEST_DATABASE_URL) {
    admin = { connectionString: process.env.TEST_DATABASE_URL };
  } else {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-'));
    await fs.chmod(dir, 0o755);
    const server = await startEmbeddedPostgres(dir);
    admin = server.connection;
    stop = server.stop;
  }
  const client = new pg.Client(admin);
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await client.end();
  const pool = new pg.Pool({
    ...admin,
    database: TEMPLATE_DB,
    connectionString: undefined,
    ...(admin.connectionString
      ? { connectionString: withDatabase(admin.connectionString, TEMPLATE_DB) }
      : {}),
  });
  await migrateDatabase(pool);
  await pool.end();
  project.provide('pgAdmin', admin);
  return async () => {
    await stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  };
}

/** `url` with its database name replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

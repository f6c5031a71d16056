/**
 * One database operation at a time across two server instances on one database (issue #30,
 * decision 0039 of 2026-12-07, database/operation-lock.ts): while instance A's backup runs,
 * instance B refuses a backup and a reindex (409 DatabaseBusy), and B's start does not mark A's
 * run as interrupted; once A's ended, B runs its own. A's backup is held under way, with no
 * timing, by a test transaction holding an ACCESS EXCLUSIVE lock on a table the dump must read.
 * Real apps, real PostgreSQL, real pg_dump.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/constants.ts';
import type { DatabaseRun, DatabaseStatus } from '../../src/contract/database.ts';
import { buildApp } from '../../src/server/app.ts';
import * as schema from '../../src/server/db/schema.ts';
import { type AuthHeaders, basic, createTestApp, type TestApp } from '../helpers/app.ts';

const PASSWORD = 'Secret-pass-1';

let a: TestApp;
let b: FastifyInstance;
let bPool: pg.Pool;
let dataDir: string;
let adminId: number;
let onA: AuthHeaders;
let onB: AuthHeaders;
/** Holds `losses` locked while it is in a transaction: a backup cannot read it meanwhile. */
let blocker: pg.Client;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'comptoir-db-lock-'));
  a = await createTestApp({ config: { dataDir } });
  a.database.pool.on('error', () => {});
  adminId = await a.createUser({ login: 'dba', password: PASSWORD, droits: ['ACCES_BASE'], allSites: true });
  onA = await a.signIn('dba', PASSWORD);
  blocker = new pg.Client(a.database.connection);
  await blocker.connect();
}, 60_000);

afterAll(async () => {
  await blocker.end().catch(() => {});
  await b?.close();
  await bPool?.end();
  await a.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The second instance: its own pool on the same database, built and started as the first. */
async function startInstanceB(): Promise<FastifyInstance> {
  bPool = new pg.Pool({ ...a.database.connection, max: 4 });
  bPool.on('error', () => {});
  const app = await buildApp({
    config: a.config,
    database: { pool: bPool, db: drizzle(bPool, { schema }), close: () => bPool.end() },
  });
  await app.ready();
  return app;
}

/** Signs `dba` in on `app` (bo/connexion), as a browser of that instance would. */
async function signInOn(app: FastifyInstance): Promise<AuthHeaders> {
  const res = await app.inject({
    method: 'GET',
    url: '/api/bo/connexion?username=dba',
    headers: { authorization: basic('dba', PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  });
  expect(res.statusCode, res.body).toBe(200);
  return {
    authorization: basic('dba', res.json<{ token: string }>().token),
    [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
  };
}

function call(app: FastifyInstance, headers: AuthHeaders, url: string) {
  return app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}id=${adminId}`, headers });
}

/** The run `runId` as bo/database/status shows it on `app`. */
async function runOn(app: FastifyInstance, headers: AuthHeaders, runId: string): Promise<DatabaseRun> {
  const res = await call(app, headers, '/api/bo/database/status');
  expect(res.statusCode, res.body).toBe(200);
  const run = res.json<DatabaseStatus>().runs.find((r) => r.id === runId);
  if (!run) throw new Error(`run ${runId} not listed`);
  return run;
}

/** Follows run `runId` on `app` until it ended, as the screen does. */
async function ended(app: FastifyInstance, headers: AuthHeaders, runId: string): Promise<DatabaseRun> {
  for (;;) {
    const run = await runOn(app, headers, runId);
    if (run.status === 'succeeded' || run.status === 'failed') return run;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('two instances on one database', () => {
  it('refuses a second operation on the other instance while one runs, then runs it', async () => {
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE losses IN ACCESS EXCLUSIVE MODE');
    const first = await call(a.app, onA, '/api/bo/backupDataBase?dest=a.backup');
    expect(first.statusCode, first.body).toBe(200);
    const runA = first.json<{ runId: string }>().runId;

    // B starts while A's backup is held under way: A's run is not marked interrupted.
    b = await startInstanceB();
    onB = await signInOn(b);
    expect((await runOn(b, onB, runA)).status).not.toBe('failed');

    for (const url of ['/api/bo/backupDataBase?dest=b.backup', '/api/bo/reindexationDataBase']) {
      const res = await call(b, onB, url);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'DatabaseBusy' });
    }
    // And on A itself, as before.
    expect((await call(a.app, onA, '/api/bo/backupDataBase?dest=a2.backup')).statusCode).toBe(409);

    await blocker.query('COMMIT');
    expect(await ended(a.app, onA, runA)).toMatchObject({ status: 'succeeded', path: 'a.backup' });

    const second = await call(b, onB, '/api/bo/backupDataBase?dest=b.backup');
    expect(second.statusCode, second.body).toBe(200);
    expect(await ended(b, onB, second.json<{ runId: string }>().runId)).toMatchObject({
      status: 'succeeded',
      path: 'b.backup',
    });
  });
});

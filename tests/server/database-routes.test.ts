/**
 * The database operations' calls (issue #30): backup, list, reindex, restore and drop of the
 * previous database through HTTP, followed through bo/database/status as the screen does; path
 * refusals; right ACCES_BASE; the switch ends the sessions (sign in again).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseRun, DatabaseStatus } from '../../src/contract/database.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let dataDir: string;
let admin: AuthHeaders;
let adminId: number;
let other: AuthHeaders;
let otherId: number;
const PASSWORD = 'Secret-pass-1';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'comptoir-db-routes-'));
  t = await createTestApp({ config: { dataDir } });
  // As the server's pool (db/connect.ts): the switch ends idle connections, the pool replaces them.
  t.database.pool.on('error', () => {});
  adminId = await t.createUser({ login: 'dba', password: PASSWORD, droits: ['ACCES_BASE'], allSites: true });
  otherId = await t.createUser({ login: 'nodba', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
  admin = await t.signIn('dba', PASSWORD);
  other = await t.signIn('nodba', PASSWORD);
}, 60_000);

afterAll(async () => {
  const status = await call('GET', '/api/bo/database/status');
  for (const p of status.json<DatabaseStatus>().previous) {
    await call('POST', `/api/bo/database/dropPrevious?name=${p.name}`, {});
  }
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

function call(method: 'GET' | 'POST', url: string, body?: unknown, headers: AuthHeaders = admin) {
  const sep = url.includes('?') ? '&' : '?';
  const id = headers === other ? otherId : adminId;
  return t.app.inject({
    method,
    url: `${url}${sep}id=${id}`,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

/** Follows run `runId` through bo/database/status until it ended, as the screen does. */
async function ended(runId: string): Promise<DatabaseRun> {
  for (;;) {
    const res = await call('GET', '/api/bo/database/status');
    if (res.statusCode === 401) admin = await t.signIn('dba', PASSWORD); // after a switch
    if (res.statusCode === 200) {
      const run = res.json<DatabaseStatus>().runs.find((r) => r.id === runId);
      if (run && (run.status === 'succeeded' || run.status === 'failed')) return run;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('database calls', () => {
  it('refuses callers without ACCES_BASE', async () => {
    for (const url of [
      '/api/bo/database/status',
      '/api/bo/getBackupFiles',
      '/api/bo/backupDataBase?dest=x.backup',
    ]) {
      expect((await call('GET', url, undefined, other)).statusCode).toBe(403);
    }
  });

  it('refuses bad paths with their reason', async () => {
    const cases: [string, string][] = [
      ['../x.backup', 'parent'],
      ['/etc/x.backup', 'absolute'],
      ['x.sql', 'extension'],
    ];
    for (const [dest, reason] of cases) {
      const res = await call('GET', `/api/bo/backupDataBase?dest=${encodeURIComponent(dest)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BackupPathRefused', details: { reason } });
    }
    const restore = await call('GET', '/api/bo/restoreDataBase?src=none.backup');
    expect(restore.statusCode).toBe(404);
    expect((await call('GET', '/api/bo/getBackupFiles?src=..')).json()).toMatchObject({
      code: 'BackupPathRefused',
    });
  });

  it('backs up, lists, reindexes, restores and drops the previous database', async () => {
    const start = await call('GET', '/api/bo/backupDataBase?dest=manual%2Fb1.backup');
    expect(start.statusCode).toBe(200);
    const backup = await ended(start.json<{ runId: string }>().runId);
    expect(backup).toMatchObject({ kind: 'database.backup', status: 'succeeded', path: 'manual/b1.backup' });
    const files = (await call('GET', '/api/bo/getBackupFiles')).json<{ files: { path: string }[] }>().files;
    expect(files.map((f) => f.path)).toEqual(['manual/b1.backup']);

    const reindex = await ended(
      (await call('GET', '/api/bo/reindexationDataBase')).json<{ runId: string }>().runId,
    );
    expect(reindex.status).toBe('succeeded');
    expect(reindex.ms).toBeGreaterThanOrEqual(0);

    // A user created after the backup is gone once it is restored.
    await t.createUser({ login: 'later', password: PASSWORD, droits: [], allSites: true });
    const restoreStart = await call('GET', '/api/bo/restoreDataBase?src=manual%2Fb1.backup');
    expect(restoreStart.statusCode).toBe(200);
    const restore = await ended(restoreStart.json<{ runId: string }>().runId);
    expect(restore).toMatchObject({ kind: 'database.restore', status: 'succeeded', step: 'done' });
    // Sessions ended by the switch: the old token is refused, signing in again works.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/bo/database/status?id=${adminId}`, headers: other }))
        .statusCode,
    ).toBe(401);
    const { rows } = await t.database.pool.query(
      "SELECT count(*)::int AS n FROM users WHERE login = 'later'",
    );
    expect(rows[0].n).toBe(0);
    const status = (await call('GET', '/api/bo/database/status')).json<DatabaseStatus>();
    expect(status.previous).toHaveLength(1);
    expect(status.runs.map((r) => r.kind)).toContain('database.restore');
    const { rows: audit } = await t.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'database.restore'",
    );
    expect(audit[0].n).toBe(1);

    const drop = await call('POST', `/api/bo/database/dropPrevious?name=${status.previous[0]!.name}`, {});
    expect(drop.statusCode).toBe(200);
    expect((await call('GET', '/api/bo/database/status')).json<DatabaseStatus>().previous).toEqual([]);
    const unknown = await call('POST', '/api/bo/database/dropPrevious?name=postgres', {});
    expect(unknown.json()).toEqual({ name: 'postgres', dropped: false });
  }, 120_000);
});

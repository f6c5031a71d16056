/**
 * Without pg_dump / pg_restore (COMPTOIR_PG_BIN names a folder without them): backup and restore
 * answer 500 PgToolsMissing naming the package to install, the status says the same, and the
 * rest of the app answers (issue #30).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseStatus } from '../../src/contract/database.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let dataDir: string;
let headers: AuthHeaders;
let id: number;

beforeAll(async () => {
  // Read once per process at first use (database/tools.ts): set before any call.
  process.env.COMPTOIR_PG_BIN = '/nonexistent-pg-bin';
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'comptoir-no-tools-'));
  t = await createTestApp({ config: { dataDir } });
  id = await t.createUser({
    login: 'dba',
    password: 'Secret-pass-1',
    droits: ['ACCES_BASE'],
    allSites: true,
  });
  headers = await t.signIn('dba', 'Secret-pass-1');
});

afterAll(async () => {
  delete process.env.COMPTOIR_PG_BIN;
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('says what to install, and the rest runs', async () => {
  for (const url of [
    `/api/bo/backupDataBase?id=${id}&dest=a.backup`,
    `/api/bo/restoreDataBase?id=${id}&src=a.backup`,
  ]) {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({
      code: 'PgToolsMissing',
      details: { install: 'postgresql-client-15' },
    });
  }
  const status = await t.app.inject({ method: 'GET', url: `/api/bo/database/status?id=${id}`, headers });
  expect(status.json<DatabaseStatus>()).toMatchObject({
    toolsVersion: null,
    install: 'postgresql-client-15',
  });
  const reindex = await t.app.inject({
    method: 'GET',
    url: `/api/bo/reindexationDataBase?id=${id}`,
    headers,
  });
  expect(reindex.statusCode).toBe(200);
  const files = await t.app.inject({ method: 'GET', url: `/api/bo/getBackupFiles?id=${id}`, headers });
  expect(files.json()).toEqual({ files: [] });
});

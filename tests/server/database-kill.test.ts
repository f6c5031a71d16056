/**
 * kill -9 of a server during a backup and during a restore (issue #30): the earlier backups and
 * the running database are intact, and once a server starts again (what the app does when ready:
 * failInterruptedRuns, dropAbandonedRestores) the interrupted run shows failed and no
 * half-restored database is left.
 */
import { fork } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backupDatabase, sha256Of } from '../../src/server/database/backup.ts';
import { listBackups } from '../../src/server/database/files.ts';
import { tableStats } from '../../src/server/database/manifest.ts';
import { dropAbandonedRestores, previousDatabases } from '../../src/server/database/restore.ts';
import { failInterruptedRuns, INTERRUPTED, latestRuns } from '../../src/server/database/operations.ts';
import { findPgTools } from '../../src/server/database/tools.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let database: TestDatabase;
let folder: string;

beforeAll(async () => {
  database = await createTestDatabase();
  database.pool.on('error', () => {});
  await generateDemoChain(database.pool, { seed: 20261207, now: new Date('2026-03-18T14:37:00Z'), days: 21 });
  folder = await mkdtemp(path.join(os.tmpdir(), 'comptoir-kill-'));
  await backupDatabase(database.pool, { folder, dest: 'earlier.backup', tools: (await findPgTools())! });
}, 240_000);

afterAll(async () => {
  await database.close();
  await rm(folder, { recursive: true, force: true });
});

/** Runs the child in `mode` on `file` and kills it (SIGKILL) when its long step begins. */
async function killDuring(mode: 'backup' | 'restore', file: string): Promise<void> {
  const child = fork(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'database-kill-child.ts'),
    [JSON.stringify(database.connection), folder, mode, file],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const step = await new Promise<string>((resolve) => child.on('message', (m) => resolve(String(m))));
  child.kill('SIGKILL');
  await exited;
  expect(step).toBe(mode === 'backup' ? 'dump' : 'restore');
}

it('a killed backup or restore leaves earlier backups and the running data intact, and shows failed', async () => {
  const earlier = path.join(folder, 'earlier.backup');
  const earlierSha = await sha256Of(earlier);
  const earlierManifest = await readFile(`${earlier}.json`, 'utf8');
  const before = await tableStats(database.pool);

  await killDuring('backup', 'killed.backup');
  await killDuring('restore', 'earlier.backup');

  // The next start.
  expect(await failInterruptedRuns(database.pool)).toBe(2);
  await dropAbandonedRestores(database.pool);

  const runs = await latestRuns(database.pool);
  expect(runs.map((r) => [r.kind, r.status, r.error])).toEqual([
    ['database.restore', 'failed', INTERRUPTED],
    ['database.backup', 'failed', INTERRUPTED],
  ]);
  expect(await sha256Of(earlier)).toBe(earlierSha);
  expect(await readFile(`${earlier}.json`, 'utf8')).toBe(earlierManifest);
  expect((await listBackups(folder)).map((f) => f.path)).toEqual(['earlier.backup']);
  expect(await readdir(folder)).not.toContain('killed.backup');
  const after = await tableStats(database.pool);
  expect({ ...after, 'public.job_runs': null }).toEqual({ ...before, 'public.job_runs': null });
  expect(await previousDatabases(database.pool)).toEqual([]);
  const { rows } = await database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_database WHERE starts_with(datname, $1)',
    [`${database.name}_restore_`],
  );
  expect(rows[0]!.n).toBe(0);
}, 240_000);

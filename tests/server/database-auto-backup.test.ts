/**
 * The automatic backup (issue #30): due exactly at its rule's occurrences while active, the job
 * writes `auto-<stamp>.backup` with its manifest into the configured sub-folder and keeps only the
 * newest `keep` automatic backups (other backups of the folder untouched).
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  autoBackupJob,
  DEFAULT_AUTO_BACKUP,
  dueAutoBackups,
  readAutoBackupConfig,
  saveAutoBackupConfig,
} from '../../src/server/database/auto-backup.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let database: TestDatabase;
let root: string;

beforeAll(async () => {
  database = await createTestDatabase();
  root = await mkdtemp(path.join(os.tmpdir(), 'comptoir-auto-'));
});

afterAll(async () => {
  await database.close();
  await rm(root, { recursive: true, force: true });
});

it('is due at the rule, writes backups and keeps the newest', async () => {
  expect(await readAutoBackupConfig(database.pool)).toEqual(DEFAULT_AUTO_BACKUP);
  const from = new Date('2026-12-07T00:00:00Z');
  const to = new Date('2026-12-10T00:00:00Z');
  expect(await dueAutoBackups(database.pool, from, to)).toEqual([]); // inactive
  await saveAutoBackupConfig(database.pool, {
    ...DEFAULT_AUTO_BACKUP,
    active: true,
    type: 'DAILY',
    heure: 2,
    minute: 30,
    timeZone: 'UTC',
    folder: 'nightly',
    keep: 2,
  });
  const due = await dueAutoBackups(database.pool, from, to);
  expect(due.map((d) => d.singletonKey)).toEqual([
    'autobackup:2026-12-07T02:30:00.000Z',
    'autobackup:2026-12-08T02:30:00.000Z',
    'autobackup:2026-12-09T02:30:00.000Z',
  ]);

  await writeFile(path.join(root, 'keep-me.backup'), 'x');
  const job = autoBackupJob(root);
  const files: string[] = [];
  for (const item of due) {
    await job.run(item.data, {
      pool: database.pool,
      runId: item.singletonKey,
      plannedAt: item.plannedAt,
      attempt: 1,
      queueMail: async () => {},
      recordFile: async (f) => {
        files.push(f.name);
      },
      now: () => item.plannedAt,
    });
  }
  expect(files).toEqual([
    'auto-20261207T023000Z.backup',
    'auto-20261208T023000Z.backup',
    'auto-20261209T023000Z.backup',
  ]);
  expect((await readdir(path.join(root, 'nightly'))).sort()).toEqual([
    'auto-20261208T023000Z.backup',
    'auto-20261208T023000Z.backup.json',
    'auto-20261209T023000Z.backup',
    'auto-20261209T023000Z.backup.json',
  ]);
  expect(await readdir(root)).toContain('keep-me.backup');
}, 120_000);

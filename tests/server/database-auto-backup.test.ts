/**
 * The automatic backup (issue #30): due exactly at its rule's occurrences while active, the job
 * writes `auto-<stamp>.backup` with its manifest into the configured sub-folder and keeps only the
 * newest `keep` automatic backups (other backups of the folder untouched); while another database
 * operation holds the database-wide lock, the run fails with DatabaseBusy (the queue retries it).
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { failureReason } from '../../src/server/attention/failure-reason.ts';
import {
  autoBackupJob,
  DEFAULT_AUTO_BACKUP,
  dueAutoBackups,
  readAutoBackupConfig,
  saveAutoBackupConfig,
} from '../../src/server/database/auto-backup.ts';
import { tryOperationLock } from '../../src/server/database/operation-lock.ts';
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

it('waits for another database operation: DatabaseBusy while the lock is held, then backs up', async () => {
  const plannedAt = new Date('2026-12-11T02:30:00Z');
  const context = (files: string[]) => ({
    pool: database.pool,
    runId: 'autobackup:busy',
    plannedAt,
    attempt: 1,
    queueMail: async () => {},
    recordFile: async (f: { name: string }) => {
      files.push(f.name);
    },
    now: () => plannedAt,
  });
  const job = autoBackupJob(root);
  const held = await tryOperationLock(database.pool);
  expect(held).not.toBeNull();
  const files: string[] = [];
  try {
    const error = await job.run({ due: plannedAt.toISOString() }, context(files)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    // What the administrator's /home says of it (attention/failure-reason.ts).
    expect(failureReason((error as Error).message)).toEqual({ raison: 'DatabaseBusy', statutHttp: null });
  } finally {
    await held?.release();
  }
  expect(files).toEqual([]);
  await job.run({ due: plannedAt.toISOString() }, context(files));
  expect(files).toEqual(['auto-20261211T023000Z.backup']);
  // The job released the lock: another operation can take it.
  const after = await tryOperationLock(database.pool);
  expect(after).not.toBeNull();
  await after?.release();
}, 120_000);

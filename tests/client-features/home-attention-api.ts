/**
 * The real Comptoir server behind the "Needs attention" card's test (fresh PostgreSQL, the small
 * chain of tests/server/fixtures.ts), with one automatic backup that failed after its retries:
 * its folder is a file, so the real job, run by the queue's own run path (JobQueue.runNow, as a
 * worker calls it, last try), cannot write it. Then the DOM at its origin (counting-dom.ts).
 * Imported first by the test, so all of it exists before React and the client modules load.
 *
 * Users: `admin` (ACCES_BASE, CONFIGURATION, FEC_CONFIGURATION, every site) and `directeur`
 * (RAPPORTS, every site: none of the card's rights).
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  AUTO_BACKUP_KIND,
  DEFAULT_AUTO_BACKUP,
  saveAutoBackupConfig,
} from '../../src/server/database/auto-backup.ts';
import { createTestApp } from '../helpers/app.ts';
import { seedChain } from '../server/fixtures.ts';
import { installDom } from './counting-dom.ts';

export const PASSWORD = 'Correct-Horse1';
export const dataDir = await mkdtemp(path.join(os.tmpdir(), 'home-attention-'));
export const t = await createTestApp({ config: { dataDir, jobs: false } });
await seedChain(t.database.pool);
await t.createUser({
  login: 'admin',
  password: PASSWORD,
  droits: ['ACCES_BASE', 'CONFIGURATION', 'FEC_CONFIGURATION'],
  allSites: true,
});
await t.createUser({ login: 'directeur', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });

await saveAutoBackupConfig(t.database.pool, { ...DEFAULT_AUTO_BACKUP, active: true, folder: 'auto' });
await mkdir(path.join(dataDir, 'backups'), { recursive: true });
await writeFile(path.join(dataDir, 'backups', 'auto'), 'a file where the folder should be');
const runId = await t.app.jobs.enqueue(AUTO_BACKUP_KIND, { due: '2026-12-07T01:30:00.000Z' });
await t.app.jobs.runNow(runId!, 1, true).catch(() => {});

await t.app.listen({ port: 0, host: '127.0.0.1' });
export const apiBase = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/`;
installDom(apiBase);

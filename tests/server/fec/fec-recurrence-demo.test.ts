/**
 * The demo chain ships one FEC recurrence (issue #29 "FEC recurrences"): the clock's first
 * scheduled minute for it queues a run through the app's queue, which keeps the previous month's
 * file of the bakery company, checked, listed on bo/fec/files for the demo's accountant.
 */
import iconv from 'iconv-lite';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateDemoChain } from '../../../src/server/demo/generate.ts';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import { dueFecRecurrences } from '../../../src/server/fec/recurrence-run.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { waitUntil } from '../jobs/queue-helpers.ts';

let t: TestApp;
let dataDir: string;
let password: string;
const now = new Date();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'comptoir-fecrec-demo-'));
  t = await createTestApp({ config: { dataDir } });
  const demo = await generateDemoChain(t.database.pool, { seed: 29, now, days: 40 });
  password = demo.users.find((u) => u.login === 'comptable')!.password;
}, 240_000);
afterAll(async () => {
  await t?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('generates the previous month of the bakery company at the first scheduled minute', async () => {
  const { rows } = await t.database.pool.query<{ societe: number; raison: string }>(
    `SELECT r.company_id AS societe, c.raison_sociale AS raison FROM fec_recurrences r JOIN companies c ON c.id = r.company_id`,
  );
  expect(rows).toEqual([{ societe: expect.any(Number), raison: 'SARL Fournil Ferrand' }]);
  const societe = rows[0]!.societe;
  const [item] = await dueFecRecurrences(t.database.pool, now, new Date(now.getTime() + 86_400_000));
  expect(item).toBeDefined();
  await t.app.jobs.tick(item!.plannedAt);
  const headers = await t.signIn('comptable', password);
  const { rows: users } = await t.database.pool.query<{ id: number }>(
    "SELECT id FROM users WHERE login = 'comptable'",
  );
  const url = `/api/bo/fec/files?id=${users[0]!.id}&societe=${societe}`;
  await waitUntil(async () => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    return res.json().fichiers?.[0]?.run?.statut === 'SUCCEEDED';
  }, 60_000);
  const [file] = (await t.app.inject({ method: 'GET', url, headers })).json().fichiers;
  const download = await t.app.inject({
    method: 'GET',
    url: `/api/bo/fec/file?id=${users[0]!.id}&societe=${societe}&fichier=${file.id}`,
    headers,
  });
  expect(download.statusCode).toBe(200);
  const text = iconv.decode(download.rawPayload, 'ISO-8859-15');
  expect(text.split('\r\n').length).toBeGreaterThan(28);
  expect(checkFec(text, file.nom)).toEqual([]);
});

/**
 * What the demo chain ships for accounting (issue #29 "Everywhere"): an explicit account plan per
 * company, shown to the demo's accountant by bo/fec/plan; one FEC recurrence, whose first
 * scheduled minute queues a run through the app's queue, which keeps the previous month's file of
 * the bakery company, checked, listed on bo/fec/files; and one integration (e-cash) into a folder,
 * whose first scheduled run writes each site's file of the day before under DATA_DIR/exports/.
 */
import iconv from 'iconv-lite';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateDemoChain } from '../../../src/server/demo/generate.ts';
import { checkFec } from '../../../src/server/fec/fec-checker.ts';
import type { FecPlan } from '../../../src/contract/fec.ts';
import { dueFecRecurrences } from '../../../src/server/fec/recurrence-run.ts';
import { dueIntegrations } from '../../../src/server/integrations/run.ts';
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

it("ships an explicit account plan per company, which the accountant sees on /fec's plan", async () => {
  const headers = await t.signIn('comptable', password);
  const { rows: users } = await t.database.pool.query<{ id: number }>(
    "SELECT id FROM users WHERE login = 'comptable'",
  );
  const { rows: companies } = await t.database.pool.query<{ id: number; enseigne: string }>(
    'SELECT id, enseigne FROM companies ORDER BY id',
  );
  expect(companies).toHaveLength(2);
  for (const [index, company] of companies.entries()) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/fec/plan?id=${users[0]!.id}&societe=${company.id}`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    const plan = res.json<FecPlan>();
    expect(plan.saved).toBe(true);
    expect(plan.sitesHorsEuro).toEqual([]);
    expect(plan.accounts.find((a) => a.role === 'PAYMENT_CARD')).toMatchObject({
      account: `5115${index + 1}`,
      label: `Cartes bancaires à encaisser ${company.enseigne}`,
      defaultAccount: '5115',
    });
    const { rows } = await t.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM fec_account_plans WHERE company_id = $1',
      [company.id],
    );
    expect(rows[0]!.n).toBe(plan.accounts.length);
  }
});

it('ships the e-cash integration into a folder, whose first scheduled run writes a file per site', async () => {
  const { rows } = await t.database.pool.query<{ partner: string; destination: unknown; sites: number[] }>(
    'SELECT partner, destination, sites FROM integrations',
  );
  expect(rows).toEqual([
    { partner: 'ecash', destination: { type: 'folder', dossier: 'ecash' }, sites: expect.any(Array) },
  ]);
  const [item] = await dueIntegrations(t.database.pool, now, new Date(now.getTime() + 86_400_000));
  expect(item).toBeDefined();
  await t.app.jobs.tick(item!.plannedAt);
  const folder = path.join(dataDir, 'exports', 'ecash');
  await waitUntil(async () => {
    const { rows: sent } = await t.database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM integration_deliveries WHERE status = 'SENT'",
    );
    return sent[0]!.n === rows[0]!.sites.length;
  }, 60_000);
  const files = await readdir(folder);
  expect(files).toHaveLength(rows[0]!.sites.length);
  // A site may be closed the day before (closed weekdays): its file is the header alone.
  const lines = await Promise.all(
    files.map(async (f) => (await readFile(path.join(folder, f), 'utf8')).trim().split(/\r?\n/).length),
  );
  expect(Math.max(...lines)).toBeGreaterThan(1);
});

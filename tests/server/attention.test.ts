/**
 * The "Needs attention" call (`GET bo/attention`, issues #29 and #30, decision 0045) on the real
 * app and PostgreSQL, with runs made by the queue's own run path (JobQueue.runNow, as a worker
 * calls it) of the real jobs against failing destinations: an automatic backup whose folder is a
 * file (it cannot be written), an integration whose HTTPS endpoint answers 500 (a local server
 * with a self-signed certificate trusted as a CA: TLS checks stay on), a FEC recurrence whose
 * period is not closed. A failed try with retries left shows nothing; the last try failing shows
 * the line with its reason; a later success removes it. Each kind is seen only with its right.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttentionItem } from '../../src/contract/attention.ts';
import {
  AUTO_BACKUP_KIND,
  DEFAULT_AUTO_BACKUP,
  saveAutoBackupConfig,
} from '../../src/server/database/auto-backup.ts';
import { FEC_RECURRENCE_RUN } from '../../src/server/fec/recurrence-store.ts';
import { defaultLayout } from '../../src/server/integrations/partners.ts';
import { integrationKind } from '../../src/server/integrations/run.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

let t: TestApp;
let chain: Chain;
let dataDir: string;
let server: https.Server;
let port: number;
let answer = 500;
const PASSWORD = 'Attention-2026!';
let ids: Record<'admin' | 'fec' | 'fecLyon' | 'reports', number>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'attention-'));
  t = await createTestApp({ config: { dataDir, jobs: false } });
  chain = await seedChain(t.database.pool);
  ids = {
    admin: await t.createUser({
      login: 'admin-att',
      password: PASSWORD,
      droits: ['ACCES_BASE', 'CONFIGURATION', 'FEC_CONFIGURATION'],
      allSites: true,
    }),
    fec: await t.createUser({
      login: 'fec-att',
      password: PASSWORD,
      droits: ['FEC_CONFIGURATION'],
      allSites: true,
    }),
    // Lyon only: Alpha's FEC is not wholly in the scope.
    fecLyon: await t.createUser({
      login: 'feclyon-att',
      password: PASSWORD,
      droits: ['FEC_CONFIGURATION'],
      restaurantIds: [chain.sites.lyon],
    }),
    reports: await t.createUser({
      login: 'reports-att',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      allSites: true,
    }),
  };
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  port = (server.address() as AddressInfo).port;
  // The integration job trusts the system's CAs; the test's self-signed one is added to the
  // default agent, which every request of this process without its own agent uses.
  https.globalAgent.options.ca = pems.cert;
});

afterAll(async () => {
  https.globalAgent.options.ca = undefined;
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function attention(login: string, id: number): Promise<{ status: number; elements: AttentionItem[] }> {
  const headers = await t.signIn(login, PASSWORD);
  const res = await t.app.inject({ method: 'GET', url: `/api/bo/attention?id=${id}`, headers });
  return { status: res.statusCode, elements: res.statusCode === 200 ? res.json().elements : [] };
}

/** Queues a run of `kind` and runs its try as the worker would; the run's final status. */
async function run(kind: string, data: object, lastTry = true): Promise<string> {
  const runId = await t.app.jobs.enqueue(kind, data);
  await t.app.jobs.runNow(runId!, 1, lastTry).catch(() => {});
  const { rows } = await t.database.pool.query<{ status: string }>(
    'SELECT status FROM job_runs WHERE id = $1',
    [runId],
  );
  return rows[0]!.status;
}

describe('GET bo/attention', () => {
  it('shows an automatic backup whose folder cannot be written once its retries are spent, until one succeeds', async () => {
    await saveAutoBackupConfig(t.database.pool, { ...DEFAULT_AUTO_BACKUP, active: true, folder: 'auto' });
    await mkdir(path.join(dataDir, 'backups'), { recursive: true });
    await writeFile(path.join(dataDir, 'backups', 'auto'), 'a file where the folder should be');

    expect(await run(AUTO_BACKUP_KIND, { due: '2026-12-06T01:30:00.000Z' }, false)).toBe('retrying');
    expect((await attention('admin-att', ids.admin)).elements).toEqual([]);
    expect(await run(AUTO_BACKUP_KIND, { due: '2026-12-07T01:30:00.000Z' })).toBe('failed');
    const { elements } = await attention('admin-att', ids.admin);
    expect(elements).toEqual([
      expect.objectContaining({
        type: 'backup',
        raison: 'NotWritable',
        statutHttp: null,
        tentatives: 1,
        ecran: '/config/bdd',
      }),
    ]);

    await rm(path.join(dataDir, 'backups', 'auto'));
    expect(await run(AUTO_BACKUP_KIND, { due: '2026-12-08T01:30:00.000Z' })).toBe('succeeded');
    expect((await attention('admin-att', ids.admin)).elements).toEqual([]);
  }, 120_000);

  it('shows an integration whose endpoint answers 500 with the status, until a delivery succeeds', async () => {
    const { rows } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO integrations (partner, enabled, sites, destination, layout) VALUES ('ecash', true, $1, $2, $3) RETURNING id`,
      [
        [chain.sites.paris],
        { type: 'https', url: `https://localhost:${port}/in`, methode: 'POST', entetes: [] },
        defaultLayout('ecash'),
      ],
    );
    const data = { integrationId: rows[0]!.id, plannedAt: '2026-03-03T06:00:00.000Z' };
    answer = 500;
    expect(await run(integrationKind('ecash'), data)).toBe('failed');
    // A test file failing is no delivery: it adds nothing.
    expect(await run(integrationKind('ecash'), { ...data, test: true })).toBe('failed');
    const { elements } = await attention('admin-att', ids.admin);
    expect(elements).toEqual([
      expect.objectContaining({
        type: 'integration',
        partenaire: 'ecash',
        raison: 'Http',
        statutHttp: 500,
        ecran: '/config/ecash',
      }),
    ]);

    answer = 200;
    expect(await run(integrationKind('ecash'), data)).toBe('succeeded');
    expect((await attention('admin-att', ids.admin)).elements).toEqual([]);
  }, 120_000);

  it('shows a FEC recurrence only to FEC_CONFIGURATION holders whose scope holds its whole company', async () => {
    const { rows } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO fec_recurrences (company_id, libelle, type, hour, minute, period, recipients, language)
       VALUES ($1, 'FEC de la veille', 'DAILY', 6, 0, 'PREVIOUS_DAY', '{}', 'fr') RETURNING id`,
      [chain.companies.alpha],
    );
    // Planned next year: the day before is not over anywhere, so the period is not closed.
    const data = { recurrenceId: rows[0]!.id, plannedAt: '2027-06-02T04:00:00.000Z' };
    expect(await run(FEC_RECURRENCE_RUN, data)).toBe('failed');
    const expected = expect.objectContaining({
      type: 'fecRecurrence',
      libelle: 'FEC de la veille',
      raison: 'PeriodNotClosed',
      ecran: '/fec/recurrencesfec',
    });
    expect((await attention('fec-att', ids.fec)).elements).toEqual([expected]);
    expect((await attention('admin-att', ids.admin)).elements).toEqual([expected]);
    expect((await attention('feclyon-att', ids.fecLyon)).elements).toEqual([]);
  }, 120_000);

  it('shows a subscription whose favourite is gone, then suspended once its owner is deactivated', async () => {
    const owner = await t.createUser({
      login: 'owner-att',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      allSites: true,
    });
    const rule = await t.database.pool.query<{ id: number }>(
      `INSERT INTO report_rules (owner_id, libelle, type, hour, minute) VALUES ($1, 'Chaque matin', 'DAILY', 7, 0) RETURNING id`,
      [owner],
    );
    const { rows } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO report_subscriptions (owner_id, libelle, rule_id, report, formats)
       VALUES ($1, 'Ventes de la veille', $2, $3, '{PDF}') RETURNING id`,
      [owner, rule.rows[0]!.id, { favoriId: 2_000_000 }],
    );
    const data = { subscriptionId: rows[0]!.id, plannedAt: '2026-03-03T06:00:00.000Z' };
    expect(await run('subscription.run', data)).toBe('failed');
    const failed = expect.objectContaining({
      type: 'subscription',
      libelle: 'Ventes de la veille',
      raison: 'FavouriteGone',
      ecran: '/config/recurrences',
    });
    expect((await attention('admin-att', ids.admin)).elements).toContainEqual(failed);
    expect((await attention('fec-att', ids.fec)).elements.map((e) => e.type)).toEqual(['fecRecurrence']);

    await t.database.pool.query('UPDATE users SET active = false WHERE id = $1', [owner]);
    // One line for it: suspended, whatever its last run did.
    const { elements } = await attention('admin-att', ids.admin);
    expect(elements.filter((e) => e.libelle === 'Ventes de la veille')).toEqual([
      expect.objectContaining({
        type: 'subscriptionSuspended',
        raison: 'OwnerCannotRun',
        ecran: '/config/recurrences',
      }),
    ]);
    await t.database.pool.query('DELETE FROM report_subscriptions WHERE id = $1', [rows[0]!.id]);
    expect((await attention('admin-att', ids.admin)).elements.map((e) => e.type)).toEqual(['fecRecurrence']);
  }, 120_000);

  it('shows each kind only with its right, and refuses a user with none of them', async () => {
    answer = 500;
    const { rows } = await t.database.pool.query<{ id: number }>('SELECT id FROM integrations');
    expect(
      await run(integrationKind('ecash'), {
        integrationId: rows[0]!.id,
        plannedAt: '2026-03-04T06:00:00.000Z',
      }),
    ).toBe('failed');
    expect((await attention('admin-att', ids.admin)).elements.map((e) => e.type).sort()).toEqual([
      'fecRecurrence',
      'integration',
    ]);
    expect((await attention('fec-att', ids.fec)).elements.map((e) => e.type)).toEqual(['fecRecurrence']);
    expect((await attention('reports-att', ids.reports)).status).toBe(403);
  }, 120_000);
});

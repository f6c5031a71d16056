/**
 * The integration calls (issue #29 "Integrations", decision 0044) through HTTP on a real
 * PostgreSQL and the real job queue: CONFIGURATION only; a partner never saved answers its
 * defaults; saving checks the folder and the URL, refuses credentials while COMPTOIR_SECRET_KEY is
 * unset, keeps them encrypted, never answers them and leaves them out of the audit log; "send a
 * test file now" runs the partner's job, whose run and file the history then shows.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLayout } from '../../src/server/integrations/partners.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Secret-Password-1';
const TOKEN = 'Bearer api-s3cr3t-T0ken';

let withKey: TestApp;
let withoutKey: TestApp;
let dataDir: string;
let chain: Chain;
let admin: { id: number; auth: AuthHeaders };
let adminNoKey: { id: number; auth: AuthHeaders };
let manager: { id: number; auth: AuthHeaders };

async function user(t: TestApp, login: string, droits: string[]) {
  const id = await t.createUser({ login, password: PASSWORD, droits, allSites: true });
  return { id, auth: await t.signIn(login, PASSWORD) };
}

function call(
  t: TestApp,
  method: 'GET' | 'POST',
  url: string,
  as: { id: number; auth: AuthHeaders },
  payload?: object,
) {
  const sep = url.includes('?') ? '&' : '?';
  return t.app.inject({
    method,
    url: `/api/bo/integrations/${url}${sep}id=${as.id}`,
    headers: {
      ...as.auth,
      ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
    },
    ...(payload ? { payload } : {}),
  });
}

const body = (over: object = {}) => ({
  partenaire: 'ecash',
  actif: true,
  sites: [chain.sites.paris],
  regleId: null,
  destination: { type: 'folder', dossier: 'ecash' },
  mise: defaultLayout('ecash'),
  ...over,
});

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'integrations-api-'));
  withKey = await createTestApp({ config: { dataDir, secretKey: 'a-key-of-at-least-16-chars' } });
  withoutKey = await createTestApp({ config: { dataDir } });
  chain = await seedChain(withKey.database.pool);
  await seedChain(withoutKey.database.pool);
  admin = await user(withKey, 'admin', ['CONFIGURATION']);
  adminNoKey = await user(withoutKey, 'admin', ['CONFIGURATION']);
  manager = await user(withKey, 'gerant', ['RAPPORTS']);
});

afterAll(async () => {
  await withKey?.close();
  await withoutKey?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('bo/integrations', () => {
  it('is for CONFIGURATION holders only', async () => {
    const res = await call(withKey, 'GET', 'config?partenaire=ecash', manager);
    expect(res.statusCode).toBe(403);
    const save = await call(withKey, 'POST', 'save', manager, body());
    expect(save.statusCode).toBe(403);
  });

  it('answers the defaults of a partner never saved', async () => {
    const res = await call(withKey, 'GET', 'config?partenaire=adoria', admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      partenaire: 'adoria',
      actif: false,
      sites: [],
      identifiantsEnregistres: false,
    });
    expect(res.json().mise.nomFichier).toBe('VENTES_{site}_{date}.csv');
  });

  it('refuses a folder leaving DATA_DIR/exports/, a URL with credentials, a column the data lacks', async () => {
    for (const [over, field] of [
      [{ destination: { type: 'folder', dossier: '../etc' } }, 'destination'],
      [
        { destination: { type: 'https', url: 'https://u:p@partner.example/in', methode: 'POST' } },
        'destination',
      ],
      [{ destination: { type: 'https', url: 'http://partner.example/in', methode: 'POST' } }, 'destination'],
      [{ mise: { ...defaultLayout('ecash'), colonnes: [{ champ: 'article', nom: 'A' }] } }, 'colonnes'],
    ] as const) {
      const res = await call(withKey, 'POST', 'save', admin, body(over));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details.field).toBe(field);
    }
  });

  it('refuses credentials while COMPTOIR_SECRET_KEY is unset, with a message naming it', async () => {
    const res = await call(
      withoutKey,
      'POST',
      'save',
      adminNoKey,
      body({
        destination: { type: 'https', url: 'https://partner.example/in', methode: 'POST', entetes: [] },
        identifiants: [{ nom: 'Authorization', valeur: TOKEN }],
      }),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toMatchObject({ field: 'identifiants', reason: 'SecretKeyMissing' });
    expect(res.body).toContain('COMPTOIR_SECRET_KEY');
    expect(res.body).not.toContain('s3cr3t');
  });

  it('keeps credentials encrypted, never answers them, and redacts them in the audit log', async () => {
    const res = await call(
      withKey,
      'POST',
      'save',
      admin,
      body({
        partenaire: 'consolidations',
        mise: defaultLayout('consolidations'),
        destination: { type: 'https', url: 'https://partner.example/in', methode: 'PUT', entetes: [] },
        identifiants: [{ nom: 'Authorization', valeur: TOKEN }],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().identifiantsEnregistres).toBe(true);
    expect(res.body).not.toContain('s3cr3t');
    const got = await call(withKey, 'GET', 'config?partenaire=consolidations', admin);
    expect(got.json().identifiantsEnregistres).toBe(true);
    expect(got.body).not.toContain('s3cr3t');
    const pool = withKey.database.pool;
    const stored = await pool.query<{ secret: string }>(
      `SELECT secret FROM integrations WHERE partner = 'consolidations'`,
    );
    expect(stored.rows[0]!.secret).toMatch(/^v1:/);
    expect(stored.rows[0]!.secret).not.toContain('s3cr3t');
    const audit = await pool.query(`SELECT * FROM audit_log WHERE action = 'integration.save'`);
    expect(audit.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit.rows)).not.toContain('s3cr3t');
  });

  it('sends a test file now through the queue and shows the run in the history', async () => {
    const saved = await call(withKey, 'POST', 'save', admin, body());
    expect(saved.statusCode, saved.body).toBe(200);
    const run = await call(withKey, 'POST', 'runNow', admin, {
      partenaire: 'ecash',
      dateFiscale: '2026-03-02',
      test: true,
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().runId).toEqual(expect.any(String));
    let history = await call(withKey, 'GET', 'runs?partenaire=ecash', admin);
    for (let i = 0; i < 300 && history.json().executions[0]?.statut !== 'succeeded'; i++) {
      withKey.app.jobs.wake();
      await new Promise((r) => setTimeout(r, 50));
      history = await call(withKey, 'GET', 'runs?partenaire=ecash', admin);
    }
    expect(history.json().executions[0]).toMatchObject({
      statut: 'succeeded',
      test: true,
      dateFiscale: '2026-03-02',
      fichiers: [{ nom: 'TEST_ECASH_P01_20260302.csv' }],
    });
    expect(history.json().livraisons).toEqual([]);
    expect(await readdir(path.join(dataDir, 'exports', 'ecash'))).toEqual(['TEST_ECASH_P01_20260302.csv']);
  });
});

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
import { decryptSecret } from '../../src/server/integrations/secrets.ts';
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
/** What the app with the key logged (pino at debug, JSON lines). */
const logs: string[] = [];

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
  withKey = await createTestApp({
    config: { dataDir, secretKey: 'a-key-of-at-least-16-chars', logLevel: 'debug', logFormat: 'json' },
    logTo: { write: (text: string) => void logs.push(text) },
  });
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
        destination: {
          type: 'https',
          url: 'https://partner.example/in',
          methode: 'POST',
          entetes: [
            { nom: 'X-Client', valeur: 'comptoir' },
            { nom: 'Authorization', valeur: TOKEN, secret: true },
          ],
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toMatchObject({ field: 'entetes', index: 1, reason: 'SecretKeyMissing' });
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
        destination: {
          type: 'https',
          url: 'https://partner.example/in',
          methode: 'PUT',
          entetes: [{ nom: 'Authorization', valeur: TOKEN, secret: true }],
        },
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

  it('refuses a column by its place and reason: unknown field, empty, twice, the separator or a line break', async () => {
    const layout = defaultLayout('ecash');
    const withColumn = (i: number, champ: string, nom: string) => ({
      mise: { ...layout, colonnes: layout.colonnes.map((c, j) => (j === i ? { champ, nom } : c)) },
    });
    for (const [over, index, reason] of [
      [withColumn(2, 'article', 'ARTICLE'), 2, 'UnknownField'],
      [withColumn(1, 'date', '   '), 1, 'EmptyName'],
      [withColumn(3, 'payments', 'site'), 3, 'DuplicateName'],
      [withColumn(4, 'amount', 'MONTANT;TTC'), 4, 'BadName'],
      [withColumn(4, 'amount', 'MONTANT\nTTC'), 4, 'BadName'],
    ] as const) {
      for (const url of ['save', 'preview']) {
        const res = await call(withKey, 'POST', url, admin, { ...body(over), sites: [] });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'InvalidField',
          details: { field: 'colonnes', index, reason },
        });
      }
    }
    // The same name is fine with another separator; chosen, renamed, reordered columns are kept trimmed.
    const colonnes = [
      { champ: 'amount', nom: ' MONTANT;TTC ' },
      { champ: 'method', nom: 'MODE' },
      { champ: 'date', nom: 'JOUR' },
    ];
    const res = await call(
      withKey,
      'POST',
      'save',
      admin,
      body({ mise: { ...layout, separateur: ',', colonnes } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().mise.colonnes).toEqual([
      { champ: 'amount', nom: 'MONTANT;TTC' },
      { champ: 'method', nom: 'MODE' },
      { champ: 'date', nom: 'JOUR' },
    ]);
  });

  it('refuses a header by its place and reason: not a token, reserved, twice, a line break, no value', async () => {
    const https = (entetes: object[]) => ({
      partenaire: 'consolidations',
      mise: defaultLayout('consolidations'),
      destination: { type: 'https', url: 'https://partner.example/in', methode: 'POST', entetes },
    });
    const ok = { nom: 'X-Client', valeur: 'comptoir' };
    for (const [entetes, index, reason] of [
      [[ok, { nom: 'X Client', valeur: 'a' }], 1, 'BadName'],
      [[{ nom: 'Clé', valeur: 'a' }], 0, 'BadName'],
      [[{ nom: 'Host', valeur: 'evil.example' }], 0, 'ReservedName'],
      [[ok, { nom: 'content-length', valeur: '0' }], 1, 'ReservedName'],
      [[{ nom: 'Transfer-Encoding', valeur: 'chunked' }], 0, 'ReservedName'],
      [[{ nom: 'Proxy-Authorization', valeur: 'x', secret: true }], 0, 'ReservedName'],
      [[ok, { nom: 'x-client', valeur: 'b' }], 1, 'DuplicateName'],
      [[{ nom: 'X-Evil', valeur: 'a\r\nHost: evil' }], 0, 'BadValue'],
      [[{ nom: 'X-Client' }], 0, 'MissingValue'],
      [[{ nom: 'X-Api-Key', secret: true }], 0, 'MissingValue'],
    ] as const) {
      const res = await call(withKey, 'POST', 'save', admin, body(https([...entetes])));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'InvalidField',
        details: { field: 'entetes', index, reason },
      });
    }
  });

  it('keeps a secret header encrypted, shows it as set, keeps it on a save without value, replaces and removes it', async () => {
    const pool = withKey.database.pool;
    const secretOf = async () =>
      (
        await pool.query<{ secret: string | null }>(
          `SELECT secret FROM integrations WHERE partner = 'easilys'`,
        )
      ).rows[0]!.secret;
    const save = (entetes: object[]) =>
      call(
        withKey,
        'POST',
        'save',
        admin,
        body({
          partenaire: 'easilys',
          mise: defaultLayout('easilys'),
          destination: { type: 'https', url: 'https://partner.example/in', methode: 'POST', entetes },
        }),
      );
    const before = logs.length;
    const first = await save([
      { nom: 'X-Client', valeur: 'comptoir' },
      { nom: 'X-Api-Key', valeur: 'key-s3cr3t-1', secret: true },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().destination.entetes).toEqual([
      { nom: 'X-Client', valeur: 'comptoir', secret: false },
      { nom: 'X-Api-Key', secret: true },
    ]);
    expect(first.json().identifiantsEnregistres).toBe(true);
    const stored = await secretOf();
    expect(stored).toMatch(/^v1:/);
    // Saved again without the value (the screen's "••• set"): the stored value stays.
    const kept = await save([
      { nom: 'X-Client', valeur: 'comptoir' },
      { nom: 'X-Api-Key', secret: true },
    ]);
    expect(kept.statusCode, kept.body).toBe(200);
    expect(decryptSecret('a-key-of-at-least-16-chars', (await secretOf())!)).toBe(
      JSON.stringify([{ nom: 'X-Api-Key', valeur: 'key-s3cr3t-1' }]),
    );
    const replaced = await save([{ nom: 'X-Api-Key', valeur: 'key-s3cr3t-2', secret: true }]);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(decryptSecret('a-key-of-at-least-16-chars', (await secretOf())!)).toBe(
      JSON.stringify([{ nom: 'X-Api-Key', valeur: 'key-s3cr3t-2' }]),
    );
    const removed = await save([{ nom: 'X-Client', valeur: 'comptoir' }]);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().identifiantsEnregistres).toBe(false);
    expect(await secretOf()).toBeNull();
    const got = await call(withKey, 'GET', 'config?partenaire=easilys', admin);
    const audit = await pool.query(`SELECT * FROM audit_log WHERE action = 'integration.save'`);
    const written = logs.slice(before).join('\n');
    expect(written).toMatch(/integrations\/save/);
    for (const text of [first.body, kept.body, replaced.body, got.body, JSON.stringify(audit.rows), written])
      expect(text).not.toContain('s3cr3t');
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

/**
 * The demo chain's users besides the administrator (issue #18 "Demo chain", src/server/demo/
 * users.ts): their profiles' rights and site scopes, their generated passwords (policy met,
 * stored as argon2id hashes only), and each one signing in and seeing what their rights allow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../src/contract/api.ts';
import { passwordProblems } from '../../src/contract/password.ts';
import { siteScope } from '../../src/server/auth/scope.ts';
import { DEMO_USERS, SITES } from '../../src/server/demo/catalogue.ts';
import { type DemoResult, generateDemoChain } from '../../src/server/demo/generate.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const NOW = new Date('2026-03-18T14:37:00Z');

describe('demo users', () => {
  let t: TestApp;
  let demo: DemoResult;
  /** Site ids by demo site libelle. */
  const siteId = new Map<string, number>();
  const password = (login: string) => demo.users.find((u) => u.login === login)!.password;
  const userId = async (login: string) =>
    (await t.database.pool.query<{ id: number }>('SELECT id FROM users WHERE login = $1', [login])).rows[0]!
      .id;

  beforeAll(async () => {
    t = await createTestApp();
    demo = await generateDemoChain(t.database.pool, { seed: 7, now: NOW, days: 2 });
    const { rows } = await t.database.pool.query<{ id: number; libelle: string }>(
      'SELECT id, libelle FROM sites',
    );
    for (const r of rows) siteId.set(r.libelle, r.id);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('are created with the demo, each with a generated password meeting the policy, stored hashed only', async () => {
    expect(demo.users.map((u) => u.login)).toEqual([
      'gerant.bellecour',
      'responsable.brasseries',
      'gerante.ferrand',
      'comptable',
    ]);
    const { rows } = await t.database.pool.query<{ login: string; password_hash: string }>(
      'SELECT login, password_hash FROM users WHERE login = ANY($1)',
      [demo.users.map((u) => u.login)],
    );
    expect(rows).toHaveLength(4);
    for (const u of demo.users) {
      expect(passwordProblems(u.password)).toEqual([]);
      const hash = rows.find((r) => r.login === u.login)!.password_hash;
      expect(hash).toMatch(/^\$argon2id\$/);
      expect(hash).not.toContain(u.password);
    }
    expect(new Set(demo.users.map((u) => u.password)).size).toBe(4);
  });

  it('hold the rights of their profiles: site and area managers count, the accountant does not', async () => {
    const { rows } = await t.database.pool.query<{ login: string; droits: string[] }>(
      'SELECT u.login, p.droits FROM users u JOIN profiles p ON p.id = u.profile_id WHERE u.login = ANY($1)',
      [DEMO_USERS.map((u) => u.login)],
    );
    const droits = Object.fromEntries(rows.map((r) => [r.login, [...r.droits].sort()]));
    expect(droits).toEqual({
      'gerant.bellecour': ['COFFRE', 'COMPTAGE', 'EVENEMENTS', 'RAPPORTS', 'RECUS', 'TICKETS'],
      'responsable.brasseries': [
        'BI',
        'COFFRE',
        'COMPTAGE',
        'EVENEMENTS',
        'RAPPORTS',
        'RAPPORTS_ANOMALIES',
        'RECUS',
        'TICKETS',
      ],
      'gerante.ferrand': ['COFFRE', 'COMPTAGE', 'EVENEMENTS', 'RAPPORTS', 'RECUS', 'TICKETS'],
      comptable: ['FEC_CONFIGURATION', 'RAPPORTS'],
    });
  });

  it('see one site, the three sites of one company (brasseries, bakeries), and every site', async () => {
    const ids = (libelles: string[]) => libelles.map((l) => siteId.get(l)!).sort((a, b) => a - b);
    const brasseries = SITES.filter((s) => s.company === 0).map((s) => s.libelle);
    expect(brasseries).toHaveLength(3);
    expect(await siteScope(t.database.pool, await userId('gerant.bellecour'))).toEqual(
      ids(['Le Comptoir Lyon Bellecour']),
    );
    expect(await siteScope(t.database.pool, await userId('responsable.brasseries'))).toEqual(ids(brasseries));
    const bakeries = SITES.filter((s) => s.company === 1).map((s) => s.libelle);
    expect(await siteScope(t.database.pool, await userId('gerante.ferrand'))).toEqual(ids(bakeries));
    expect(await siteScope(t.database.pool, await userId('comptable'))).toEqual(
      ids(SITES.map((s) => s.libelle)),
    );
  });

  it('each sign in; the site manager lists one site and is refused another', async () => {
    for (const u of demo.users) await expect(t.signIn(u.login, u.password)).resolves.toBeTruthy();
    const managerId = await userId('gerant.bellecour');
    const headers = await t.signIn('gerant.bellecour', password('gerant.bellecour'));
    const sites = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${managerId}`, headers });
    expect(sites.statusCode).toBe(200);
    expect(sites.json<{ restaurantId: number; libelle: string }[]>().map((s) => s.libelle)).toEqual([
      'Le Comptoir Lyon Bellecour',
    ]);
    const annecy = siteId.get('Le Comptoir Annecy Vieille Ville')!;
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/bo/comptage/list?id=${managerId}&site=${annecy}&dateFiscale=2026-03-18`,
      headers,
    });
    expect(other.statusCode).toBe(403);
  });

  it('the accountant reads reports of every site but cannot open counting', async () => {
    const id = await userId('comptable');
    const headers = await t.signIn('comptable', password('comptable'));
    const sites = await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${id}`, headers });
    expect(sites.json()).toHaveLength(SITES.length);
    const lyon = siteId.get('Le Comptoir Lyon Bellecour')!;
    const counting = await t.app.inject({
      method: 'GET',
      url: `/api/bo/comptage/list?id=${id}&site=${lyon}&dateFiscale=2026-03-18`,
      headers,
    });
    expect(counting.statusCode).toBe(403);
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/bo/getReport?id=${id}&rapportClassName=RapportVentes&format=JSON&dateDebut=2026-03-17&dateFin=2026-03-18`,
      headers,
    });
    expect(report.statusCode).toBe(200);
  });
  it('have an e-mail address, so a password reset reaches them (#32 D.2)', async () => {
    const { rows } = await t.database.pool.query<{ login: string; email: string | null }>(
      'SELECT login, email FROM users WHERE login = ANY($1) ORDER BY login',
      [demo.users.map((u) => u.login)],
    );
    for (const r of rows) expect(r.email).toBe(`${r.login}@example.com`);
    const res = await t.app.inject({
      url: '/api/reinit/sendReinitMail?user=gerant.bellecour',
      headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'seeUrMail' });
  });
});

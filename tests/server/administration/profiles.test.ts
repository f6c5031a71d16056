import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DroitSchema, ProfileSchema } from '../../../src/contract/administration.ts';
import { RIGHTS } from '../../../src/contract/rights.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { type Chain, seedChain } from '../fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('profiles and rights (bo/infra/getProfils, newProfile, saveProfile, removeProfil, getDroits)', () => {
  let t: TestApp;
  let chain: Chain;
  let admin: Record<string, string>;
  let adminProfile: number;
  let manager: Record<string, string>;
  let managerProfile: number;

  const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url: `/api/${url}`, headers });
  const post = (url: string, payload: unknown, headers = admin) =>
    t.app.inject({ method: 'POST', url: `/api/${url}`, headers, payload: payload as object });
  const audit = async (action: string) =>
    (
      await t.database.pool.query<{ user_id: number; target_id: string; before: unknown; after: unknown }>(
        'SELECT user_id, target_id, before, after FROM audit_log WHERE action = $1 ORDER BY id',
        [action],
      )
    ).rows;
  const auditCount = async () =>
    (await t.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
  const profileOf = async (login: string) =>
    (
      await t.database.pool.query<{ id: number }>('SELECT profile_id AS id FROM users WHERE login = $1', [
        login,
      ])
    ).rows[0]!.id;

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    await t.createUser({
      login: 'admin',
      password: PASSWORD,
      // Every right: an administrator grants only the rights they hold (issue #32 C.2).
      droits: RIGHTS,
      allSites: true,
    });
    admin = await t.signIn('admin', PASSWORD);
    adminProfile = await profileOf('admin');
    await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
    });
    manager = await t.signIn('gerant', PASSWORD);
    managerProfile = await profileOf('gerant');
  });
  afterAll(async () => {
    await t.close();
  });

  it('labels every right in the asked language, the user’s own by default', async () => {
    const de = await get('bo/infra/getDroits?language=de');
    expect(de.statusCode).toBe(200);
    const droits = DroitSchema.array().parse(de.json());
    expect(droits.map((d) => d.code)).toEqual([...RIGHTS]);
    expect(droits.find((d) => d.code === 'CONFIGURATION')).toMatchObject({ libelle: 'Verwaltung' });
    for (const d of droits) expect(d.description.length).toBeGreaterThan(5);
    const fr = DroitSchema.array().parse((await get('bo/infra/getDroits')).json());
    expect(fr.find((d) => d.code === 'RAPPORTS')?.libelle).toBe('Rapports');
    expect((await get('bo/infra/getDroits?language=xx')).statusCode).toBe(400);
    expect((await get('bo/infra/getDroits', manager)).statusCode).toBe(403);
  });

  it('lists profiles with their scope’s companies and how many users hold them', async () => {
    const res = await get('bo/infra/getProfils');
    expect(res.statusCode).toBe(200);
    const profiles = ProfileSchema.array().parse(res.json());
    expect(profiles.find((p) => p.id === managerProfile)).toMatchObject({
      titre: 'profile-gerant',
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris],
      raisonsSociales: ['Alpha SAS'],
      users: 1,
    });
    expect(profiles.find((p) => p.id === adminProfile)?.raisonsSociales).toEqual(['Alpha SAS', 'Beta SARL']);
    expect((await get('bo/infra/getProfils', manager)).statusCode).toBe(403);
  });

  it('creates a profile, audited with its fields', async () => {
    const res = await post('bo/infra/newProfile', {
      titre: 'Comptable',
      droits: ['RAPPORTS', 'FEC_CONFIGURATION'],
      societesIdPlus: [chain.companies.beta],
      optionsTicket: { cancellations: true, cashed: false },
      criteres: { famille: 'Boissons' },
    });
    expect(res.statusCode).toBe(200);
    const created = ProfileSchema.parse(res.json());
    expect(created).toMatchObject({
      titre: 'Comptable',
      droits: ['RAPPORTS', 'FEC_CONFIGURATION'],
      allSites: false,
      societesPlus: [chain.companies.beta],
      raisonsSociales: ['Beta SARL'],
      optionsTickets: { cancellations: true, cashed: false },
      criteres: { famille: 'Boissons' },
      users: 0,
    });
    const [entry] = await audit('profile.create');
    expect(entry).toMatchObject({
      target_id: String(created.id),
      before: null,
      after: { titre: 'Comptable' },
    });
  });

  it('refuses unknown rights, ticket options, sites and a title in use, writing nothing', async () => {
    const before = await auditCount();
    const cases: [unknown, string, Record<string, unknown>][] = [
      [
        { titre: 'X', droits: ['RAPPORTS', 'GOD_MODE', 'ROOT'] },
        'UnknownRight',
        { rights: ['GOD_MODE', 'ROOT'] },
      ],
      [{ titre: 'X', optionsTicket: { everything: true } }, 'InvalidField', { field: 'optionsTicket' }],
      [{ titre: 'X', restaurantIds: [99999] }, 'InvalidField', { field: 'restaurantIds' }],
      [{ titre: 'X', societesIdMoins: '99998' }, 'InvalidField', { field: 'societesIdMoins' }],
      [{ titre: 'Comptable' }, 'InvalidField', { field: 'titre' }],
    ];
    for (const [body, code, details] of cases) {
      const res = await post('bo/infra/newProfile', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code, details });
    }
    expect(await auditCount()).toBe(before);
  });

  it('saves a profile; its users’ sessions see the new rights and sites at once', async () => {
    expect((await get(`bo/favoris?id=${await userId('gerant')}`, manager)).statusCode).toBe(200);
    const res = await post(`bo/infra/saveProfile?id=${managerProfile}`, {
      titre: 'Gérant',
      droits: ['TICKETS'],
      restaurantIds: [chain.sites.paris, chain.sites.lyon],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ titre: 'Gérant', droits: ['TICKETS'], users: 1 });
    expect((await get(`bo/favoris?id=${await userId('gerant')}`, manager)).statusCode).toBe(403);
    const [entry] = await audit('profile.save');
    expect(entry).toEqual({
      user_id: expect.any(Number),
      target_id: String(managerProfile),
      before: { titre: 'profile-gerant', droits: ['RAPPORTS'], restaurantIds: [chain.sites.paris] },
      after: { titre: 'Gérant', droits: ['TICKETS'], restaurantIds: [chain.sites.paris, chain.sites.lyon] },
    });
    expect((await post('bo/infra/saveProfile?id=99999', { titre: 'Y' })).statusCode).toBe(404);
  });

  it('refuses taking CONFIGURATION from one’s own profile (the only administrator: LastAdministrator)', async () => {
    const res = await post(`bo/infra/saveProfile?id=${adminProfile}`, {
      titre: 'profile-admin',
      droits: ['RAPPORTS'],
      allSites: true,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('LastAdministrator');
    await t.createUser({ login: 'admin2', password: PASSWORD, droits: ['CONFIGURATION'], allSites: true });
    const again = await post(`bo/infra/saveProfile?id=${adminProfile}`, {
      titre: 'profile-admin',
      droits: ['RAPPORTS'],
      allSites: true,
    });
    expect(again.json().code).toBe('SelfChange');
    expect(
      (await get('bo/infra/getProfils')).json().find((p: { id: number }) => p.id === adminProfile).droits,
    ).toContain('CONFIGURATION');
  });

  it('refuses removing a profile still held, naming its users; removes it once free', async () => {
    const held = await get(`bo/infra/removeProfil?id=${managerProfile}`);
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({ code: 'InUse', details: { users: ['gerant'] } });
    expect(await audit('profile.remove')).toEqual([]);
    const free = ProfileSchema.parse((await post('bo/infra/newProfile', { titre: 'Éphémère' })).json());
    const res = await get(`bo/infra/removeProfil?id=${free.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: free.id });
    expect(await audit('profile.remove')).toMatchObject([
      { target_id: String(free.id), before: { titre: 'Éphémère' }, after: null },
    ]);
    expect((await get(`bo/infra/removeProfil?id=${free.id}`)).statusCode).toBe(404);
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/bo/infra/removeProfil?id=${free.id}`,
      headers: admin,
    });
    expect(head.statusCode).toBe(404);
  });

  it('publishes the profiles’ routes in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths);
    for (const p of ['getProfils', 'newProfile', 'saveProfile', 'removeProfil', 'getDroits']) {
      expect(paths).toContain(`/api/bo/infra/${p}`);
    }
  });

  async function userId(login: string): Promise<number> {
    return (await t.database.pool.query<{ id: number }>('SELECT id FROM users WHERE login = $1', [login]))
      .rows[0]!.id;
  }
});

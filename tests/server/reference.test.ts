import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CaissesAnswerSchema,
  EnseigneSchema,
  RegroupementSchema,
  SiretSchema,
  SitesAnswerSchema,
  VendeursAnswerSchema,
} from '../../src/contract/api.ts';
import { restrictToScope, siteScope } from '../../src/server/auth/scope.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('reference data of the user scope', () => {
  let t: TestApp;
  let chain: Chain;
  let adminId: number;
  let admin: Record<string, string>;
  const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    adminId = await t.createUser({ login: 'boss', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
    admin = await t.signIn('boss', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('getSites lists every site of the scope with its groups, TOUS when in none, and code_implant', async () => {
    const res = await get(`/api/bo/getSites?id=${adminId}&_=${Date.now()}`);
    expect(res.statusCode).toBe(200);
    const sites = SitesAnswerSchema.parse(res.json());
    expect(sites.map((s) => s.libelle)).toEqual(['Paris', 'Lyon', 'Nantes', 'Lille']);
    const byName = Object.fromEntries(sites.map((s) => [s.libelle, s]));
    expect(byName.Paris).toEqual({
      restaurantId: chain.sites.paris,
      libelle: 'Paris',
      societeId: chain.companies.alpha,
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      caisses: [],
      vendeurs: [],
      groupe: ['Nord'],
      extras: { code_implant: 'P01' },
    });
    expect(byName.Lyon!.groupe).toEqual(['TOUS']);
    expect(byName.Lille!.extras).toEqual({ region: 'Nord', code_implant: 'LI1' });
    expect(byName.Nantes!.extras).toEqual({ code_implant: null });
  });

  it('getEnseignes groups the sites by brand, a company without one under its raison sociale', async () => {
    const res = await get(`/api/bo/getEnseignes?id=${adminId}`);
    const brands = EnseigneSchema.array().parse(res.json());
    expect(brands).toEqual([
      { id: chain.companies.alpha, libelle: 'Alpha', restaurantIds: [chain.sites.paris, chain.sites.lyon] },
      {
        id: chain.companies.beta,
        libelle: 'Beta SARL',
        restaurantIds: [chain.sites.nantes, chain.sites.lille],
      },
    ]);
  });

  it('getSirets lists the companies with their SIRET and sites', async () => {
    const res = await get(`/api/bo/getSirets?id=${adminId}`);
    expect(SiretSchema.array().parse(res.json())).toEqual([
      {
        id: chain.companies.alpha,
        siret: '12345678900011',
        raisonSociale: 'Alpha SAS',
        restaurantIds: [chain.sites.paris, chain.sites.lyon],
      },
      {
        id: chain.companies.beta,
        siret: null,
        raisonSociale: 'Beta SARL',
        restaurantIds: [chain.sites.nantes, chain.sites.lille],
      },
    ]);
  });

  it('getRegroupements lists the groups with their sites and companies', async () => {
    const res = await get(`/api/bo/infra/getRegroupements?id=${adminId}`);
    expect(RegroupementSchema.array().parse(res.json())).toEqual([
      {
        id: chain.groups.nord,
        raisonSociale: 'Nord',
        raisonsSociales: ['Alpha SAS', 'Beta SARL'],
        restaurantIds: [chain.sites.paris, chain.sites.lille],
        societesPlus: [],
        societesMoins: [],
      },
      {
        id: chain.groups.ouest,
        raisonSociale: 'Ouest',
        raisonsSociales: ['Beta SARL'],
        restaurantIds: [chain.sites.nantes],
        societesPlus: [],
        societesMoins: [],
      },
    ]);
  });

  it('getCaisses answers terminals keyed by restaurantId, in terminal order, every site present', async () => {
    const res = await get(`/api/bo/getCaisses?id=${adminId}`);
    const caisses = CaissesAnswerSchema.parse(res.json());
    expect(Object.keys(caisses)).toHaveLength(4);
    expect(caisses[String(chain.sites.paris)]).toEqual({
      site: { restaurantId: chain.sites.paris, libelle: 'Paris' },
      caisses: [
        { id: 1, libelle: 'Caisse 1' },
        { id: 2, libelle: 'Caisse 2' },
      ],
    });
    expect(caisses[String(chain.sites.lille)]!.caisses).toEqual([]);
  });

  it('getVendeurs answers sellers keyed by restaurantId', async () => {
    const res = await get(`/api/bo/getVendeurs?id=${adminId}`);
    const vendeurs = VendeursAnswerSchema.parse(res.json());
    expect(vendeurs[String(chain.sites.paris)]!.vendeurs).toEqual([
      { code: '01', nom: 'Alice' },
      { code: '02', nom: 'Bob' },
    ]);
    expect(vendeurs[String(chain.sites.lyon)]).toEqual({
      site: { restaurantId: chain.sites.lyon, libelle: 'Lyon' },
      vendeurs: [{ code: '07', nom: 'Chloé' }],
    });
  });

  it('rejects a missing or malformed id with 400 BadRequest and details', async () => {
    for (const url of ['/api/bo/getSites', '/api/bo/getSites?id=abc']) {
      const res = await get(url);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'BadRequest',
        details: { issues: [expect.objectContaining({ path: '/id' })] },
      });
    }
  });

  describe('a user limited to some sites', () => {
    it('sees only the profile sites, plus companies added, minus companies removed', async () => {
      // Profile: Paris only; user adds Beta (Nantes, Lille).
      const plusId = await t.createUser({
        login: 'plus',
        password: PASSWORD,
        droits: [],
        restaurantIds: [chain.sites.paris],
        societesPlus: [chain.companies.beta],
      });
      expect(await siteScope(t.database.pool, plusId)).toEqual([
        chain.sites.paris,
        chain.sites.nantes,
        chain.sites.lille,
      ]);
      // Profile: every site; user removes Alpha.
      const minusId = await t.createUser({
        login: 'minus',
        password: PASSWORD,
        droits: [],
        allSites: true,
        societesMoins: [chain.companies.alpha],
      });
      expect(await siteScope(t.database.pool, minusId)).toEqual([chain.sites.nantes, chain.sites.lille]);
      // Removal wins over the profile's own list, and the profile's company lists count like the user's.
      const bothId = await t.createUser({
        login: 'both',
        password: PASSWORD,
        droits: [],
        restaurantIds: [chain.sites.paris, chain.sites.nantes],
        societesMoins: [chain.companies.beta],
      });
      await t.database.pool.query(`UPDATE profiles SET societes_plus = $1 WHERE titre = 'profile-both'`, [
        [chain.companies.alpha],
      ]);
      expect(await siteScope(t.database.pool, bothId)).toEqual([chain.sites.paris, chain.sites.lyon]);
      expect(await siteScope(t.database.pool, 999_999)).toEqual([]);
    });

    it('gets reference data restricted to the scope', async () => {
      const id = await t.createUser({
        login: 'lille',
        password: PASSWORD,
        droits: [],
        restaurantIds: [chain.sites.lille],
      });
      const headers = await t.signIn('lille', PASSWORD);
      const sites = SitesAnswerSchema.parse((await get(`/api/bo/getSites?id=${id}`, headers)).json());
      expect(sites.map((s) => s.libelle)).toEqual(['Lille']);
      const groups = RegroupementSchema.array().parse(
        (await get(`/api/bo/infra/getRegroupements?id=${id}`, headers)).json(),
      );
      expect(groups).toEqual([
        expect.objectContaining({
          raisonSociale: 'Nord',
          restaurantIds: [chain.sites.lille],
          raisonsSociales: ['Beta SARL'],
        }),
      ]);
      const sirets = SiretSchema.array().parse((await get(`/api/bo/getSirets?id=${id}`, headers)).json());
      expect(sirets.map((s) => s.raisonSociale)).toEqual(['Beta SARL']);
      const caisses = CaissesAnswerSchema.parse((await get(`/api/bo/getCaisses?id=${id}`, headers)).json());
      expect(Object.keys(caisses)).toEqual([String(chain.sites.lille)]);
      const vendeurs = VendeursAnswerSchema.parse(
        (await get(`/api/bo/getVendeurs?id=${id}`, headers)).json(),
      );
      expect(Object.keys(vendeurs)).toEqual([String(chain.sites.lille)]);
      const brands = EnseigneSchema.array().parse(
        (await get(`/api/bo/getEnseignes?id=${id}`, headers)).json(),
      );
      expect(brands).toEqual([
        { id: chain.companies.beta, libelle: 'Beta SARL', restaurantIds: [chain.sites.lille] },
      ]);
    });
  });

  it('restrictToScope keeps the chosen sites of the scope, or the whole scope when none is chosen', () => {
    expect(restrictToScope([3, 9, 1], [1, 2, 3])).toEqual([1, 3]);
    expect(restrictToScope([], [1, 2])).toEqual([1, 2]);
    expect(restrictToScope(undefined, [4])).toEqual([4]);
    expect(restrictToScope([], [])).toEqual([]);
  });

  it('restrictToScope refuses a choice of which no site is in the scope (403 Forbidden)', () => {
    expect(() => restrictToScope([9], [1])).toThrow(
      expect.objectContaining({ kind: 'forbidden', code: 'Forbidden' }),
    );
    expect(() => restrictToScope([9, 10], [])).toThrow(expect.objectContaining({ code: 'Forbidden' }));
  });

  it("counts the sites of a group's added companies, minus its removed ones, in getSites and getRegroupements", async () => {
    const { rows } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO groups (raison_sociale, societes_plus, societes_moins) VALUES ('Alpha entière', $1, '{}'),
              ('Sans Beta', $2, $3) RETURNING id`,
      [[chain.companies.alpha], [chain.companies.alpha, chain.companies.beta], [chain.companies.beta]],
    );
    const [alphaOnly, withoutBeta] = rows.map((r) => r.id);
    await t.database.pool.query('INSERT INTO group_sites (group_id, site_id) VALUES ($1, $2)', [
      withoutBeta,
      chain.sites.lille,
    ]);
    try {
      const sites = SitesAnswerSchema.parse((await get(`/api/bo/getSites?id=${adminId}`)).json());
      expect(Object.fromEntries(sites.map((s) => [s.libelle, s.groupe]))).toEqual({
        Paris: ['Alpha entière', 'Nord', 'Sans Beta'],
        Lyon: ['Alpha entière', 'Sans Beta'],
        Nantes: ['Ouest'],
        // Lille is a site of Sans Beta, but of company Beta, which Sans Beta removes.
        Lille: ['Nord'],
      });
      const groups = RegroupementSchema.array().parse(
        (await get(`/api/bo/infra/getRegroupements?id=${adminId}`)).json(),
      );
      const alpha = [chain.sites.paris, chain.sites.lyon];
      expect(groups.filter((g) => g.id === alphaOnly || g.id === withoutBeta)).toEqual([
        {
          id: alphaOnly,
          raisonSociale: 'Alpha entière',
          raisonsSociales: ['Alpha SAS'],
          restaurantIds: alpha,
          societesPlus: [],
          societesMoins: [],
        },
        {
          id: withoutBeta,
          raisonSociale: 'Sans Beta',
          raisonsSociales: ['Alpha SAS'],
          restaurantIds: alpha,
          societesPlus: [],
          societesMoins: [],
        },
      ]);
    } finally {
      await t.database.pool.query('DELETE FROM groups WHERE id = ANY($1::int[])', [[alphaOnly, withoutBeta]]);
    }
  });
});

describe('getSites for a TOTAL distribution', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { distribution: 'TOTAL' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('puts every site in group TOUS (SPEC.md §3)', async () => {
    await seedChain(t.database.pool);
    const id = await t.createUser({ login: 'boss', password: PASSWORD, droits: [], allSites: true });
    const headers = await t.signIn('boss', PASSWORD);
    const sites = SitesAnswerSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/bo/getSites?id=${id}`, headers })).json(),
    );
    expect(sites.every((s) => s.groupe.length === 1 && s.groupe[0] === 'TOUS')).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminRegroupementSchema } from '../../../src/contract/administration.ts';
import { RegroupementSchema, SitesAnswerSchema } from '../../../src/contract/api.ts';
import { type AdminSetup, adminSetup, PASSWORD } from './company-site-setup.ts';

const AdminGroups = AdminRegroupementSchema.array();

describe('administration of groups (getRegroupements without id, newRegroupement, saveRegroupement, removeRegroupement)', () => {
  let s: AdminSetup;
  const listGroups = async () => AdminGroups.parse((await s.get('bo/infra/getRegroupements')).json());

  beforeAll(async () => {
    s = await adminSetup();
  });
  afterAll(async () => {
    await s.t.close();
  });

  it('lists every group for administration, with its companies and effective sites', async () => {
    const res = await s.get(`bo/infra/getRegroupements?_=${Date.now()}`);
    expect(res.statusCode).toBe(200);
    expect(AdminGroups.parse(res.json())).toEqual([
      {
        id: s.chain.groups.nord,
        raisonSociale: 'Nord',
        raisonsSociales: ['Alpha SAS', 'Beta SARL'],
        restaurantIds: [s.chain.sites.paris, s.chain.sites.lille],
        societesPlus: [],
        societesMoins: [],
        sites: [s.chain.sites.paris, s.chain.sites.lille],
      },
      {
        id: s.chain.groups.ouest,
        raisonSociale: 'Ouest',
        raisonsSociales: ['Beta SARL'],
        restaurantIds: [s.chain.sites.nantes],
        societesPlus: [],
        societesMoins: [],
        sites: [s.chain.sites.nantes],
      },
    ]);
  });

  it('keeps the scope answer with id, and refuses the whole list to a user without CONFIGURATION', async () => {
    const userId = await s.t.createUser({
      login: 'lille',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [s.chain.sites.lille],
    });
    const headers = await s.t.signIn('lille', PASSWORD);
    const scoped = await s.get(`bo/infra/getRegroupements?id=${userId}`, headers);
    expect(scoped.statusCode).toBe(200);
    const groups = RegroupementSchema.array().parse(scoped.json());
    expect(groups).toEqual([
      {
        id: s.chain.groups.nord,
        raisonSociale: 'Nord',
        raisonsSociales: ['Beta SARL'],
        restaurantIds: [s.chain.sites.lille],
        societesPlus: [],
        societesMoins: [],
      },
    ]);
    expect(scoped.json()[0]).not.toHaveProperty('sites');

    const all = await s.get('bo/infra/getRegroupements', headers);
    expect(all.statusCode).toBe(403);
    expect(all.json()).toMatchObject({ code: 'Forbidden' });
    // The administrator asking with their own id gets their scope's answer, as before.
    const own = await s.get(`bo/infra/getRegroupements?id=${s.adminId}`);
    expect(own.json()[0]).not.toHaveProperty('sites');
  });

  it('creates a group from sites and companies, removal winning, and audits group.create', async () => {
    const res = await s.post('bo/infra/newRegroupement', {
      raisonSociale: 'Sud',
      restaurantIds: [s.chain.sites.lille, s.chain.sites.paris],
      societesIdPlus: `${s.chain.companies.alpha}`,
      societesIdMoins: [s.chain.companies.beta],
    });
    expect(res.statusCode).toBe(200);
    const group = AdminRegroupementSchema.parse(res.json());
    expect(group).toMatchObject({
      raisonSociale: 'Sud',
      restaurantIds: [s.chain.sites.paris, s.chain.sites.lille],
      societesPlus: [s.chain.companies.alpha],
      societesMoins: [s.chain.companies.beta],
      sites: [s.chain.sites.paris, s.chain.sites.lyon],
      raisonsSociales: ['Alpha SAS'],
    });
    expect((await listGroups()).map((g) => g.raisonSociale)).toEqual(['Nord', 'Ouest', 'Sud']);
    expect((await s.audit('group.create')).at(-1)).toMatchObject({
      user_id: s.adminId,
      kind: 'group',
      target_id: String(group.id),
      before: null,
      after: { raisonSociale: 'Sud', sites: [s.chain.sites.paris, s.chain.sites.lyon] },
      address: '127.0.0.1',
    });
    // Its sites are now in group Sud for bo/getSites.
    const sites = SitesAnswerSchema.parse((await s.get(`bo/getSites?id=${s.adminId}`)).json());
    expect(sites.find((x) => x.restaurantId === s.chain.sites.paris)!.groupe).toEqual(['Nord', 'Sud']);
  });

  it('refuses a taken name and unknown sites or companies, writing nothing', async () => {
    const before = (await s.audit()).length;
    const taken = await s.post('bo/infra/newRegroupement', { raisonSociale: 'nord' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({
      code: 'InvalidField',
      details: { field: 'raisonSociale', duplicate: true },
    });
    const sites = await s.post('bo/infra/newRegroupement', {
      raisonSociale: 'Est',
      restaurantIds: [999_998, 999_999],
    });
    expect(sites.json()).toMatchObject({
      code: 'InvalidField',
      details: { field: 'restaurantIds', unknown: [999_998, 999_999] },
    });
    const companies = await s.post('bo/infra/newRegroupement', {
      raisonSociale: 'Est',
      societesIdPlus: '999999',
    });
    expect(companies.json()).toMatchObject({ code: 'InvalidField', details: { field: 'societesIdPlus' } });
    expect(await s.audit()).toHaveLength(before);
    expect((await listGroups()).map((g) => g.raisonSociale)).not.toContain('Est');
  });

  it('saves a group with before and after in the audit log; an unknown id is 404', async () => {
    const res = await s.post(`bo/infra/saveRegroupement?id=${s.chain.groups.ouest}`, {
      raisonSociale: 'Ouest et Sud-Ouest',
      restaurantIds: [s.chain.sites.nantes, s.chain.sites.lyon],
    });
    expect(res.statusCode).toBe(200);
    expect(AdminRegroupementSchema.parse(res.json())).toMatchObject({
      id: s.chain.groups.ouest,
      raisonSociale: 'Ouest et Sud-Ouest',
      restaurantIds: [s.chain.sites.lyon, s.chain.sites.nantes],
      raisonsSociales: ['Alpha SAS', 'Beta SARL'],
    });
    expect((await s.audit('group.save')).at(-1)).toMatchObject({
      target_id: String(s.chain.groups.ouest),
      before: { raisonSociale: 'Ouest', restaurantIds: [s.chain.sites.nantes] },
      after: {
        raisonSociale: 'Ouest et Sud-Ouest',
        restaurantIds: [s.chain.sites.lyon, s.chain.sites.nantes],
      },
    });
    const missing = await s.post('bo/infra/saveRegroupement?id=999999', { raisonSociale: 'X' });
    expect(missing.statusCode).toBe(404);
  });

  it('removes a group once, its sites staying: HEAD does nothing, a replayed Idempotency-Key answers the same', async () => {
    const id = s.chain.groups.nord;
    const url = `/api/bo/infra/removeRegroupement?id=${id}`;
    const head = await s.t.app.inject({ method: 'HEAD', url, headers: s.admin });
    expect([404, 405]).toContain(head.statusCode);
    expect((await listGroups()).map((g) => g.id)).toContain(id);

    const headers = { ...s.admin, 'idempotency-key': crypto.randomUUID() };
    const first = await s.t.app.inject({ method: 'GET', url, headers });
    const again = await s.t.app.inject({ method: 'GET', url, headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ id });
    expect(again.headers['idempotent-replayed']).toBe('true');

    const removals = (await s.audit('group.remove')).filter((r) => r.target_id === String(id));
    expect(removals).toHaveLength(1);
    expect(removals[0]).toMatchObject({ before: { raisonSociale: 'Nord' }, after: null });
    expect((await listGroups()).map((g) => g.id)).not.toContain(id);
    const sites = SitesAnswerSchema.parse((await s.get(`bo/getSites?id=${s.adminId}`)).json());
    const lille = sites.find((x) => x.restaurantId === s.chain.sites.lille);
    expect(lille!.groupe).not.toContain('Nord');

    expect((await s.t.app.inject({ method: 'GET', url, headers: s.admin })).statusCode).toBe(404);
  });

  it('refuses the writes to a user without CONFIGURATION', async () => {
    await s.t.createUser({ login: 'manager', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
    const headers = await s.t.signIn('manager', PASSWORD);
    expect((await s.post('bo/infra/newRegroupement', { raisonSociale: 'Pirate' }, headers)).statusCode).toBe(
      403,
    );
    const remove = await s.get(`bo/infra/removeRegroupement?id=${s.chain.groups.ouest}`, headers);
    expect(remove.statusCode).toBe(403);
    expect((await listGroups()).map((g) => g.id)).toContain(s.chain.groups.ouest);
  });

  it('publishes its calls and both answers of getRegroupements in the OpenAPI document', async () => {
    const doc = (await s.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    expect(doc.paths['/api/bo/infra/newRegroupement']?.post).toBeDefined();
    expect(doc.paths['/api/bo/infra/saveRegroupement']?.post).toBeDefined();
    expect(doc.paths['/api/bo/infra/removeRegroupement']?.get).toBeDefined();
    const answer = JSON.stringify(doc.paths['/api/bo/infra/getRegroupements']!.get!.responses['200']);
    expect(answer).toMatch(/anyOf|oneOf/);
    expect(answer).toContain('societesMoins');
    expect(answer).toContain('"sites"');
  });
});

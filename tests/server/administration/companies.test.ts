import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SocieteSchema } from '../../../src/contract/administration.ts';
import { SitesAnswerSchema } from '../../../src/contract/api.ts';
import { type AdminSetup, adminSetup, PASSWORD } from './company-site-setup.ts';

const Societes = SocieteSchema.array();

describe('administration of companies (getSocietes, newSociete, saveSociete, removeSociete)', () => {
  let s: AdminSetup;
  beforeAll(async () => {
    s = await adminSetup();
  });
  afterAll(async () => {
    await s.t.close();
  });

  it('lists every company with its sites, terminals and sellers, the NON REMPLI site flagged hidden', async () => {
    const { rows } = await s.t.database.pool.query<{ id: number }>(
      `INSERT INTO sites (libelle, company_id) VALUES ('NON REMPLI', $1) RETURNING id`,
      [s.chain.companies.beta],
    );
    const hiddenId = rows[0]!.id;
    const res = await s.get('bo/infra/getSocietes');
    expect(res.statusCode).toBe(200);
    const societes = Societes.parse(res.json());
    expect(societes.map((c) => c.raisonSociale)).toEqual(['Alpha SAS', 'Beta SARL']);
    const alpha = societes[0]!;
    expect(alpha).toMatchObject({
      id: s.chain.companies.alpha,
      enseigne: 'Alpha',
      siret: '12345678900011',
      siren: null,
      restaurantId: s.chain.sites.paris,
      restaurantIds: [s.chain.sites.paris, s.chain.sites.lyon],
    });
    expect(alpha.sites[0]).toEqual({
      restaurantId: s.chain.sites.paris,
      libelle: 'Paris',
      societeId: s.chain.companies.alpha,
      codeImplant: 'P01',
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      dayStart: '00:00',
      hidden: false,
      caisses: [
        { id: 1, libelle: 'Caisse 1' },
        { id: 2, libelle: 'Caisse 2' },
      ],
      vendeurs: [
        { code: '01', nom: 'Alice' },
        { code: '02', nom: 'Bob' },
      ],
    });
    const beta = societes[1]!;
    expect(beta.sites.find((site) => site.restaurantId === hiddenId)).toMatchObject({
      libelle: 'NON REMPLI',
      hidden: true,
    });
    expect(beta.sites.filter((site) => site.hidden)).toHaveLength(1);

    // bo/getSites answers it as before: labelled NON REMPLI, which every picker of the client hides.
    const sites = SitesAnswerSchema.parse((await s.get(`bo/getSites?id=${s.adminId}`)).json());
    expect(sites.find((site) => site.restaurantId === hiddenId)?.libelle).toBe('NON REMPLI');
    await s.t.database.pool.query('DELETE FROM sites WHERE id = $1', [hiddenId]);
  });

  it('creates a company and writes company.create to the audit log with who and from where', async () => {
    const res = await s.post('bo/infra/newSociete', {
      raisonSociale: '  Gamma SAS ',
      siren: '552100554',
      siret: '55210055400013',
      enseigne: '',
      codeLicence: 'LIC-9',
    });
    expect(res.statusCode).toBe(200);
    const created = SocieteSchema.parse(res.json());
    expect(created).toMatchObject({
      raisonSociale: 'Gamma SAS',
      enseigne: null,
      siren: '552100554',
      siret: '55210055400013',
      codeLicence: 'LIC-9',
      codeImplant: null,
      restaurantId: null,
      restaurantIds: [],
      sites: [],
    });
    const [entry] = await s.audit('company.create');
    expect(entry).toMatchObject({
      user_id: s.adminId,
      action: 'company.create',
      kind: 'company',
      target_id: String(created.id),
      before: null,
      after: { raisonSociale: 'Gamma SAS', siren: '552100554', restaurantIds: [] },
      address: '127.0.0.1',
    });
    const listed = Societes.parse((await s.get('bo/infra/getSocietes')).json());
    expect(listed.map((c) => c.raisonSociale)).toContain('Gamma SAS');
  });

  it('refuses a SIRET not starting with the SIREN, and a taken name whatever its case, writing nothing', async () => {
    const before = (await s.audit()).length;
    const badSiret = await s.post('bo/infra/newSociete', {
      raisonSociale: 'Delta',
      siren: '552100554',
      siret: '12345678900011',
    });
    expect(badSiret.statusCode).toBe(400);
    expect(badSiret.json()).toMatchObject({ code: 'InvalidField', details: { field: 'siret' } });

    const taken = await s.post('bo/infra/newSociete', { raisonSociale: 'alpha sas' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({
      code: 'InvalidField',
      details: { field: 'raisonSociale', duplicate: true },
    });

    const shortSiren = await s.post('bo/infra/newSociete', { raisonSociale: 'Delta', siren: '1234' });
    expect(shortSiren.statusCode).toBe(400);
    expect(shortSiren.json()).toMatchObject({ code: 'BadRequest' });

    const unknownSite = await s.post('bo/infra/newSociete', {
      raisonSociale: 'Delta',
      restaurantId: 999_999,
    });
    expect(unknownSite.statusCode).toBe(400);
    expect(unknownSite.json()).toMatchObject({ code: 'InvalidField', details: { field: 'restaurantId' } });

    expect(await s.audit()).toHaveLength(before);
    const names = Societes.parse((await s.get('bo/infra/getSocietes')).json()).map((c) => c.raisonSociale);
    expect(names).not.toContain('Delta');
  });

  it("moves newSociete's restaurantId into the new company, and the scopes that depend on it follow at once", async () => {
    // A user seeing Alpha's sites through societesPlus; their session is checked (and cached) first.
    const userId = await s.t.createUser({
      login: 'alpha-fan',
      password: PASSWORD,
      droits: [],
      societesPlus: [s.chain.companies.alpha],
    });
    const headers = await s.t.signIn('alpha-fan', PASSWORD);
    const seen = async () =>
      SitesAnswerSchema.parse((await s.get(`bo/getSites?id=${userId}`, headers)).json()).map(
        (site) => site.libelle,
      );
    expect(await seen()).toEqual(['Paris', 'Lyon']);

    const res = await s.post('bo/infra/newSociete', {
      raisonSociale: 'Lyon SARL',
      restaurantId: s.chain.sites.lyon,
    });
    expect(res.statusCode).toBe(200);
    const created = SocieteSchema.parse(res.json());
    expect(created.restaurantIds).toEqual([s.chain.sites.lyon]);
    expect(created.sites.map((site) => site.libelle)).toEqual(['Lyon']);

    expect(await seen()).toEqual(['Paris']);
    const moves = await s.audit('site.save');
    expect(moves.at(-1)).toMatchObject({
      target_id: String(s.chain.sites.lyon),
      before: { societeId: s.chain.companies.alpha },
      after: { societeId: created.id },
    });
    expect((await s.audit('company.create')).at(-1)).toMatchObject({
      target_id: String(created.id),
      after: { restaurantIds: [s.chain.sites.lyon] },
    });
  });

  it('saves a company with before and after in the audit log; an unknown id is 404', async () => {
    const res = await s.post(`bo/infra/saveSociete?id=${s.chain.companies.beta}`, {
      raisonSociale: 'Beta SA',
      siren: '123456789',
      siret: '12345678900027',
      codeImplant: 'B-1',
    });
    expect(res.statusCode).toBe(200);
    expect(SocieteSchema.parse(res.json())).toMatchObject({
      id: s.chain.companies.beta,
      raisonSociale: 'Beta SA',
      siren: '123456789',
      siret: '12345678900027',
      codeImplant: 'B-1',
      restaurantIds: [s.chain.sites.nantes, s.chain.sites.lille],
    });
    const entry = (await s.audit('company.save')).at(-1);
    expect(entry).toMatchObject({
      target_id: String(s.chain.companies.beta),
      before: { raisonSociale: 'Beta SARL', siren: null, codeImplant: null },
      after: { raisonSociale: 'Beta SA', siren: '123456789', codeImplant: 'B-1' },
    });

    // Its own name, whatever the case, is not a duplicate.
    const same = await s.post(`bo/infra/saveSociete?id=${s.chain.companies.beta}`, {
      raisonSociale: 'BETA SA',
    });
    expect(same.statusCode).toBe(200);

    const missing = await s.post('bo/infra/saveSociete?id=999999', { raisonSociale: 'Nobody' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NotFound' });
  });

  it('refuses to remove a company while sites run under it, naming them, and writes no audit entry', async () => {
    const before = (await s.audit()).length;
    const res = await s.get(`bo/infra/removeSociete?id=${s.chain.companies.alpha}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'InUse', details: { sites: ['Paris'] } });
    expect(await s.audit()).toHaveLength(before);
  });

  it('refuses to remove a company a group, profile or user still adds or removes, naming them', async () => {
    const created = SocieteSchema.parse(
      (await s.post('bo/infra/newSociete', { raisonSociale: 'Epsilon' })).json(),
    );
    const group = await s.post('bo/infra/newRegroupement', {
      raisonSociale: 'Sans Epsilon',
      societesIdMoins: [created.id],
    });
    expect(group.statusCode).toBe(200);
    await s.t.createUser({ login: 'eps', password: PASSWORD, droits: [], societesPlus: [created.id] });
    const res = await s.get(`bo/infra/removeSociete?id=${created.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'InUse',
      details: { groups: ['Sans Epsilon'], users: ['eps'] },
    });
    expect(res.json().details).not.toHaveProperty('sites');
  });

  it('removes an unused company once: HEAD does nothing, a replayed Idempotency-Key answers the same', async () => {
    const created = SocieteSchema.parse(
      (await s.post('bo/infra/newSociete', { raisonSociale: 'Zeta' })).json(),
    );
    const url = `/api/bo/infra/removeSociete?id=${created.id}`;

    const head = await s.t.app.inject({ method: 'HEAD', url, headers: s.admin });
    expect([404, 405]).toContain(head.statusCode);
    const stillThere = Societes.parse((await s.get('bo/infra/getSocietes')).json());
    expect(stillThere.map((c) => c.id)).toContain(created.id);

    const key = crypto.randomUUID();
    const headers = { ...s.admin, 'idempotency-key': key };
    const first = await s.t.app.inject({ method: 'GET', url, headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id: created.id });
    const again = await s.t.app.inject({ method: 'GET', url, headers });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ id: created.id });
    expect(again.headers['idempotent-replayed']).toBe('true');

    const removals = (await s.audit('company.remove')).filter((r) => r.target_id === String(created.id));
    expect(removals).toHaveLength(1);
    expect(removals[0]).toMatchObject({ before: { raisonSociale: 'Zeta' }, after: null });
    const after = Societes.parse((await s.get('bo/infra/getSocietes')).json());
    expect(after.map((c) => c.id)).not.toContain(created.id);

    // Without the key, removing it again is a plain 404.
    expect((await s.t.app.inject({ method: 'GET', url, headers: s.admin })).statusCode).toBe(404);
  });

  it('refuses every call to a user without CONFIGURATION', async () => {
    await s.t.createUser({ login: 'manager', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
    const headers = await s.t.signIn('manager', PASSWORD);
    expect((await s.get('bo/infra/getSocietes', headers)).statusCode).toBe(403);
    expect((await s.post('bo/infra/newSociete', { raisonSociale: 'Eta' }, headers)).statusCode).toBe(403);
    expect((await s.get(`bo/infra/removeSociete?id=${s.chain.companies.beta}`, headers)).statusCode).toBe(
      403,
    );
  });

  it('publishes its calls in the OpenAPI document, the removal as a GET without HEAD', async () => {
    const doc = (await s.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { description?: string }>>;
    }>();
    expect(Object.keys(doc.paths['/api/bo/infra/getSocietes']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/bo/infra/newSociete']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/bo/infra/saveSociete']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/bo/infra/removeSociete']!)).toEqual(['get']);
    expect(doc.paths['/api/bo/infra/removeSociete']!.get!.description).toMatch(/InUse/);
  });
});

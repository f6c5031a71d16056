import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminSiteSchema, SocieteSchema } from '../../../src/contract/administration.ts';
import { CaissesAnswerSchema, SitesAnswerSchema, VendeursAnswerSchema } from '../../../src/contract/api.ts';
import { uniqueName } from '../../../src/server/administration/company-site-checks.ts';
import { type AdminSetup, adminSetup, PASSWORD } from './company-site-setup.ts';

describe('administration of sites (newSite, saveSite)', () => {
  let s: AdminSetup;
  const newSite = (body: Record<string, unknown>) =>
    s.post('bo/infra/newSite', {
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      dayStart: '05:00',
      societeId: s.chain.companies.alpha,
      ...body,
    });
  const getSites = async () => SitesAnswerSchema.parse((await s.get(`bo/getSites?id=${s.adminId}`)).json());

  beforeAll(async () => {
    s = await adminSetup();
  });
  afterAll(async () => {
    await s.t.close();
  });

  it('creates a site with terminals and sellers; code_implant is in the site and in extras', async () => {
    const res = await newSite({
      libelle: 'Marseille',
      codeImplant: 'M01',
      caisses: [
        { id: 2, libelle: 'Bar' },
        { id: 1, libelle: 'Salle' },
      ],
      vendeurs: [{ code: '10', nom: 'Denis' }],
    });
    expect(res.statusCode).toBe(200);
    const site = AdminSiteSchema.parse(res.json());
    expect(site).toMatchObject({
      libelle: 'Marseille',
      societeId: s.chain.companies.alpha,
      codeImplant: 'M01',
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      dayStart: '05:00',
      hidden: false,
      caisses: [
        { id: 1, libelle: 'Salle' },
        { id: 2, libelle: 'Bar' },
      ],
      vendeurs: [{ code: '10', nom: 'Denis' }],
    });
    const { rows } = await s.t.database.pool.query('SELECT code_implant, extras FROM sites WHERE id = $1', [
      site.restaurantId,
    ]);
    expect(rows[0]).toEqual({ code_implant: 'M01', extras: { code_implant: 'M01' } });

    // The administrator sees every site, present and future: the new one is in their reference data.
    const listed = (await getSites()).find((x) => x.restaurantId === site.restaurantId);
    expect(listed).toMatchObject({ libelle: 'Marseille', extras: { code_implant: 'M01' }, groupe: ['TOUS'] });
    const caisses = CaissesAnswerSchema.parse((await s.get(`bo/getCaisses?id=${s.adminId}`)).json());
    expect(caisses[String(site.restaurantId)]!.caisses).toEqual([
      { id: 1, libelle: 'Salle' },
      { id: 2, libelle: 'Bar' },
    ]);

    const entry = (await s.audit('site.create')).at(-1);
    expect(entry).toMatchObject({
      user_id: s.adminId,
      kind: 'site',
      target_id: String(site.restaurantId),
      before: null,
      after: { libelle: 'Marseille', codeImplant: 'M01', dayStart: '05:00' },
      address: '127.0.0.1',
    });
  });

  it('keeps a time zone in its canonical spelling and refuses one Intl does not know', async () => {
    const res = await newSite({ libelle: 'Cayenne', timeZone: 'america/cayenne' });
    expect(res.statusCode).toBe(200);
    expect(AdminSiteSchema.parse(res.json()).timeZone).toBe('America/Cayenne');

    const before = (await s.audit()).length;
    const bad = await newSite({ libelle: 'Atlantis', timeZone: 'Atlantis/Capital' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'InvalidField', details: { field: 'timeZone' } });
    expect(await s.audit()).toHaveLength(before);
    expect((await getSites()).map((x) => x.libelle)).not.toContain('Atlantis');
  });

  it('refuses a taken libelle, an unknown company, a bad dayStart or currency, and terminals given twice', async () => {
    const before = (await s.audit()).length;
    const taken = await newSite({ libelle: 'PARIS' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({
      code: 'InvalidField',
      details: { field: 'libelle', duplicate: true },
    });

    const company = await newSite({ libelle: 'Nice', societeId: 999_999 });
    expect(company.statusCode).toBe(400);
    expect(company.json()).toMatchObject({ code: 'InvalidField', details: { field: 'societeId' } });

    const twice = await newSite({
      libelle: 'Nice',
      caisses: [
        { id: 1, libelle: 'A' },
        { id: 1, libelle: 'B' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({
      code: 'InvalidField',
      details: { field: 'caisses', duplicate: true },
    });

    for (const body of [
      { libelle: 'Nice', dayStart: '25:00' },
      { libelle: 'Nice', currency: 'euro' },
      { libelle: '   ' },
    ]) {
      const res = await newSite(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'BadRequest' });
    }
    expect(await s.audit()).toHaveLength(before);
  });

  it('saves a site: fields replaced, terminals and sellers renamed or added, others kept, before/after audited', async () => {
    const paris = s.chain.sites.paris;
    const res = await s.post(`bo/infra/saveSite?id=${paris}`, {
      libelle: 'Paris Opéra',
      societeId: s.chain.companies.alpha,
      codeImplant: 'P02',
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      dayStart: '04:30',
      caisses: [
        { id: 2, libelle: 'Terrasse' },
        { id: 3, libelle: 'Comptoir' },
      ],
      vendeurs: [{ code: '03', nom: 'Emma' }],
    });
    expect(res.statusCode).toBe(200);
    expect(AdminSiteSchema.parse(res.json())).toMatchObject({
      libelle: 'Paris Opéra',
      codeImplant: 'P02',
      dayStart: '04:30',
      caisses: [
        { id: 1, libelle: 'Caisse 1' },
        { id: 2, libelle: 'Terrasse' },
        { id: 3, libelle: 'Comptoir' },
      ],
      vendeurs: [
        { code: '01', nom: 'Alice' },
        { code: '02', nom: 'Bob' },
        { code: '03', nom: 'Emma' },
      ],
    });
    const listed = (await getSites()).find((x) => x.restaurantId === paris);
    expect(listed).toMatchObject({ libelle: 'Paris Opéra', extras: { code_implant: 'P02' } });
    const vendeurs = VendeursAnswerSchema.parse((await s.get(`bo/getVendeurs?id=${s.adminId}`)).json());
    expect(vendeurs[String(paris)]!.site.libelle).toBe('Paris Opéra');

    const entry = (await s.audit('site.save')).at(-1);
    expect(entry).toMatchObject({
      target_id: String(paris),
      before: { libelle: 'Paris', codeImplant: 'P01', dayStart: '00:00' },
      after: { libelle: 'Paris Opéra', codeImplant: 'P02', dayStart: '04:30' },
    });
    expect((entry!.after!.caisses as unknown[]).length).toBe(3);

    const missing = await s.post('bo/infra/saveSite?id=999999', {
      libelle: 'X',
      societeId: s.chain.companies.alpha,
      currency: 'EUR',
      timeZone: 'UTC',
      dayStart: '00:00',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('moves a site to another company: the scopes of users holding companies follow at once', async () => {
    const userId = await s.t.createUser({
      login: 'beta-fan',
      password: PASSWORD,
      droits: [],
      societesPlus: [s.chain.companies.beta],
    });
    const headers = await s.t.signIn('beta-fan', PASSWORD);
    const seen = async () =>
      SitesAnswerSchema.parse((await s.get(`bo/getSites?id=${userId}`, headers)).json()).map(
        (x) => x.libelle,
      );
    expect(await seen()).toEqual(['Nantes', 'Lille']);

    const res = await s.post(`bo/infra/saveSite?id=${s.chain.sites.lyon}`, {
      libelle: 'Lyon',
      societeId: s.chain.companies.beta,
      codeImplant: 'L01',
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      dayStart: '00:00',
    });
    expect(res.statusCode).toBe(200);
    expect(await seen()).toEqual(['Lyon', 'Nantes', 'Lille']);
    const beta = SocieteSchema.array()
      .parse((await s.get('bo/infra/getSocietes')).json())
      .find((c) => c.id === s.chain.companies.beta);
    expect(beta!.restaurantIds).toEqual([s.chain.sites.lyon, s.chain.sites.nantes, s.chain.sites.lille]);
  });

  it("renames a site in the reports at once (the reports' site cache is emptied before the answer)", async () => {
    const userId = await s.t.createUser({
      login: 'ines',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [s.chain.sites.nantes],
    });
    const headers = await s.t.signIn('ines', PASSWORD);
    const reportSites = async () => {
      const res = await s.get(
        `bo/getReport?id=${userId}&rapportClassName=RapportVentes&typeRapport=Daily&format=JSON` +
          `&dateDebut=2026-03-01&dateFin=2026-03-02&sites[]=${s.chain.sites.nantes}`,
        headers,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json().sites.map((x: { libelle: string }) => x.libelle);
    };
    expect(await reportSites()).toEqual(['Nantes']);
    const res = await s.post(`bo/infra/saveSite?id=${s.chain.sites.nantes}`, {
      libelle: 'Nantes Centre',
      societeId: s.chain.companies.beta,
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      dayStart: '00:00',
    });
    expect(res.statusCode).toBe(200);
    expect(await reportSites()).toEqual(['Nantes Centre']);
  });

  it('answers a replayed Idempotency-Key with the first answer and one audit entry', async () => {
    const headers = { ...s.admin, 'idempotency-key': crypto.randomUUID() };
    const body = {
      libelle: 'Brest',
      societeId: s.chain.companies.beta,
      currency: 'EUR',
      timeZone: 'Europe/Paris',
      dayStart: '00:00',
    };
    const first = await s.post('bo/infra/newSite', body, headers);
    const again = await s.post('bo/infra/newSite', body, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const created = (await s.audit('site.create')).filter((r) => r.after?.libelle === 'Brest');
    expect(created).toHaveLength(1);
  });

  it('turns a unique violation of a name saved at the same time by someone else into the same refusal', async () => {
    const write = () =>
      s.t.database.pool.query('INSERT INTO sites (libelle, company_id) VALUES ($1, $2)', [
        'Lille',
        s.chain.companies.beta,
      ]);
    await expect(uniqueName('libelle', 'Lille', write)).rejects.toMatchObject({
      kind: 'invalid',
      code: 'InvalidField',
      details: { field: 'libelle', duplicate: true },
    });
    await expect(uniqueName('libelle', 'x', () => Promise.reject(new Error('other')))).rejects.toThrow(
      'other',
    );
  });

  it('publishes its calls in the OpenAPI document, saying existing tickets keep their fiscal dates', async () => {
    const doc = (await s.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { description?: string }>>;
    }>();
    expect(doc.paths['/api/bo/infra/newSite']!.post!.description).toMatch(/keep their fiscal dates/);
    expect(doc.paths['/api/bo/infra/saveSite']!.post!.description).toMatch(/keep their fiscal dates/);
  });
});

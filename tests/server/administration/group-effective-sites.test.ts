/**
 * A group's effective sites (own sites + sites of added companies − sites of removed companies,
 * reference/site-groups.ts) mean the same in administration, bo/getSites' `groupe`,
 * getRegroupements?id and the report's filtre=GROUPE / regroupement=GROUPE, within each user's
 * scope; and a change of a group's company lists shows at once everywhere (no cache holds groups).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminRegroupementSchema } from '../../../src/contract/administration.ts';
import { RegroupementSchema, type Site, SitesAnswerSchema } from '../../../src/contract/api.ts';
import { datasetAnswer } from '../../helpers/dataset-answer.ts';
import { type AdminSetup, adminSetup, PASSWORD } from './company-site-setup.ts';

describe("a group's effective sites, everywhere", () => {
  let s: AdminSetup;
  /** Group made only of company Beta (Nantes, Lille): no site of its own. */
  let betaOnly: number;
  /** Group of Paris and Nantes, plus company Alpha, minus company Beta: Paris and Lyon. */
  let sud: number;
  let scopedId: number;
  let scoped: Record<string, string>;
  /** A reader of reports on every site (the administrator has no RAPPORTS right). */
  let readerId: number;
  let reader: Record<string, string>;

  const sitesOf = async (userId: number, headers?: Record<string, string>) => {
    const res = await s.get(`bo/getSites?id=${userId}&_=${Math.random()}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries(SitesAnswerSchema.parse(res.json()).map((x) => [x.libelle, x])) as Record<
      string,
      Site
    >;
  };
  const groupsOf = async (userId: number, headers?: Record<string, string>) => {
    const res = await s.get(`bo/infra/getRegroupements?id=${userId}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return RegroupementSchema.array().parse(res.json());
  };
  const report = async (userId: number, query: string, headers?: Record<string, string>) => {
    const res = await s.get(
      `bo/getReport?id=${userId}&rapportClassName=RapportVentes&typeRapport=Daily&format=JSON` +
        `&dateDebut=2026-03-01&dateFin=2026-03-02&${query}`,
      headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    return datasetAnswer(res);
  };
  const reportSiteIds = async (userId: number, group: number, headers?: Record<string, string>) =>
    (await report(userId, `isFilters=true&filtre=GROUPE&condition=${group}`, headers)).sites.map(
      (x) => x.restaurantId,
    );

  beforeAll(async () => {
    s = await adminSetup();
    const created = async (body: object) => {
      const res = await s.post('bo/infra/newRegroupement', body);
      expect(res.statusCode, res.body).toBe(200);
      return AdminRegroupementSchema.parse(res.json());
    };
    const beta = await created({ raisonSociale: 'Beta seule', societesIdPlus: [s.chain.companies.beta] });
    expect(beta.restaurantIds).toEqual([]);
    expect(beta.sites).toEqual([s.chain.sites.nantes, s.chain.sites.lille]);
    betaOnly = beta.id;
    const south = await created({
      raisonSociale: 'Sud',
      restaurantIds: [s.chain.sites.paris, s.chain.sites.nantes],
      societesIdPlus: [s.chain.companies.alpha],
      societesIdMoins: [s.chain.companies.beta],
    });
    expect(south.sites).toEqual([s.chain.sites.paris, s.chain.sites.lyon]);
    sud = south.id;
    // A reader limited to Paris and Nantes.
    scopedId = await s.t.createUser({
      login: 'paris-nantes',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [s.chain.sites.paris, s.chain.sites.nantes],
    });
    scoped = await s.t.signIn('paris-nantes', PASSWORD);
    readerId = await s.t.createUser({
      login: 'reader',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      allSites: true,
    });
    reader = await s.t.signIn('reader', PASSWORD);
  });
  afterAll(async () => {
    await s.t.close();
  });

  it('bo/getSites names a group made only of an added company on its sites, not on a removed one', async () => {
    const sites = await sitesOf(s.adminId);
    expect(sites.Nantes!.groupe).toEqual(['Beta seule', 'Ouest']);
    expect(sites.Lille!.groupe).toEqual(['Beta seule', 'Nord']);
    // Sud lists Nantes as its own site, but removes company Beta: removal wins.
    expect(sites.Paris!.groupe).toEqual(['Nord', 'Sud']);
    expect(sites.Lyon!.groupe).toEqual(['Sud']);
    const mine = await sitesOf(scopedId, scoped);
    expect(Object.keys(mine)).toEqual(['Paris', 'Nantes']);
    expect(mine.Nantes!.groupe).toEqual(['Beta seule', 'Ouest']);
  });

  it('getRegroupements?id lists the effective sites, restricted to the scope', async () => {
    const all = await groupsOf(s.adminId);
    expect(all.find((g) => g.id === betaOnly)).toEqual({
      id: betaOnly,
      raisonSociale: 'Beta seule',
      raisonsSociales: ['Beta SARL'],
      restaurantIds: [s.chain.sites.nantes, s.chain.sites.lille],
      societesPlus: [],
      societesMoins: [],
    });
    expect(all.find((g) => g.id === sud)).toMatchObject({
      raisonsSociales: ['Alpha SAS'],
      restaurantIds: [s.chain.sites.paris, s.chain.sites.lyon],
    });
    const mine = await groupsOf(scopedId, scoped);
    expect(mine.map((g) => [g.raisonSociale, g.restaurantIds])).toEqual([
      ['Beta seule', [s.chain.sites.nantes]],
      ['Nord', [s.chain.sites.paris]],
      ['Ouest', [s.chain.sites.nantes]],
      ['Sud', [s.chain.sites.paris]],
    ]);
  });

  it('agrees with the administration list, group by group', async () => {
    const admin = AdminRegroupementSchema.array().parse((await s.get('bo/infra/getRegroupements')).json());
    const reader = await groupsOf(s.adminId);
    expect(reader.map((g) => [g.id, g.restaurantIds, g.raisonsSociales])).toEqual(
      admin.map((g) => [g.id, g.sites, g.raisonsSociales]),
    );
  });

  it('filters a report to the effective sites of the group, within the scope', async () => {
    expect(await reportSiteIds(readerId, betaOnly, reader)).toEqual([
      s.chain.sites.nantes,
      s.chain.sites.lille,
    ]);
    expect(await reportSiteIds(readerId, sud, reader)).toEqual([s.chain.sites.paris, s.chain.sites.lyon]);
    expect(await reportSiteIds(scopedId, betaOnly, scoped)).toEqual([s.chain.sites.nantes]);
    expect(await reportSiteIds(scopedId, sud, scoped)).toEqual([s.chain.sites.paris]);
    const nantesOnly = await report(scopedId, `isFilters=true&filtre=GROUPE&condition=${betaOnly}`, scoped);
    expect(new Set(nantesOnly.rows.map((r) => r.siteId))).toEqual(new Set([s.chain.sites.nantes]));
  });

  it('groups a report by the effective groups of each site (regroupement=GROUPE)', async () => {
    const bySite = new Map<unknown, number>();
    for (const r of (await report(readerId, '', reader)).rows) {
      bySite.set(r.siteId, (bySite.get(r.siteId) ?? 0) + Number(r.netSales));
    }
    const net = (...ids: number[]) => ids.reduce((sum, id) => sum + (bySite.get(id) ?? 0), 0);
    const { paris, lyon, nantes } = s.chain.sites;
    expect(net(nantes)).toBeGreaterThan(0);
    const got = await report(readerId, 'regroupement=GROUPE', reader);
    // The chain has sales at Paris, Lyon and Nantes only; Nantes is out of Sud (Beta removed).
    expect(Object.fromEntries(got.rows.map((r) => [r.siteGroup, r.netSales]))).toEqual({
      'Beta seule': net(nantes),
      Nord: net(paris),
      Ouest: net(nantes),
      Sud: net(paris, lyon),
    });
  });

  it('bo/getGroupements offers a group made only of an added company, not one whose sites are all removed', async () => {
    await s.post('bo/infra/newRegroupement', {
      raisonSociale: 'Vide',
      restaurantIds: [s.chain.sites.nantes],
      societesIdMoins: [s.chain.companies.beta],
    });
    const res = await s.get(
      `bo/getGroupements?id=${readerId}&rapportGeneralClassName=RapportVentes&filtre=GROUPE` +
        `&dateDebut=2026-03-01&dateFin=2026-03-02&restaurantId=${s.chain.sites.nantes}`,
      reader,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().groupements.map((g: { label: string }) => g.label)).toEqual(['Beta seule', 'Ouest']);
  });

  it("shows a change of a group's company lists at once, even one made behind the server's back", async () => {
    const res = await s.post(`bo/infra/saveRegroupement?id=${betaOnly}`, {
      raisonSociale: 'Beta seule',
      societesIdPlus: [s.chain.companies.alpha, s.chain.companies.beta],
      societesIdMoins: [s.chain.companies.alpha],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(AdminRegroupementSchema.parse(res.json()).sites).toEqual([
      s.chain.sites.nantes,
      s.chain.sites.lille,
    ]);
    expect((await sitesOf(s.adminId)).Paris!.groupe).not.toContain('Beta seule');

    // As psql would, with no wait for the change feed: nothing cached can show the old sites.
    await s.t.database.pool.query('UPDATE groups SET societes_plus = $2, societes_moins = $3 WHERE id = $1', [
      betaOnly,
      [s.chain.companies.alpha],
      [],
    ]);
    const sites = await sitesOf(scopedId, scoped);
    expect(sites.Paris!.groupe).toEqual(['Beta seule', 'Nord', 'Sud']);
    expect(sites.Nantes!.groupe).toEqual(['Ouest']);
    expect((await groupsOf(scopedId, scoped)).find((g) => g.id === betaOnly)!.restaurantIds).toEqual([
      s.chain.sites.paris,
    ]);
    expect(await reportSiteIds(scopedId, betaOnly, scoped)).toEqual([s.chain.sites.paris]);

    // A site moving to another company leaves or joins the groups of that company at once.
    await s.t.database.pool.query('UPDATE sites SET company_id = $2 WHERE id = $1', [
      s.chain.sites.lille,
      s.chain.companies.alpha,
    ]);
    expect((await groupsOf(s.adminId)).find((g) => g.id === betaOnly)!.restaurantIds).toEqual([
      s.chain.sites.paris,
      s.chain.sites.lyon,
      s.chain.sites.lille,
    ]);
  });

  it('lists a group whose sites are all removed nowhere but administration', async () => {
    await s.t.database.pool.query('UPDATE groups SET societes_moins = societes_plus WHERE id = $1', [
      betaOnly,
    ]);
    const admin = AdminRegroupementSchema.array().parse((await s.get('bo/infra/getRegroupements')).json());
    expect(admin.find((g) => g.id === betaOnly)).toMatchObject({ sites: [], raisonsSociales: [] });
    expect((await groupsOf(s.adminId)).map((g) => g.id)).not.toContain(betaOnly);
    expect(Object.values(await sitesOf(s.adminId)).flatMap((x) => x.groupe)).not.toContain('Beta seule');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Favourite, FavouriteSchema, FavouritesAnswerSchema } from '../../src/contract/favourites.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('favourite reports (bo/favoris, bo/favoris/save, bo/favoris/remove)', () => {
  let t: TestApp;
  let chain: Chain;
  let ownerId: number;
  let owner: Record<string, string>;
  let otherId: number;
  let other: Record<string, string>;

  const list = (id = ownerId, headers = owner) =>
    t.app.inject({ method: 'GET', url: `/api/bo/favoris?id=${id}`, headers });
  const save = (body: unknown, id = ownerId, headers = owner) =>
    t.app.inject({ method: 'POST', url: `/api/bo/favoris/save?id=${id}`, headers, payload: body as object });
  const remove = (favoriId: number, id = ownerId, headers = owner) =>
    t.app.inject({ method: 'GET', url: `/api/bo/favoris/remove?id=${id}&favoriId=${favoriId}`, headers });
  const listed = async (id = ownerId, headers = owner) =>
    FavouritesAnswerSchema.parse((await list(id, headers)).json()).favoris;

  const lastWeekSales = () => ({
    libelle: 'Ventes semaine dernière',
    typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
    type: 'Daily',
    lSites: [chain.sites.paris, chain.sites.lyon],
    lCaisses: [{ restaurantId: chain.sites.paris, terminalId: 1 }],
    vendeur: [{ restaurantId: chain.sites.lyon, code: 'V,1' }],
    periode: 'W-1',
    format: 'XLSX',
  });

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    ownerId = await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      restaurantIds: [chain.sites.paris, chain.sites.lyon],
    });
    owner = await t.signIn('gerant', PASSWORD);
    otherId = await t.createUser({
      login: 'autre',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      allSites: true,
    });
    other = await t.signIn('autre', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a favourite that keeps the period code, not dates, and lists it', async () => {
    const res = await save(lastWeekSales());
    expect(res.statusCode).toBe(200);
    const created = FavouriteSchema.parse(res.json());
    expect(created).toMatchObject({
      libelle: 'Ventes semaine dernière',
      typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
      lSites: [chain.sites.paris, chain.sites.lyon],
      lCaisses: [{ restaurantId: chain.sites.paris, terminalId: 1 }],
      vendeur: [{ restaurantId: chain.sites.lyon, code: 'V,1' }],
      periode: 'W-1',
      dateDebut: null,
      dateFin: null,
      format: 'XLSX',
      // SPEC.md §9 defaults for what was not sent
      operation: 'VENTE',
      trancheHoraire: false,
      heureDebut: '12:00',
      heureFin: '23:00',
      groupement: null,
      // no sort, grouping or filter unless sent
      tri: null,
      regroupement: null,
      isFilters: false,
      filtre: null,
      condition: [],
    });
    expect((await listed()).find((f) => f.id === created.id)).toEqual(created);
  });

  it('keeps the sort, grouping and filter of the reports screen under the wire names of bo/getReport', async () => {
    const shaped = {
      ...lastWeekSales(),
      typeRapport: { className: 'RapportVentesFamille', localisedTitle: 'Ventes par famille' },
      tri: 'netSales:desc',
      regroupement: 'FAMILLE',
      isFilters: true,
      filtre: 'TVA',
      condition: ['0.055', '0.2'],
    };
    const res = await save(shaped);
    expect(res.statusCode).toBe(200);
    const created = FavouriteSchema.parse(res.json());
    expect(created).toMatchObject({
      tri: 'netSales:desc',
      regroupement: 'FAMILLE',
      isFilters: true,
      filtre: 'TVA',
      condition: ['0.055', '0.2'],
    });
    expect((await listed()).find((f) => f.id === created.id)).toEqual(created);

    // Changed and then taken off through an update, as the reports screen saves them.
    const resorted = await save({ ...created, tri: 'family', isFilters: false, condition: [] });
    expect(FavouriteSchema.parse(resorted.json())).toMatchObject({
      tri: 'family',
      isFilters: false,
      condition: [],
    });
    const plain = await save({
      ...created,
      tri: null,
      regroupement: null,
      isFilters: false,
      filtre: null,
      condition: [],
    });
    expect((await listed()).find((f) => f.id === created.id)).toEqual(FavouriteSchema.parse(plain.json()));
    expect(FavouriteSchema.parse(plain.json())).toMatchObject({
      tri: null,
      regroupement: null,
      filtre: null,
    });
  });

  it('reads a favourite stored before sorts and filters were kept, as one without them', async () => {
    const { rows } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO favourites (user_id, libelle, request) VALUES ($1, 'Stockée avant', $2) RETURNING id`,
      [
        ownerId,
        {
          typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
          type: 'Daily',
          lSites: [chain.sites.paris],
          groupement: null,
          lCaisses: [],
          vendeur: [],
          operation: 'VENTE',
          periode: 'D',
          dateDebut: null,
          dateFin: null,
          trancheHoraire: false,
          heureDebut: '12:00',
          heureFin: '23:00',
          format: 'PDF',
        },
      ],
    );
    const old = (await listed()).find((f) => f.id === rows[0]!.id);
    expect(old).toMatchObject({
      libelle: 'Stockée avant',
      tri: null,
      regroupement: null,
      isFilters: false,
      filtre: null,
      condition: [],
    });
    // Saving it again (a rename) writes the new fields with it.
    const renamed = await save({ ...old, libelle: 'Renommée' });
    expect(renamed.statusCode).toBe(200);
    const { rows: stored } = await t.database.pool.query<{ request: Record<string, unknown> }>(
      'SELECT request FROM favourites WHERE id = $1',
      [rows[0]!.id],
    );
    expect(stored[0]!.request).toMatchObject({ tri: null, isFilters: false, condition: [] });
  });

  it('lists favourites by name, whatever the case', async () => {
    await save({ ...lastWeekSales(), libelle: 'b annulations' });
    await save({ ...lastWeekSales(), libelle: 'A corrections' });
    const names = (await listed()).map((f) => f.libelle);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names).toEqual(expect.arrayContaining(['A corrections', 'b annulations']));
  });

  it('updates a favourite when saved with its id, and renames it', async () => {
    const created = FavouriteSchema.parse((await save(lastWeekSales())).json());
    const custom = {
      ...created,
      periode: null,
      dateDebut: '2026-03-01',
      dateFin: '2026-03-02',
      trancheHoraire: true,
      heureDebut: '18:00',
      heureFin: '02:00',
    };
    const updated = await save(custom);
    expect(updated.statusCode).toBe(200);
    expect(FavouriteSchema.parse(updated.json())).toEqual(custom);

    const renamed = await save({ ...custom, libelle: '  Soirées de mars  ' });
    expect(FavouriteSchema.parse(renamed.json()).libelle).toBe('Soirées de mars');
    const stored = (await listed()).filter((f) => f.id === created.id);
    expect(stored).toEqual([{ ...custom, libelle: 'Soirées de mars' }]);
  });

  it('deletes a favourite, and a second delete answers 404', async () => {
    const created = FavouriteSchema.parse((await save(lastWeekSales())).json());
    const res = await remove(created.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: created.id });
    expect((await listed()).some((f) => f.id === created.id)).toBe(false);
    const again = await remove(created.id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'NotFound' });
  });

  it("never shows, changes or deletes another user's favourite (404, as if it did not exist)", async () => {
    const mine = FavouriteSchema.parse((await save(lastWeekSales())).json());
    expect((await listed(otherId, other)).some((f) => f.id === mine.id)).toBe(false);

    const overwrite = await save({ ...mine, libelle: 'piraté' }, otherId, other);
    expect(overwrite.statusCode).toBe(404);
    expect(overwrite.json()).toMatchObject({ code: 'NotFound' });
    const del = await remove(mine.id, otherId, other);
    expect(del.statusCode).toBe(404);

    const unchanged = (await listed()).find((f) => f.id === mine.id);
    expect(unchanged).toEqual(mine);
  });

  it("refuses to act on another user's list through the id parameter (403)", async () => {
    const res = await list(ownerId, other);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'Forbidden' });
  });

  it('drops sites outside the scope with their terminals and sellers', async () => {
    const res = await save({
      ...lastWeekSales(),
      lSites: [chain.sites.paris, chain.sites.nantes],
      lCaisses: [
        { restaurantId: chain.sites.paris, terminalId: 1 },
        { restaurantId: chain.sites.nantes, terminalId: 1 },
      ],
      vendeur: [{ restaurantId: chain.sites.nantes, code: 'N1' }],
    });
    expect(res.statusCode).toBe(200);
    expect(FavouriteSchema.parse(res.json())).toMatchObject({
      lSites: [chain.sites.paris],
      lCaisses: [{ restaurantId: chain.sites.paris, terminalId: 1 }],
      vendeur: [],
    });
  });

  it('with no site chosen keeps terminals of any site in scope, and refuses a favourite of foreign sites only', async () => {
    const all = await save({
      ...lastWeekSales(),
      lSites: [],
      lCaisses: [
        { restaurantId: chain.sites.lyon, terminalId: 3 },
        { restaurantId: chain.sites.lille, terminalId: 1 },
      ],
    });
    expect(FavouriteSchema.parse(all.json())).toMatchObject({
      lSites: [],
      lCaisses: [{ restaurantId: chain.sites.lyon, terminalId: 3 }],
    });

    const foreign = await save({ ...lastWeekSales(), lSites: [chain.sites.nantes] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'NoSitesSelected' });
  });

  it.each([
    ['an empty name', { libelle: '   ' }],
    ['a name over 80 characters', { libelle: 'x'.repeat(81) }],
    ['no report class', { typeRapport: { className: '' } }],
    ['an unknown period code', { periode: 'W-9' }],
    ['a custom period without dates', { periode: null }],
    [
      'a custom period ending before it starts',
      { periode: null, dateDebut: '2026-03-02', dateFin: '2026-03-01' },
    ],
    ['a period code and dates at once', { dateDebut: '2026-03-01', dateFin: '2026-03-02' }],
    ['an impossible date', { periode: null, dateDebut: '2026-02-30', dateFin: '2026-03-01' }],
    ['a malformed hour', { heureDebut: '25:00' }],
    ['an unknown format', { format: 'DOCX' }],
    ['a filter that is on with no value to keep', { isFilters: true, filtre: 'FAMILLE', condition: [] }],
    ['a filter that is on with no dimension', { isFilters: true, condition: ['Desserts'] }],
    ['a sort direction other than asc or desc', { tri: 'netSales:down' }],
    ['an empty grouping', { regroupement: '  ' }],
  ])('refuses %s with 400 BadRequest and stores nothing', async (_what, change) => {
    const before = (await listed()).length;
    const res = await save({ ...lastWeekSales(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BadRequest' });
    expect((await listed()).length).toBe(before);
  });

  it('refuses to update or delete with a malformed favourite id (400)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/bo/favoris/remove?id=${ownerId}&favoriId=abc`,
      headers: owner,
    });
    expect(res.statusCode).toBe(400);
    const update = await save({ ...lastWeekSales(), id: -3 });
    expect(update.statusCode).toBe(400);
  });

  it("a user's favourites go with the user", async () => {
    const goneId = await t.createUser({
      login: 'parti',
      password: PASSWORD,
      droits: ['RAPPORTS'],
      allSites: true,
    });
    const gone = await t.signIn('parti', PASSWORD);
    const created: Favourite = FavouriteSchema.parse((await save(lastWeekSales(), goneId, gone)).json());
    await t.database.pool.query('DELETE FROM users WHERE id = $1', [goneId]);
    const { rowCount } = await t.database.pool.query('SELECT 1 FROM favourites WHERE id = $1', [created.id]);
    expect(rowCount).toBe(0);
  });
});

/**
 * Favourites holding a view of the BI explorer (issue #19 "save the view as a favourite";
 * contract/favourites.ts `bi`): saved, read back, renamed and removed like the others; a view
 * the explorer cannot answer, or a view on a report favourite, is refused at its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FavouriteSchema, FavouritesAnswerSchema } from '../../src/contract/favourites.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Correct-Horse1';

describe('BI views as favourites (bo/favoris…)', () => {
  let t: TestApp;
  let chain: Chain;
  let id: number;
  let headers: Record<string, string>;
  const save = (body: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/bo/favoris/save?id=${id}`, headers, payload: body as object });
  const listed = async () =>
    FavouritesAnswerSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/bo/favoris?id=${id}`, headers })).json(),
    ).favoris;
  const biView = () => ({
    libelle: 'Remises par vendeur',
    typeRapport: { className: 'BI', localisedTitle: 'Exploration BI' },
    lSites: [chain.sites.paris],
    periode: 'M-1',
    bi: { measure: 'DISCOUNTS', dimension1: 'SELLER', dimension2: 'WEEKDAY', comparison: 'PREVIOUS' },
  });
  /** The paths of the zod issues of a 400 answer. */
  const issuePaths = (res: { json: () => { details?: { issues?: { path: string }[] } } }) =>
    (res.json().details?.issues ?? []).map((i) => i.path);

  beforeAll(async () => {
    t = await createTestApp();
    chain = await seedChain(t.database.pool);
    id = await t.createUser({
      login: 'analyste',
      password: PASSWORD,
      droits: ['RAPPORTS', 'BI'],
      restaurantIds: [chain.sites.paris, chain.sites.lyon],
    });
    headers = await t.signIn('analyste', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('saves a view with its sites and period code, reads it back, renames and removes it', async () => {
    const res = await save(biView());
    expect(res.statusCode, res.body).toBe(200);
    const saved = FavouriteSchema.parse(res.json());
    expect(saved).toMatchObject({
      libelle: 'Remises par vendeur',
      typeRapport: { className: 'BI' },
      lSites: [chain.sites.paris],
      periode: 'M-1',
      dateDebut: null,
      bi: { measure: 'DISCOUNTS', dimension1: 'SELLER', dimension2: 'WEEKDAY', comparison: 'PREVIOUS' },
    });
    expect((await listed()).map((f) => [f.libelle, f.bi?.measure])).toEqual([
      ['Remises par vendeur', 'DISCOUNTS'],
    ]);

    const renamed = await save({ ...saved, libelle: 'Remises' });
    expect(renamed.statusCode).toBe(200);
    expect(await listed()).toEqual([{ ...saved, libelle: 'Remises' }]);

    const removed = await t.app.inject({
      method: 'GET',
      url: `/api/bo/favoris/remove?id=${id}&favoriId=${saved.id}`,
      headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(await listed()).toEqual([]);
  });

  it('keeps custom dates, and reads a report favourite without a view as bi null', async () => {
    const dated = await save({ ...biView(), periode: null, dateDebut: '2026-01-01', dateFin: '2026-01-31' });
    expect(dated.statusCode, dated.body).toBe(200);
    expect(FavouriteSchema.parse(dated.json())).toMatchObject({ periode: null, dateDebut: '2026-01-01' });
    const report = await save({
      libelle: 'Ventes',
      typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
      periode: 'W-1',
    });
    expect(report.statusCode).toBe(200);
    expect(FavouriteSchema.parse(report.json()).bi).toBeNull();
  });

  it.each([
    [
      'a measure no aggregate holds by its dimensions',
      { measure: 'DISCOUNTS', dimension1: 'VAT' },
      '/bi/measure',
    ],
    [
      'the same dimension twice',
      { measure: 'NET', dimension1: 'SITE', dimension2: 'SITE' },
      '/bi/dimension2',
    ],
    ['an unknown measure', { measure: 'MARGIN', dimension1: 'SITE' }, '/bi/measure'],
    ['an unknown dimension', { measure: 'NET', dimension1: 'COUNTRY' }, '/bi/dimension1'],
  ])('refuses %s with 400 at the field', async (_what, bi, path) => {
    const res = await save({ ...biView(), bi });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BadRequest');
    expect(issuePaths(res)).toContain(path);
  });

  it('refuses a BI favourite without its view, and a view on a report favourite', async () => {
    const { bi: _, ...noView } = biView();
    const missing = await save(noView);
    expect(missing.statusCode).toBe(400);
    expect(issuePaths(missing)).toContain('/bi');
    const misplaced = await save({ ...biView(), typeRapport: { className: 'RapportVentes' } });
    expect(misplaced.statusCode).toBe(400);
    expect(issuePaths(misplaced)).toContain('/bi');
    expect(await listed()).not.toContainEqual(
      expect.objectContaining({ libelle: 'Remises par vendeur', bi: null }),
    );
  });

  it('gives each favourite its own right: BI for a view, RAPPORTS for a report', async () => {
    const reportFavourite = {
      libelle: 'Ventes du mois',
      typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
      lSites: [chain.sites.paris],
      periode: 'M-1',
    };
    const view = FavouriteSchema.parse((await save({ ...biView(), libelle: 'Vue BI' })).json());
    const report = FavouriteSchema.parse((await save(reportFavourite)).json());
    // The same person, with one right at a time: each sees and touches only the favourites of it.
    const asUser = async (login: string, droits: string[]) => {
      const userId = await t.createUser({
        login,
        password: PASSWORD,
        droits,
        restaurantIds: [chain.sites.paris],
      });
      return { userId, headers: await t.signIn(login, PASSWORD) };
    };
    const bi = await asUser('bi.seul', ['BI']);
    const biSave = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/bo/favoris/save?id=${bi.userId}`,
        headers: bi.headers,
        payload: body,
      });
    const biList = async () =>
      FavouritesAnswerSchema.parse(
        (
          await t.app.inject({ method: 'GET', url: `/api/bo/favoris?id=${bi.userId}`, headers: bi.headers })
        ).json(),
      ).favoris.map((f) => f.libelle);
    expect((await biSave({ ...biView(), libelle: 'Ma vue' })).statusCode).toBe(200);
    const refused = await biSave(reportFavourite);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('Forbidden');
    expect(await biList()).toEqual(['Ma vue']);

    // The analyst who holds both sees both; a report-only user sees only the report favourite and
    // cannot replace nor remove a view (404, as for a favourite that is not theirs).
    expect((await listed()).map((f) => f.libelle)).toEqual(
      expect.arrayContaining(['Vue BI', 'Ventes du mois']),
    );
    await t.database.pool.query('UPDATE favourites SET user_id = $1 WHERE id = ANY($2::int[])', [
      (await asUser('rapports.seul', ['RAPPORTS'])).userId,
      [view.id, report.id],
    ]);
    const reports = await t.signIn('rapports.seul', PASSWORD);
    const { rows } = await t.database.pool.query<{ user_id: number }>(
      'SELECT user_id FROM favourites WHERE id = $1',
      [view.id],
    );
    const reportsId = rows[0]!.user_id;
    const reportsList = FavouritesAnswerSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: `/api/bo/favoris?id=${reportsId}`, headers: reports })
      ).json(),
    ).favoris.map((f) => f.libelle);
    expect(reportsList).toEqual(['Ventes du mois']);
    const replaced = await t.app.inject({
      method: 'POST',
      url: `/api/bo/favoris/save?id=${reportsId}`,
      headers: reports,
      payload: { ...reportFavourite, id: view.id },
    });
    expect(replaced.statusCode).toBe(404);
    const removed = await t.app.inject({
      method: 'GET',
      url: `/api/bo/favoris/remove?id=${reportsId}&favoriId=${view.id}`,
      headers: reports,
    });
    expect(removed.statusCode).toBe(404);
    const kept = await t.database.pool.query('SELECT 1 FROM favourites WHERE id = $1', [view.id]);
    expect(kept.rowCount).toBe(1);
  });
});

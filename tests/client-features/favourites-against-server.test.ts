/**
 * The favourites' client calls against the real API server (Fastify app on a fresh PostgreSQL
 * database, on a loopback port): a selection saved as a favourite comes back as the same
 * selection (with the sort, grouping and filter of /rapports), the list refreshes, and a failure
 * is told with the code of SPEC.md §8.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chain } from '../server/fixtures.ts';
import { seedChain } from '../server/fixtures.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { type ClientCore, connectClient, disconnectClient } from './against-server.ts';

let t: TestApp;
let chain: Chain;

// Loaded after the server listens: lib/http reads the API base when it is first imported.
type Modules = ClientCore & {
  notifications: typeof import('../../src/client/lib/notifications.ts');
  queries: typeof import('../../src/client/features/favourites/favourite-queries.ts');
  mapping: typeof import('../../src/client/features/favourites/favourite-selection.ts');
};
let m: Modules;

beforeAll(async () => {
  t = await createTestApp();
  chain = await seedChain(t.database.pool);
  await t.createUser({
    login: 'gerant',
    password: 'Comptoir-2026!',
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris, chain.sites.lyon],
  });
  await t.createUser({ login: 'autre', password: 'Comptoir-2026!', droits: ['RAPPORTS'], allSites: true });
  m = {
    ...(await connectClient(t)),
    notifications: await import('../../src/client/lib/notifications.ts'),
    queries: await import('../../src/client/features/favourites/favourite-queries.ts'),
    mapping: await import('../../src/client/features/favourites/favourite-selection.ts'),
  };
  await m.session.signIn('gerant', 'Comptoir-2026!');
});

afterAll(() => disconnectClient(t));

const NO_SHAPING = {
  className: null,
  sortKey: null,
  descending: false,
  groupBy: null,
  filtre: null,
  filterValues: [],
};

const report = {
  className: 'RapportVentes',
  localisedTitle: 'Ventes',
  typeRapport: 'Daily' as const,
  format: 'XLSX' as const,
};

describe('favourites through the client calls', () => {
  it('a selection saved as a favourite comes back from the list as the same selection', async () => {
    const selection = {
      restaurantIds: [chain.sites.paris],
      groupId: null,
      terminals: [`${chain.sites.paris}:2`],
      sellers: [`${chain.sites.paris}:01`],
      period: { kind: 'code' as const, code: 'M-1' as const },
      trancheHoraire: true,
      heureDebut: '18:00',
      heureFin: '02:00',
      report: { className: 'RapportVentes', typeRapport: 'Daily' as const, format: 'XLSX' as const },
      shaping: {
        className: 'RapportVentes',
        sortKey: 'netSales',
        descending: true,
        groupBy: 'SITE',
        filtre: 'PAIEMENT',
        filterValues: ['CASH', 'CARD'],
      },
    };
    const built = m.mapping.favouriteFromSelection(selection, report, 'Soirées du mois dernier');
    if (!built.ok) throw new Error(built.messageId);
    const saved = await m.queries.saveFavourite(built.body);

    const userId = m.session.session.user!.id;
    const list = await m.queryClient.fetchQuery(m.queries.favouriteQueries.list(userId));
    const listed = list.favoris.find((f) => f.id === saved.id);
    if (!listed) throw new Error('saved favourite not listed');
    const applied = m.mapping.selectionFromFavourite(listed, [chain.sites.paris, chain.sites.lyon], []);
    expect(applied).toEqual({ ok: true, droppedSites: 0, selection });
  });

  it('renames a favourite by saving it with its id, and deletes it', async () => {
    const built = m.mapping.favouriteFromSelection(
      {
        restaurantIds: [],
        groupId: null,
        terminals: [],
        sellers: [],
        period: { kind: 'custom', debut: '01/03/2026', fin: '02/03/2026' },
        trancheHoraire: false,
        heureDebut: '12:00',
        heureFin: '23:00',
        report: { className: 'RapportVentes', typeRapport: 'Daily', format: 'PDF' },
        shaping: NO_SHAPING,
      },
      { ...report, format: 'PDF' },
      'Début mars',
    );
    if (!built.ok) throw new Error(built.messageId);
    const created = await m.queries.saveFavourite(built.body);
    expect(created).toMatchObject({ periode: null, dateDebut: '2026-03-01', dateFin: '2026-03-02' });

    const renamed = await m.queries.saveFavourite({ ...created, libelle: 'Premiers jours de mars' });
    expect(renamed).toEqual({ ...created, libelle: 'Premiers jours de mars' });

    await m.queries.removeFavourite(created.id);
    const failure = await m.queries.removeFavourite(created.id).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(m.http.ApiFailure);
    expect(m.queries.favouriteFailureCode(failure)).toBe('NotFound');
  });

  it("cannot reach another user's favourite", async () => {
    const built = m.mapping.favouriteFromSelection(
      {
        restaurantIds: [],
        groupId: null,
        terminals: [],
        sellers: [],
        period: { kind: 'code', code: 'D' },
        trancheHoraire: false,
        heureDebut: '12:00',
        heureFin: '23:00',
        report: { className: 'RapportVentes', typeRapport: 'Daily', format: 'PDF' },
        shaping: NO_SHAPING,
      },
      report,
      'À moi',
    );
    if (!built.ok) throw new Error(built.messageId);
    const mine = await m.queries.saveFavourite(built.body);
    await m.session.signOut('user');
    await m.session.signIn('autre', 'Comptoir-2026!');
    try {
      const theirs = await m.queryClient.fetchQuery(
        m.queries.favouriteQueries.list(m.session.session.user!.id),
      );
      expect(theirs.favoris).toEqual([]);
      const failure = await m.queries.removeFavourite(mine.id).catch((e: unknown) => e);
      expect(m.queries.favouriteFailureCode(failure)).toBe('NotFound');
    } finally {
      await m.session.signOut('user');
      await m.session.signIn('gerant', 'Comptoir-2026!');
    }
  });

  it('tells a refused save as savedError, and a lost network as such', async () => {
    const invalid = await m.queries
      .saveFavourite({ libelle: 'x', typeRapport: { className: '' }, periode: 'D' })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(m.http.ApiFailure);
    expect(m.queries.favouriteFailureCode(invalid)).toBe('savedError');
    m.queries.notifyFavouriteFailure(invalid);
    expect(m.notifications.notifications.items.at(-1)).toMatchObject({
      kind: 'error',
      messageId: 'error.savedError',
    });

    expect(m.queries.favouriteFailureCode(new m.http.ApiFailure('Network Error', null))).toBe(
      'Network Error',
    );
  });
});

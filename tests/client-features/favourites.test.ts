/**
 * Favourites on the client: what applying one does to the selection of /rapports, that a period
 * code stays relative to the day it is opened, and the selected / new-favourite states of
 * SPEC.md §4.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { FavouriteSchema, type Favourite } from '../../src/contract/favourites.ts';
import {
  favouriteFromSelection,
  selectionFromFavourite,
} from '../../src/client/features/favourites/favourite-selection.ts';
import {
  type FavouriteMode,
  NO_FAVOURITE,
  nextFavouriteMode,
} from '../../src/client/features/favourites/favourite-mode.ts';
import { resolvePeriodChoice } from '../../src/client/features/selection/period.ts';

function favourite(change: Partial<Favourite> = {}): Favourite {
  return FavouriteSchema.parse({
    id: 7,
    libelle: 'Ventes semaine dernière',
    typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
    type: 'Daily',
    lSites: [1, 2],
    lCaisses: [
      { restaurantId: 1, terminalId: 3 },
      { restaurantId: 2, terminalId: 1 },
    ],
    vendeur: [{ restaurantId: 2, code: 'V:1,2' }],
    periode: 'W-1',
    format: 'CSV',
    ...change,
  });
}

const report = {
  className: 'RapportVentes',
  localisedTitle: 'Ventes',
  typeRapport: 'Daily' as const,
  format: 'CSV' as const,
};

describe('applying a favourite to the selection', () => {
  it('sets sites, terminals, sellers, period, hours and the report', () => {
    const outcome = selectionFromFavourite(
      favourite({ trancheHoraire: true, heureDebut: '18:00', heureFin: '02:00', groupement: 4 }),
      [1, 2, 3],
      [4],
    );
    expect(outcome).toEqual({
      ok: true,
      droppedSites: 0,
      selection: {
        restaurantIds: [1, 2],
        groupId: 4,
        terminals: ['1:3', '2:1'],
        sellers: ['2:V:1,2'],
        period: { kind: 'code', code: 'W-1' },
        trancheHoraire: true,
        heureDebut: '18:00',
        heureFin: '02:00',
        report: { className: 'RapportVentes', typeRapport: 'Daily', format: 'CSV' },
      },
    });
  });

  it('drops sites the user no longer sees, with their terminals and sellers', () => {
    const outcome = selectionFromFavourite(favourite(), [1, 3], []);
    expect(outcome).toMatchObject({
      ok: true,
      droppedSites: 1,
      selection: { restaurantIds: [1], terminals: ['1:3'], sellers: [] },
    });
  });

  it('refuses a favourite none of whose sites the user sees, instead of opening every site', () => {
    expect(selectionFromFavourite(favourite({ lSites: [8, 9] }), [1, 2], [])).toEqual({
      ok: false,
      code: 'favouriteSitesOutOfScope',
    });
  });

  it('with no site chosen stays "every site" and keeps terminals of any visible site', () => {
    const outcome = selectionFromFavourite(
      favourite({
        lSites: [],
        lCaisses: [
          { restaurantId: 2, terminalId: 1 },
          { restaurantId: 9, terminalId: 1 },
        ],
      }),
      [1, 2],
      [],
    );
    expect(outcome).toMatchObject({ ok: true, selection: { restaurantIds: [], terminals: ['2:1'] } });
  });

  it('drops a group that no longer exists, and turns a JSON format into PDF', () => {
    const outcome = selectionFromFavourite(favourite({ groupement: 5, format: 'JSON' }), [1, 2], [4]);
    expect(outcome).toMatchObject({ ok: true, selection: { groupId: null, report: { format: 'PDF' } } });
  });

  it('shows custom dates as DD/MM/YYYY', () => {
    const outcome = selectionFromFavourite(
      favourite({ periode: null, dateDebut: '2026-03-01', dateFin: '2026-03-31' }),
      [1, 2],
      [],
    );
    expect(outcome).toMatchObject({
      ok: true,
      selection: { period: { kind: 'custom', debut: '01/03/2026', fin: '31/03/2026' } },
    });
  });
});

describe('a favourite "last week" stays relative', () => {
  it('is saved as its period code, not as the dates of the day it was saved', () => {
    const saved = favouriteFromSelection(
      {
        restaurantIds: [1],
        groupId: null,
        terminals: [],
        sellers: [],
        period: { kind: 'code', code: 'W-1' },
        trancheHoraire: false,
        heureDebut: '12:00',
        heureFin: '23:00',
        report,
      },
      report,
      '  Semaine dernière  ',
    );
    expect(saved).toMatchObject({
      ok: true,
      body: { libelle: 'Semaine dernière', periode: 'W-1', dateDebut: null, dateFin: null },
    });
  });

  it('opened on 10 March and on 24 March, covers the week before each of those days', () => {
    const outcome = selectionFromFavourite(favourite({ periode: 'W-1' }), [1, 2], []);
    if (!outcome.ok) throw new Error('favourite refused');
    const onMonday10 = resolvePeriodChoice(outcome.selection.period, new Date(2026, 2, 10));
    const onMonday24 = resolvePeriodChoice(outcome.selection.period, new Date(2026, 2, 24));
    expect(onMonday10).toEqual({ ok: true, range: { dateDebut: '2026-03-02', dateFin: '2026-03-08' } });
    expect(onMonday24).toEqual({ ok: true, range: { dateDebut: '2026-03-16', dateFin: '2026-03-22' } });
  });

  it('saves custom dates as wire dates, and refuses dates that do not make a period', () => {
    const base = {
      restaurantIds: [],
      groupId: null,
      terminals: ['1:3'],
      sellers: ['2:V:1,2'],
      trancheHoraire: true,
      heureDebut: '18:00',
      heureFin: '02:00',
      report,
    };
    const ok = favouriteFromSelection(
      { ...base, period: { kind: 'custom', debut: '01/03/2026', fin: '31/03/2026' } },
      report,
      'Mars',
    );
    expect(ok).toMatchObject({
      ok: true,
      body: {
        periode: null,
        dateDebut: '2026-03-01',
        dateFin: '2026-03-31',
        lCaisses: [{ restaurantId: 1, terminalId: 3 }],
        vendeur: [{ restaurantId: 2, code: 'V:1,2' }],
        trancheHoraire: true,
        heureDebut: '18:00',
      },
    });
    const backwards = favouriteFromSelection(
      { ...base, period: { kind: 'custom', debut: '31/03/2026', fin: '01/03/2026' } },
      report,
      'Mars',
    );
    expect(backwards).toEqual({ ok: false, messageId: 'reports.fixPeriod' });
    const badHours = favouriteFromSelection(
      { ...base, period: { kind: 'code', code: 'D' }, heureDebut: '25:00' },
      report,
      'Soir',
    );
    expect(badHours).toEqual({ ok: false, messageId: 'reports.fixHours' });
  });
});

describe('selected favourite and new-favourite mode (SPEC.md §4)', () => {
  const run = (events: Parameters<typeof nextFavouriteMode>[1][], from: FavouriteMode = NO_FAVOURITE) =>
    events.reduce(nextFavouriteMode, from);

  it('"new favourite" turns new mode on and unselects the current favourite', () => {
    expect(run([{ type: 'select', id: 3 }, { type: 'startNew' }])).toEqual({
      selectedId: null,
      newMode: true,
    });
  });

  it('saving a new favourite selects it and leaves new mode', () => {
    expect(run([{ type: 'startNew' }, { type: 'savedNew', id: 12 }])).toEqual({
      selectedId: 12,
      newMode: false,
    });
  });

  it('selecting an existing favourite leaves new mode', () => {
    expect(run([{ type: 'startNew' }, { type: 'select', id: 5 }])).toEqual({ selectedId: 5, newMode: false });
  });

  it('cancelling new mode selects nothing', () => {
    expect(run([{ type: 'startNew' }, { type: 'cancelNew' }])).toEqual(NO_FAVOURITE);
  });

  it('deleting the selected favourite unselects it; deleting another keeps the selection', () => {
    expect(
      run([
        { type: 'select', id: 5 },
        { type: 'removed', id: 6 },
      ]),
    ).toEqual({ selectedId: 5, newMode: false });
    expect(
      run([
        { type: 'select', id: 5 },
        { type: 'removed', id: 5 },
      ]),
    ).toEqual(NO_FAVOURITE);
  });
});

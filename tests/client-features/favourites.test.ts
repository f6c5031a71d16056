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
import { resolvePeriodChoice } from '../../src/client/selection/period.ts';
import { NO_SHAPING } from '../../src/client/selection/selection-state.ts';
import {
  describeFilter,
  describeGrouping,
  describeSort,
} from '../../src/client/features/favourites/favourite-summary.ts';
import { describeFilterValue } from '../../src/client/lib/report-filter-values.ts';
import { buildReportParams } from '../../src/client/lib/report-request.ts';
import { createIntl } from 'react-intl';
import fr from '../../i18n/fr.json';
import en from '../../i18n/en.json';
import { FAMILY_CHOICES, shapedReportInput } from './favourite-fixtures.ts';

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
        shaping: {
          className: 'RapportVentes',
          sortKey: null,
          descending: false,
          groupBy: null,
          filtre: null,
          filterValues: [],
        },
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
        shaping: NO_SHAPING,
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
      shaping: NO_SHAPING,
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

describe('sort, grouping and filter of /rapports in a favourite', () => {
  const familyReport = { ...report, className: 'RapportVentesFamille', localisedTitle: 'Ventes par famille' };
  const chosen = (shaping: Partial<typeof NO_SHAPING>) => ({
    restaurantIds: [],
    groupId: null,
    terminals: [],
    sellers: [],
    period: { kind: 'code' as const, code: 'M-1' as const },
    trancheHoraire: false,
    heureDebut: '12:00',
    heureFin: '23:00',
    report: { className: 'RapportVentesFamille', typeRapport: 'Daily' as const, format: 'CSV' as const },
    shaping: { ...NO_SHAPING, className: 'RapportVentesFamille', ...shaping },
  });

  it("are saved under bo/getReport's wire names: tri, regroupement, isFilters, filtre, condition", () => {
    const saved = favouriteFromSelection(
      chosen({
        sortKey: 'netSales',
        descending: true,
        groupBy: 'FAMILLE',
        filtre: 'TVA',
        filterValues: ['0.055', '0.2', '0.055'],
      }),
      familyReport,
      'Familles à TVA réduite',
    );
    expect(saved).toMatchObject({
      ok: true,
      body: {
        tri: 'netSales:desc',
        regroupement: 'FAMILLE',
        isFilters: true,
        filtre: 'TVA',
        condition: ['0.055', '0.2'],
      },
    });
  });

  it('an ascending sort is saved as the bare column key', () => {
    const saved = favouriteFromSelection(chosen({ sortKey: 'family' }), familyReport, 'Par famille');
    expect(saved).toMatchObject({ ok: true, body: { tri: 'family', regroupement: null, isFilters: false } });
  });

  it('are left out when they were chosen for another report than the one saved', () => {
    const saved = favouriteFromSelection(
      chosen({ className: 'RapportTickets', sortKey: 'amount', filtre: 'PAIEMENT', filterValues: ['CASH'] }),
      familyReport,
      'Par famille',
    );
    expect(saved).toMatchObject({
      ok: true,
      body: { tri: null, regroupement: null, isFilters: false, filtre: null, condition: [] },
    });
  });

  it('a filter with no value ticked is saved off, and opens with its dimension chosen and nothing ticked', () => {
    const saved = favouriteFromSelection(chosen({ filtre: 'FAMILLE', filterValues: [] }), familyReport, 'F');
    if (!saved.ok) throw new Error(saved.messageId);
    expect(saved.body).toMatchObject({ isFilters: false, filtre: 'FAMILLE', condition: [] });
    const reopened = selectionFromFavourite(FavouriteSchema.parse({ ...saved.body, id: 1 }), [1], []);
    expect(reopened).toMatchObject({
      ok: true,
      selection: { shaping: { filtre: 'FAMILLE', filterValues: [] } },
    });
  });

  it('come back on the screen as they were saved, for the report of the favourite', () => {
    const shaping = {
      sortKey: 'netSales',
      descending: true,
      groupBy: 'FAMILLE',
      filtre: 'PAIEMENT',
      filterValues: ['CASH', 'CARD'],
    };
    const saved = favouriteFromSelection(chosen(shaping), familyReport, 'Espèces et cartes');
    if (!saved.ok) throw new Error(saved.messageId);
    const reopened = selectionFromFavourite(FavouriteSchema.parse({ ...saved.body, id: 3 }), [1], []);
    expect(reopened).toMatchObject({
      ok: true,
      selection: { shaping: { className: 'RapportVentesFamille', ...shaping } },
    });
  });

  it('keeps filter values the period may not have, and sends them: the report finds nothing for them rather than every family', () => {
    const outcome = selectionFromFavourite(
      favourite({
        typeRapport: { className: 'RapportVentesFamille', localisedTitle: '' },
        tri: 'family:asc',
        isFilters: true,
        filtre: 'FAMILLE',
        condition: ['Glaces'],
      }),
      [1, 2],
      [],
    );
    if (!outcome.ok) throw new Error(outcome.code);
    const { shaping } = outcome.selection;
    expect(shaping).toEqual({
      className: 'RapportVentesFamille',
      sortKey: 'family',
      descending: false,
      groupBy: null,
      filtre: 'FAMILLE',
      filterValues: ['Glaces'],
    });
    const params = buildReportParams(
      shapedReportInput(shaping, {
        userId: 5,
        className: 'RapportVentesFamille',
        range: { dateDebut: '2026-03-01', dateFin: '2026-03-31' },
        siteIds: [1, 2],
      }),
    );
    expect(params).toMatchObject({
      tri: 'family',
      isFilters: true,
      filtre: 'FAMILLE',
      condition: ['Glaces'],
    });
  });

  it('a favourite saved before they existed opens with no sort, grouping or filter', () => {
    const old = FavouriteSchema.parse({
      id: 2,
      libelle: 'Ancien',
      typeRapport: { className: 'RapportVentes' },
      periode: 'D',
    });
    expect(old).toMatchObject({
      tri: null,
      regroupement: null,
      isFilters: false,
      filtre: null,
      condition: [],
    });
    const outcome = selectionFromFavourite(old, [1], []);
    expect(outcome).toMatchObject({
      ok: true,
      selection: { shaping: { sortKey: null, groupBy: null, filtre: null, filterValues: [] } },
    });
  });

  it('a filter that is on needs a dimension and a value; a sort goes up or down only', () => {
    const base = { id: 1, libelle: 'x', typeRapport: { className: 'RapportVentes' } };
    expect(FavouriteSchema.safeParse({ ...base, isFilters: true, filtre: 'FAMILLE' }).success).toBe(false);
    expect(FavouriteSchema.safeParse({ ...base, isFilters: true, condition: ['Desserts'] }).success).toBe(
      false,
    );
    expect(FavouriteSchema.safeParse({ ...base, tri: 'netSales:down' }).success).toBe(false);
    expect(FavouriteSchema.safeParse({ ...base, tri: 'netSales:desc' }).success).toBe(true);
  });
});

describe('what a favourite list says of the sort, grouping and filter', () => {
  const intlFr = createIntl({ locale: 'fr', messages: fr });
  const intlEn = createIntl({ locale: 'en', messages: en });
  const choices = FAMILY_CHOICES;
  const shaped = favourite({
    typeRapport: { className: 'RapportVentesFamille', localisedTitle: '' },
    tri: 'netSales:desc',
    regroupement: 'FAMILLE',
    isFilters: true,
    filtre: 'FAMILLE',
    condition: ['Desserts', 'Boissons'],
  });

  it('names columns as the report does, in the interface language', () => {
    expect(describeSort(intlFr, shaped, choices)).toBe('CA TTC, décroissant');
    expect(describeGrouping(intlFr, shaped, choices)).toBe('Famille de produits');
    expect(describeFilter(intlFr, shaped, choices)).toBe('Famille de produits\u00a0: Desserts et Boissons');
    expect(describeSort(intlEn, favourite({ tri: 'netSales' }), choices)).toBe('CA TTC, ascending');
  });

  it('before the report choices are known, names dimensions from the catalogue and columns by their key', () => {
    expect(describeSort(intlEn, shaped)).toBe('netSales, descending');
    expect(describeGrouping(intlEn, shaped)).toBe('Product family');
    expect(describeFilter(intlEn, shaped)).toBe('Product family: Desserts and Boissons');
  });

  it('says nothing when the favourite keeps the report as it comes', () => {
    const plain = favourite();
    expect([
      describeSort(intlFr, plain),
      describeGrouping(intlFr, plain),
      describeFilter(intlFr, plain),
    ]).toEqual([null, null, null]);
  });

  it('shows VAT rates as percentages, payment methods by name, and counts what a long list leaves out', () => {
    expect(describeFilterValue(intlFr, 'TVA', '0.055')).toBe('5,5\u00a0%');
    expect(describeFilterValue(intlEn, 'PAIEMENT', 'MEAL_VOUCHER')).not.toBe('MEAL_VOUCHER');
    expect(describeFilterValue(intlEn, 'PAIEMENT', 'BITCOIN')).toBe('BITCOIN');
    const many = favourite({
      isFilters: true,
      filtre: 'TVA',
      condition: ['0', '0.021', '0.055', '0.1', '0.2'],
    });
    expect(describeFilter(intlEn, many)).toBe('VAT rate: 0%, 2.1%, 5.5%, 10% and 1 more');
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

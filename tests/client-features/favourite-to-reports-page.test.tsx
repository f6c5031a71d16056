// @vitest-environment happy-dom
/**
 * Opening a favourite from /configFavoris puts its sort, grouping and family filter back on
 * /rapports (both pages rendered with react-dom in happy-dom under a memory router, on answers
 * already in the query cache). A kept family the period does not have stays ticked and is marked
 * as absent, so the manager sees why the report may come back empty.
 */
import 'fake-indexeddb/auto';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import type { ResultsChoicesAnswer } from '../../src/contract/exports.ts';
import { FavouriteSchema } from '../../src/contract/favourites.ts';
import type { ReportClassInfo } from '../../src/contract/reports.ts';
import { FavouritesPage } from '../../src/client/features/favourites/components/favourites-page.tsx';
import { favouriteQueries } from '../../src/client/features/favourites/favourite-queries.ts';
import { ReportsPage } from '../../src/client/features/reports/components/reports-page.tsx';
import { reportQueries } from '../../src/client/features/reports/report-queries.ts';
import { resetSelection, selection } from '../../src/client/selection/selection-state.ts';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { clearNotifications } from '../../src/client/lib/notifications.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import {
  type RoutedScreen,
  renderRoutedScreen,
  seedReferenceData,
  signInAs,
  testSite,
  unmountScreen,
} from './support.tsx';

const USER_ID = 5;
const CLASS = 'RapportVentesFamille';

const editions: ReportClassInfo[] = [
  {
    className: 'RapportVentes',
    localisedTitle: 'Ventes',
    variants: ['Daily'],
    formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
    maxDays: 366,
  },
  {
    className: CLASS,
    localisedTitle: 'Ventes par famille',
    variants: ['Daily'],
    formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
    maxDays: 366,
  },
];

const choices: ResultsChoicesAnswer = {
  className: CLASS,
  localisedTitle: 'Ventes par famille',
  variants: [{ value: 'Daily', label: 'Journalier' }],
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  maxDays: 366,
  operations: [],
  filtres: [
    { value: 'SITE', label: 'Site' },
    { value: 'FAMILLE', label: 'Famille de produits' },
  ],
  tris: [
    { value: 'family', label: 'Famille' },
    { value: 'netSales', label: 'CA TTC' },
  ],
  regroupements: [{ value: 'FAMILLE', label: 'Famille de produits' }],
  conditionsFrom: 'bo/getGroupements',
};

const favourite = FavouriteSchema.parse({
  id: 21,
  libelle: 'Desserts et glaces de mars',
  typeRapport: { className: CLASS, localisedTitle: 'Ventes par famille' },
  periode: null,
  dateDebut: '2026-03-01',
  dateFin: '2026-03-31',
  tri: 'netSales:desc',
  regroupement: 'FAMILLE',
  isFilters: true,
  filtre: 'FAMILLE',
  condition: ['Desserts', 'Glaces'],
});

let screen: RoutedScreen;

beforeEach(async () => {
  resetSelection();
  clearNotifications();
  signInAs({ id: USER_ID });
  const language = i18nState.language;
  seedReferenceData([testSite(1, 'Lyon Bellecour')]);
  queryClient.setQueryData(favouriteQueries.list(USER_ID).queryKey, { favoris: [favourite] });
  queryClient.setQueryData(reportQueries.metrics(USER_ID, language).queryKey, { editions });
  queryClient.setQueryData(reportQueries.choices(USER_ID, CLASS, language).queryKey, choices);
  // March has desserts and drinks, but no ice cream.
  queryClient.setQueryData(
    reportQueries.groupements(
      USER_ID,
      CLASS,
      'FAMILLE',
      { dateDebut: '2026-03-01', dateFin: '2026-03-31' },
      language,
    ).queryKey,
    {
      filtre: 'FAMILLE',
      groupements: [
        { value: 'Boissons', label: 'Boissons' },
        { value: 'Desserts', label: 'Desserts' },
      ],
    },
  );
  screen = await renderRoutedScreen(
    { '/configFavoris': () => <FavouritesPage editions={editions} />, '/rapports': ReportsPage },
    '/configFavoris',
    'fr',
    fr,
  );
});

afterEach(() => {
  unmountScreen(screen);
});

/** The value shown by the select labelled `label`. */
function selectValue(label: string): string | undefined {
  const field = [...screen.container.querySelectorAll<HTMLElement>('.ui-select')].find(
    (f) => f.querySelector('.ui-field__label')?.textContent === label,
  );
  return field?.querySelector('.ui-select__value')?.textContent ?? undefined;
}

/** Label → ticked, for the checkboxes of the filter values. */
function filterValues(): Record<string, boolean> {
  const boxes = [...screen.container.querySelectorAll<HTMLElement>('.rep-filter__values .ui-checkbox')];
  return Object.fromEntries(
    boxes.map((b) => [
      b.querySelector('.ui-checkbox__label')?.textContent ?? '',
      b.querySelector('input')?.checked ?? false,
    ]),
  );
}

describe('a favourite opened on /rapports', () => {
  it('restores its sort, grouping and filter, and marks a kept family the period does not have', async () => {
    const open = [...screen.container.querySelectorAll<HTMLButtonElement>('button')].find((b) =>
      b.getAttribute('aria-label')?.includes('Desserts et glaces de mars'),
    );
    await act(async () => {
      open?.click();
    });
    expect(screen.router.state.location.pathname).toBe('/rapports');
    expect(selectValue('Rapport à générer')).toBe('Ventes par famille');
    expect(selectValue('Trier par')).toBe('CA TTC');
    expect(selectValue('Regrouper par')).toBe('Famille de produits');
    expect(selectValue('Filtrer par')).toBe('Famille de produits');
    expect(filterValues()).toEqual({
      Boissons: false,
      Desserts: true,
      'Glaces (absent de cette période)': true,
    });
    const descending = [...screen.container.querySelectorAll<HTMLElement>('.rep-shaping .ui-checkbox')][0];
    expect(descending?.querySelector('input')?.checked).toBe(true);
  });

  it('unticking the absent family drops it from the selection', async () => {
    const open = [...screen.container.querySelectorAll<HTMLButtonElement>('button')].find((b) =>
      b.getAttribute('aria-label')?.includes('Desserts et glaces de mars'),
    );
    await act(async () => {
      open?.click();
    });
    const absent = [
      ...screen.container.querySelectorAll<HTMLElement>('.rep-filter__values .ui-checkbox'),
    ].find((b) => b.textContent?.includes('Glaces'));
    await act(async () => {
      absent?.querySelector('input')?.click();
    });
    expect(selection.shaping.filterValues).toEqual(['Desserts']);
    expect(filterValues()).toEqual({ Boissons: false, Desserts: true });
  });
});

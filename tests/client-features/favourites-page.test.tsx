// @vitest-environment happy-dom
/**
 * /configFavoris rendered with react-dom in happy-dom, under a memory router, on favourites and
 * reference data already in the query cache: what a row says, the new-favourite mode of
 * SPEC.md §4, the delete confirmation of SPEC.md §5, and opening a favourite in /rapports.
 */
import 'fake-indexeddb/auto';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import { type Favourite, FavouriteSchema } from '../../src/contract/favourites.ts';
import type { ReportClassInfo } from '../../src/contract/reports.ts';
import { FavouritesPage } from '../../src/client/features/favourites/components/favourites-page.tsx';
import { dispatchFavouriteMode, favouriteMode } from '../../src/client/features/favourites/favourite-mode.ts';
import { favouriteQueries } from '../../src/client/features/favourites/favourite-queries.ts';
import { reportQueries } from '../../src/client/features/reports/report-queries.ts';
import { resetSelection, selection } from '../../src/client/selection/selection-state.ts';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { clearNotifications, notifications } from '../../src/client/lib/notifications.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { FAMILY_CHOICES } from './favourite-fixtures.ts';
import {
  buttonNamed,
  press,
  type RoutedScreen,
  renderRoutedScreen,
  seedReferenceData,
  signInAs,
  testSite,
  unmountScreen,
} from './support.tsx';

const USER_ID = 5;

const editions: ReportClassInfo[] = [
  {
    className: 'RapportVentes',
    localisedTitle: 'Ventes',
    variants: ['Daily', 'Graph'],
    formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
    maxDays: 366,
  },
  {
    className: 'RapportVentesFamille',
    localisedTitle: 'Ventes par famille',
    variants: ['Daily'],
    formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
    maxDays: 366,
  },
];

const lastWeek: Favourite = FavouriteSchema.parse({
  id: 11,
  libelle: 'Semaine dernière à Lyon',
  typeRapport: { className: 'RapportVentes', localisedTitle: 'Sales' },
  type: 'Graph',
  lSites: [1],
  periode: 'W-1',
  format: 'XLSX',
});
const gone: Favourite = FavouriteSchema.parse({
  id: 13,
  libelle: 'Ancien périmètre',
  typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
  lSites: [1, 98, 99],
  periode: 'D',
});
const march: Favourite = FavouriteSchema.parse({
  id: 12,
  libelle: 'Mars, tous les sites',
  typeRapport: { className: 'RapportVentes', localisedTitle: 'Ventes' },
  periode: null,
  dateDebut: '2026-03-01',
  dateFin: '2026-03-31',
});

const desserts: Favourite = FavouriteSchema.parse({
  id: 14,
  libelle: 'Desserts par CA',
  typeRapport: { className: 'RapportVentesFamille', localisedTitle: 'Ventes par famille' },
  periode: 'M-1',
  tri: 'netSales:desc',
  regroupement: 'FAMILLE',
  isFilters: true,
  filtre: 'FAMILLE',
  condition: ['Desserts', 'Glaces'],
});

let screen: RoutedScreen;

/** French typography: the catalogue puts no-break spaces inside « ». */
const nb = (text: string) => text.replaceAll('« ', '«\u00a0').replaceAll(' »', '\u00a0»');
const body = () => document.body;
const rows = () => [...screen.container.querySelectorAll<HTMLElement>('.fav-item')];

beforeEach(async () => {
  resetSelection();
  clearNotifications();
  dispatchFavouriteMode({ type: 'cancelNew' });
  dispatchFavouriteMode({ type: 'removed', id: favouriteMode.selectedId ?? 0 });
  signInAs({ id: USER_ID });
  seedReferenceData([testSite(1, 'Lyon Bellecour'), testSite(3, 'Annecy Lac')]);
  queryClient.setQueryData(favouriteQueries.list(USER_ID).queryKey, {
    favoris: [march, lastWeek, gone, desserts],
  });
  queryClient.setQueryData(
    reportQueries.choices(USER_ID, 'RapportVentesFamille', i18nState.language).queryKey,
    FAMILY_CHOICES,
  );
  screen = await renderRoutedScreen(
    {
      '/configFavoris': () => <FavouritesPage editions={editions} />,
      '/rapports': () => <p>écran rapports</p>,
    },
    '/configFavoris',
    'fr',
    fr,
  );
});

afterEach(() => {
  unmountScreen(screen);
});

describe('/configFavoris', () => {
  it("lists each favourite with its report, sites, period and format, today's report title first", () => {
    const [first, second] = rows();
    expect(first?.querySelector('h2')?.textContent).toBe('Mars, tous les sites');
    expect(first?.querySelector('dl')?.textContent).toBe(
      'RapportVentesSitesTous vos sitesPériodeDu 01/03/2026 au 31/03/2026FormatPDF',
    );
    expect(second?.querySelector('dl')?.textContent).toBe(
      'RapportVentes · GraphiqueSitesLyon BellecourPériodeSemaine précédenteFormatExcel (XLSX)',
    );
  });

  it('lists the sort, grouping and filter a favourite keeps, with the names the report gives its columns', () => {
    expect(rows()[3]?.querySelector('dl')?.textContent).toBe(
      'RapportVentes par familleSitesTous vos sitesPériodeMois précédentFormatPDF' +
        'TriCA TTC, décroissantRegroupementFamille de produits' +
        'FiltreFamille de produits\u00a0: Desserts et Glaces',
    );
  });

  it('"New favourite" turns new mode on with a summary of the current selection; cancel leaves it', async () => {
    selection.period = { kind: 'code', code: 'M-1' };
    selection.restaurantIds = [3];
    await press(buttonNamed(screen.container, 'Nouveau favori'));
    const form = screen.container.querySelector<HTMLElement>('.fav-new');
    expect(favouriteMode).toEqual({ selectedId: null, newMode: true });
    expect(form?.querySelector('dl')?.textContent).toBe(
      'RapportVentesSitesAnnecy LacPériodeMois précédentFormatPDF',
    );
    expect(buttonNamed(screen.container, 'Nouveau favori').hasAttribute('disabled')).toBe(true);
    await press(buttonNamed(form!, 'Annuler'));
    expect(screen.container.querySelector('.fav-new')).toBeNull();
    expect(favouriteMode.newMode).toBe(false);
  });

  it('refuses an empty name before calling the server, keeping new mode on', async () => {
    await press(buttonNamed(screen.container, 'Nouveau favori'));
    await act(async () => {
      screen.container.querySelector<HTMLFormElement>('.fav-new form')?.requestSubmit();
    });
    expect(screen.container.querySelector('.fav-new')?.textContent).toContain('Donnez un nom au favori.');
    expect(favouriteMode.newMode).toBe(true);
  });

  it('refuses the name of another favourite, whatever its case, before calling the server', async () => {
    await press(buttonNamed(screen.container, 'Nouveau favori'));
    const input = screen.container.querySelector<HTMLInputElement>('.fav-new input');
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(
        input,
        ' mars, TOUS les sites ',
      );
      input?.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => {
      screen.container.querySelector<HTMLFormElement>('.fav-new form')?.requestSubmit();
    });
    expect(screen.container.querySelector('.fav-new')?.textContent).toContain(
      'Vous avez déjà un favori de ce nom\u00a0: choisissez-en un autre.',
    );
    expect(input?.value).toBe(' mars, TOUS les sites ');
    expect(favouriteMode.newMode).toBe(true);
  });

  it('asks for confirmation before deleting, and cancelling keeps the favourite', async () => {
    await press(buttonNamed(rows()[1]!, nb('Supprimer le favori « Semaine dernière à Lyon »')));
    const dialog = body().querySelector<HTMLElement>('[role="alertdialog"]');
    expect(dialog?.textContent).toContain(nb('Le favori « Semaine dernière à Lyon » sera supprimé.'));
    await press(buttonNamed(dialog!, 'Annuler'));
    expect(body().querySelector('[role="alertdialog"]')).toBeNull();
    expect(rows()).toHaveLength(4);
  });

  it('opening a favourite fills the selection of /rapports, selects it and goes there', async () => {
    dispatchFavouriteMode({ type: 'startNew' });
    await press(buttonNamed(rows()[1]!, nb('Ouvrir le favori « Semaine dernière à Lyon » dans Rapports')));
    expect(screen.router.state.location.pathname).toBe('/rapports');
    expect(selection.restaurantIds).toEqual([1]);
    expect(selection.period).toEqual({ kind: 'code', code: 'W-1' });
    expect(selection.report).toEqual({ className: 'RapportVentes', typeRapport: 'Graph', format: 'XLSX' });
    expect(favouriteMode).toEqual({ selectedId: 11, newMode: false });
  });

  it('opening a favourite restores its sort, grouping and filter on /rapports, even values the period may lack', async () => {
    await press(buttonNamed(rows()[3]!, nb('Ouvrir le favori « Desserts par CA » dans Rapports')));
    expect(screen.router.state.location.pathname).toBe('/rapports');
    expect(selection.report.className).toBe('RapportVentesFamille');
    expect(selection.shaping).toEqual({
      className: 'RapportVentesFamille',
      sortKey: 'netSales',
      descending: true,
      groupBy: 'FAMILLE',
      filtre: 'FAMILLE',
      filterValues: ['Desserts', 'Glaces'],
    });
    expect(favouriteMode).toEqual({ selectedId: 14, newMode: false });
  });

  it('"New favourite" sums up the sort and filter chosen on /rapports for the current report', async () => {
    selection.report.className = 'RapportVentesFamille';
    selection.shaping = {
      className: 'RapportVentesFamille',
      sortKey: 'netSales',
      descending: false,
      groupBy: null,
      filtre: 'TVA',
      filterValues: ['0.055'],
    };
    await press(buttonNamed(screen.container, 'Nouveau favori'));
    expect(screen.container.querySelector('.fav-new dl')?.textContent).toBe(
      "RapportVentes par familleSitesTous vos sitesPériodeAujourd'huiFormatPDF" +
        'TriCA TTC, croissantFiltreTaux de TVA\u00a0: 5,5\u00a0%',
    );
  });

  it('opening a favourite with sites the user lost keeps the others and says how many were left out', async () => {
    await press(buttonNamed(rows()[2]!, nb('Ouvrir le favori « Ancien périmètre » dans Rapports')));
    expect(screen.router.state.location.pathname).toBe('/rapports');
    expect(selection.restaurantIds).toEqual([1]);
    expect(notifications.items).toMatchObject([
      { kind: 'error', messageId: 'error.favouriteSitesDropped', values: { count: 2 } },
    ]);
  });
});

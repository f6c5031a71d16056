/**
 * The three KPI/BI screens rendered with react-dom in happy-dom against the real API server (a
 * TestApp on a fresh PostgreSQL with the hand-made chain of tests/server/bi-fixture.ts): /bi
 * shows the explorer's rows and greys out what no aggregate holds, saves its view as a favourite
 * that /configFavoris lists and opens on /bi again, and moves the views this device kept before;
 * /totalKPI says "partial data" instead of a percentage; /tracker shows the sites ranked with
 * the time of its last refresh.
 */
import { BI_PASSWORD, t } from './bi-api.ts';
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { useSearch } from '@tanstack/react-router';
import {
  choiceOf,
  choiceSearch,
  unavailableDimensions,
  unavailableMeasures,
} from '../../src/client/features/bi/bi-choices.ts';
import { BiPage } from '../../src/client/features/bi/components/bi-page.tsx';
import { BiFavouriteSave } from '../../src/client/features/favourites/components/bi-favourite-save.tsx';
import { BiLegacyViews } from '../../src/client/features/favourites/components/bi-legacy-views.tsx';
import { FavouritesPage } from '../../src/client/features/favourites/components/favourites-page.tsx';
import { KpiPage } from '../../src/client/features/kpi/components/kpi-page.tsx';
import { arrivalPeriod } from '../../src/client/selection/period.ts';
import { TrackerPage } from '../../src/client/features/tracker/components/tracker-page.tsx';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { session, signIn } from '../../src/client/lib/session.ts';
import { resetSelection, selection } from '../../src/client/selection/selection-state.ts';
import { LYON, PARIS } from '../server/bi-fixture.ts';
import { wireToDisplay } from '../../src/contract/dates.ts';
import { resolvePeriod } from '../../src/contract/periods.ts';
import {
  type RoutedScreen,
  inputLabelled,
  renderRoutedScreen,
  renderScreen,
  seedReferenceData,
  testSite,
  typeInto,
  unmountScreen,
  waitUntil,
} from './support.tsx';

let screen: { container: HTMLDivElement; root: Root } | null = null;

/** /bi as its route composes it (routes/_authed/bi.tsx): the view its address names, the favourites' parts. */
function BiRoute() {
  const search = choiceSearch(useSearch({ strict: false }));
  return (
    <BiPage
      key={JSON.stringify(search)}
      initialChoice={choiceOf(search)}
      saveSlot={(choice) => (
        <>
          <BiFavouriteSave view={choice} />
          <BiLegacyViews />
        </>
      )}
    />
  );
}

/** /bi and /configFavoris under a memory router, opened at `path`. */
async function renderBiAndFavourites(path: string): Promise<RoutedScreen> {
  const routed = await renderRoutedScreen(
    { '/bi': BiRoute, '/configFavoris': () => <FavouritesPage editions={[]} /> },
    path,
    'en',
    en,
  );
  screen = routed;
  return routed;
}

/** The favourites the server holds for the signed-in user: name and stored request. */
async function storedFavourites() {
  const { rows } = await t.database.pool.query<{ libelle: string; request: Record<string, unknown> }>(
    'SELECT libelle, request FROM favourites WHERE user_id = $1 ORDER BY id',
    [session.user!.id],
  );
  return rows;
}

/** Submits the favourite name form of the page, inside act. */
async function submitName() {
  await act(async () => {
    screen!.container.querySelector<HTMLFormElement>('.fav-bi-save form')!.requestSubmit();
  });
}

beforeAll(async () => {
  await signIn('analyste', BI_PASSWORD);
  // Amounts follow the interface's language, as the catalogue the screens are given.
  i18nState.language = 'en';
});

afterEach(() => {
  if (screen) unmountScreen(screen);
  screen = null;
});

afterAll(async () => {
  await t.close();
});

/** Reference data as the server holds it (Paris and Lyon in euros) and the period 2–3 March 2026. */
function chooseParisAndLyon() {
  resetSelection();
  seedReferenceData([testSite(PARIS, 'Paris'), testSite(LYON, 'Lyon')]);
  selection.period = { kind: 'custom', debut: '02/03/2026', fin: '03/03/2026' };
}

/** Presses the button named `name` and waits for `ready`. */
async function press(name: string, ready: () => boolean) {
  const button = [...screen!.container.querySelectorAll('button')].find((b) => b.textContent === name);
  expect(button, name).toBeTruthy();
  await act(async () => {
    button!.click();
  });
  await waitUntil(ready, 5000, 20);
}

const tableText = (label: string) =>
  [...screen!.container.querySelectorAll(`table[aria-label="${label}"] tbody tr`)].map((r) =>
    [...r.children].map((c) => c.textContent),
  );

describe('KPI/BI screens against the server', () => {
  it('/bi shows net sales by site against the year before, in cents turned into euros', async () => {
    chooseParisAndLyon();
    screen = await renderScreen(<BiPage />, 'en', en);
    await press(
      'Show',
      () => screen!.container.querySelector('table[aria-label="Net sales (incl. VAT): figures"]') !== null,
    );
    expect(tableText('Net sales (incl. VAT): figures')).toEqual([
      ['Lyon', '€62.00', '€20.00', '+210%'],
      ['Paris', '€58.00', '€15.00', '+286.7%'],
      ['Total', '€120.00', '€35.00', '+242.9%'],
    ]);
  });

  it('/bi greys out the measures no aggregate holds with the chosen dimension (the server refuses them too)', async () => {
    // Covers, tickets and average ticket by family: in no aggregate.
    expect(
      unavailableMeasures({ measure: 'NET', dimension1: 'FAMILY', dimension2: null, comparison: 'YEAR' }),
    ).toEqual(['TICKETS', 'AVERAGE_TICKET', 'COVERS']);
    expect(
      unavailableDimensions(
        { measure: 'COVERS', dimension1: 'SITE', dimension2: null, comparison: 'YEAR' },
        2,
      ),
    ).toEqual(['SITE', 'FAMILY', 'TERMINAL', 'SELLER', 'PAYMENT', 'VAT']);
  });

  it('/bi saves its view as a favourite, refusing an empty or taken name and keeping what was typed', async () => {
    chooseParisAndLyon();
    await renderBiAndFavourites('/bi?measure=DISCOUNTS&dimension1=SELLER&comparison=PREVIOUS');
    // Discounts read as money, as every amount (none in this chain).
    await press(
      'Show',
      () =>
        screen!.container.querySelector('table[aria-label="Discounts given (incl. VAT): figures"]') !== null,
    );
    expect(tableText('Discounts given (incl. VAT): figures').at(-1)).toEqual(['Total', '€0.00', '—', '—']);
    await submitName();
    expect(screen!.container.querySelector('.fav-bi-save')?.textContent).toContain(
      en['favourites.name.required'],
    );
    const input = inputLabelled('Favourite name', screen!.container);
    await typeInto(input, 'Discounts by seller');
    await submitName();
    await waitUntil(() => input.value === '', 5000, 20);
    const [saved] = await storedFavourites();
    expect(saved).toMatchObject({
      libelle: 'Discounts by seller',
      request: {
        typeRapport: { className: 'BI', localisedTitle: 'BI explorer' },
        periode: null,
        dateDebut: '2026-03-02',
        dateFin: '2026-03-03',
        bi: { measure: 'DISCOUNTS', dimension1: 'SELLER', dimension2: null, comparison: 'PREVIOUS' },
      },
    });
    await waitUntil(() => screen!.container.querySelector('.fav-bi-save') !== null, 5000, 20);
    await typeInto(input, ' DISCOUNTS by seller ');
    await submitName();
    expect(screen!.container.querySelector('.fav-bi-save')?.textContent).toContain(
      en['favourites.name.taken'],
    );
    expect(input.value).toBe(' DISCOUNTS by seller ');
    expect(await storedFavourites()).toHaveLength(1);
  });

  it('/configFavoris lists the BI favourite with its view and opens it on /bi with its sites and period', async () => {
    chooseParisAndLyon();
    selection.period = { kind: 'code', code: 'W-1' };
    const routed = await renderBiAndFavourites('/configFavoris');
    await waitUntil(() => routed.container.querySelector('.fav-item') !== null, 5000, 20);
    const row = routed.container.querySelector<HTMLElement>('.fav-item')!;
    expect(row.querySelector('dl')?.textContent).toBe(
      'ReportBI explorerSitesAll your sitesPeriodFrom 02/03/2026 to 03/03/2026' +
        'ViewDiscounts given (incl. VAT) by Seller, compared with: Previous period',
    );
    const open = [...row.querySelectorAll('button')].find(
      (b) => b.textContent === 'Open in the BI explorer',
    )!;
    await act(async () => {
      open.click();
    });
    await waitUntil(() => routed.router.state.location.pathname === '/bi', 5000, 20);
    expect(routed.router.state.location.search).toEqual({
      measure: 'DISCOUNTS',
      dimension1: 'SELLER',
      comparison: 'PREVIOUS',
    });
    expect(selection.period).toEqual({ kind: 'custom', debut: '02/03/2026', fin: '03/03/2026' });
    await waitUntil(() => routed.container.querySelector('.bi-controls') !== null, 5000, 20);
    expect(routed.container.querySelector('.bi-controls')?.textContent).toContain(
      'Discounts given (incl. VAT)',
    );
  });

  it('/bi offers once to move the views this device kept into the favourites', async () => {
    chooseParisAndLyon();
    const key = `comptoir.bi.views.${session.user!.id}`;
    localStorage.setItem(
      key,
      JSON.stringify([
        {
          name: 'Discounts by seller',
          measure: 'NET',
          dimension1: 'HOUR',
          dimension2: null,
          comparison: 'YEAR',
        },
      ]),
    );
    await renderBiAndFavourites('/bi');
    await waitUntil(
      () => !screen!.container.querySelector<HTMLButtonElement>('.fav-bi-legacy button')?.disabled,
      5000,
      20,
    );
    expect(screen!.container.querySelector('.fav-bi-legacy')?.textContent).toContain(
      '1 view was saved on this device before favourites: Discounts by seller.',
    );
    await press(
      'Move them into my favourites',
      () => screen!.container.querySelector('.fav-bi-legacy') === null,
    );
    expect(localStorage.getItem(key)).toBeNull();
    // The name was taken by the favourite of the first test: the moved view gets its own.
    expect(
      (await storedFavourites()).map((f) => [f.libelle, (f.request.bi as { dimension1: string }).dimension1]),
    ).toEqual([
      ['Discounts by seller', 'SELLER'],
      ['Discounts by seller (2)', 'HOUR'],
    ]);
  });

  it('/totalKPI says "partial data" where the year before is incomplete, never a percentage', async () => {
    chooseParisAndLyon();
    screen = await renderScreen(<KpiPage />, 'en', en);
    // Shown on arrival for the chosen period, without a press.
    await waitUntil(
      () => screen!.container.querySelector('table[aria-label="Key figures by scope"]') !== null,
      5000,
      20,
    );
    const rows = tableText('Key figures by scope');
    expect(rows.map((r) => r[0])).toEqual([
      'All chosen sites',
      'Company: Brasserie du Nord SAS',
      'Group: Sud',
      'Paris',
      'Lyon',
    ]);
    // The forecast's range column (issue #31) has no figure where there is no forecast.
    expect(rows[0]!.slice(1, 6)).toEqual(['€120.00', 'partial data', 'no data', '—', '5']);
    // The sparkline is for the eye only.
    expect(screen.container.querySelector('svg.kpi-sparkline')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('/totalKPI opens on the last full week when the period is still the default, today', async () => {
    resetSelection();
    seedReferenceData([testSite(PARIS, 'Paris'), testSite(LYON, 'Lyon')]);
    expect(selection.period).toEqual({ kind: 'code', code: 'D' });
    screen = await renderScreen(<KpiPage />, 'en', en);
    await waitUntil(() => screen!.container.querySelector('#kpi-result-title') !== null, 5000, 20);
    expect(selection.period).toEqual({ kind: 'code', code: 'W-1' });
    const week = resolvePeriod('W-1');
    expect(screen.container.querySelector('#kpi-result-title')?.textContent).toBe(
      `Key figures from ${wireToDisplay(week.dateDebut)} to ${wireToDisplay(week.dateFin)}`,
    );
    // A period the user chose is kept.
    expect(arrivalPeriod({ kind: 'code', code: 'M-1' })).toEqual({ kind: 'code', code: 'M-1' });
  });

  it('/tracker ranks the sites and tells when it was refreshed', async () => {
    chooseParisAndLyon();
    screen = await renderScreen(<TrackerPage />, 'en', en);
    await waitUntil(
      () => screen!.container.querySelector('table[aria-label="Sites ranked"]') !== null,
      5000,
      20,
    );
    expect(tableText('Sites ranked').map((r) => r.slice(0, 2))).toEqual([
      ['1', 'Paris'],
      ['2', 'Lyon'],
    ]);
    expect(screen.container.querySelector('.tracker-refreshed')?.textContent).toMatch(
      /^Updated on \d\d\/\d\d\/\d{4} at \d\d:\d\d$/,
    );
    // Paris and Lyon share a clock: the changes compare the hours over until one hour.
    expect(screen.container.querySelector('.tracker-compared')?.textContent).toMatch(
      /^Changes against last year compare the hours already over, until \d\d:\d\d\.$/,
    );
  });
});

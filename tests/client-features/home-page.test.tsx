/**
 * /home against the real server (home-api.ts), rendered with react-dom in happy-dom under a
 * memory router: a director sees the four widgets with the figures of the fixture day, the
 * day-part table whose bars hide nothing focusable, and the dashboard written to the persisted
 * cache (decision 0021) — only dashboard and reference queries, under the app's buster; a cashier
 * with no right of the widgets' data sees none and asks the server for nothing.
 */
import { apiBase, chain, PASSWORD } from './home-api.ts';
import { subDays } from 'date-fns/subDays';
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import { parseWireDate, toWireDate, wireToDisplay } from '../../src/contract/dates.ts';
import { HomePage } from '../../src/client/features/home/components/home-page.tsx';
import {
  PERSIST_BUSTER,
  PERSIST_STORAGE_KEY,
  queryClient,
  restoreQueryCache,
} from '../../src/client/lib/query-client.ts';
import { formatMoney, formatNumber } from '../../src/client/lib/format.ts';
import { signIn, signOut } from '../../src/client/lib/session.ts';
import { loadReferenceData } from '../../src/client/selection/load-reference-data.ts';
import { resetSelection } from '../../src/client/selection/selection-state.ts';
import { LAST_YEAR_DAYS } from '../../src/server/home/home-sales.ts';
import { currentFiscalDate } from '../../src/server/reference/fiscal-date.ts';
import { t } from './home-api.ts';
import { renderRoutedScreen, unmountScreen, waitUntil } from './support.tsx';

let screen: { container: HTMLDivElement; root: Root } | undefined;

afterEach(async () => {
  if (screen) unmountScreen(screen);
  screen = undefined;
  await signOut();
});
afterAll(async () => {
  // Node's fetch keeps its sockets alive, and the server's close would wait out their keep-alive
  // (72 s): nothing is in flight any more, so they are closed at once.
  t.app.server.closeAllConnections();
  await t.close();
});

const Empty = () => null;

async function renderHome(datePerso = '2026-03-02', locale = 'en', messages = en): Promise<HTMLDivElement> {
  resetSelection();
  await loadReferenceData();
  screen = await renderRoutedScreen(
    {
      '/home': () => <HomePage datePerso={datePerso} />,
      '/analyses/coffre': Empty,
      '/analyses/comptageCaisses': Empty,
    },
    '/home',
    locale,
    messages,
  );
  return screen.container;
}

const text = (root: ParentNode, selector: string) => root.querySelector(selector)?.textContent ?? '';

describe('home page against the real server', () => {
  it('shows a director every widget with the figures of the chosen day', async () => {
    await restoreQueryCache();
    await signIn('directeur', PASSWORD);
    const page = await renderHome();
    await waitUntil(() => page.querySelectorAll('.home-widget .home-widget__time').length === 4, 10_000, 25);

    const sales = page.querySelector('.home-widget--ventes')!;
    expect(text(sales, '.home-figure--main')).toBe('Today 02/03/2026€360.49');
    // A past day: its whole against last year's whole day, on one line (decision 0028).
    expect(
      [...sales.querySelectorAll('.home-figure dt')].filter((d) => d.textContent?.startsWith('A year')),
    ).toHaveLength(1);
    expect(text(sales, '.home-figure:nth-child(2)')).toBe('A year ago (03/03/2025, whole day)€55.00 (+555%)');
    const lunch = [...sales.querySelectorAll('tbody tr')].find((r) => r.textContent?.startsWith('Lunch'));
    expect([...lunch!.querySelectorAll('th, td')].map((c) => c.textContent)).toEqual([
      'Lunch',
      '€80.00',
      '€0.00', // the fixture's few days are too short a history to forecast from
      '€40.00',
    ]);
    // The bars are decoration: hidden from assistive technology, with nothing focusable inside.
    const bars = [...sales.querySelectorAll('[aria-hidden="true"]')];
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.every((b) => b.querySelector('a, button, input, [tabindex]') === null)).toBe(true);

    const safe = page.querySelector('.home-widget--coffre')!;
    expect(safe.textContent).toContain('1 count waiting for a countersignature.');
    expect(safe.textContent).toContain('Nantes: terminal 1 not counted');
    expect(safe.textContent).toContain('Paris: terminal 2 not counted');
    expect(safe.textContent).toContain('2 manager receipts, total €20.00');
    expect(safe.querySelector('a[href="/analyses/coffre"]')?.textContent).toBe('Countersign');
    expect(safe.querySelector('a[href="/analyses/comptageCaisses"]')).not.toBeNull();

    const forecast = page.querySelector('.home-widget--previsions')!;
    const parisForecast = forecast.querySelector('table[aria-label="Forecasts of Paris"]')!;
    expect([...parisForecast.querySelectorAll('tbody th')].map((c) => c.textContent)).toEqual([
      '02/03/2026',
      '03/03/2026',
      '04/03/2026',
      '05/03/2026',
      '06/03/2026',
      '07/03/2026',
      '08/03/2026',
      '09/03/2026',
    ]);
    expect(parisForecast.querySelector('tbody tr td:last-child')?.textContent).toBe('€300.50');
    // Two days of sales: too short a history for a figure, and the card says so (issue #31).
    expect(forecast.textContent).toContain('History too short for a forecast figure (no week measured).');
    expect([...parisForecast.querySelectorAll('tbody tr td:nth-child(2)')].map((c) => c.textContent)).toEqual(
      new Array(8).fill('–'),
    );

    const events = page.querySelector('.home-widget--evenements')!;
    expect([...events.querySelectorAll('li strong')].map((s) => s.textContent)).toEqual([
      'Travaux',
      'Concert au parc',
      'Foire',
    ]);
    expect(events.textContent).toContain('from 05/03/2026 to 06/03/2026 — positive impact of 12.5%');

    // The dashboard and the reference data go to the persisted cache, and nothing else.
    await waitUntil(() => (localStorage.getItem(PERSIST_STORAGE_KEY) ?? '').includes('ventes'), 5_000, 50);
    const stored = JSON.parse(localStorage.getItem(PERSIST_STORAGE_KEY)!) as {
      buster: string;
      clientState: { queries: { queryKey: unknown[] }[] };
    };
    expect(stored.buster).toBe(PERSIST_BUSTER);
    const roots = new Set(stored.clientState.queries.map((q) => q.queryKey[0]));
    expect([...roots].sort()).toEqual(['home', 'reference']);
    const widgets = stored.clientState.queries
      .filter((q) => q.queryKey[0] === 'home')
      .map((q) => q.queryKey[2]);
    expect(widgets.sort()).toEqual(['coffre', 'evenements', 'previsions', 'ventes']);
  });

  it('shows today against last year up to the same hour, then last year’s whole day, in fr, en and de', async () => {
    // Paris today: €1 an hour, all day; the same weekday a year earlier: €2 an hour, €48 in all.
    const today = currentFiscalDate(new Date(), 'Europe/Paris', '00:00');
    const lastYear = toWireDate(subDays(parseWireDate(today)!, LAST_YEAR_DAYS));
    for (const [date, cents] of [
      [today, 100],
      [lastYear, 200],
    ] as const) {
      await t.database.pool.query(
        `INSERT INTO daily_hour_sales (site_id, fiscal_date, hour, tickets, covers, net_cents, net_excl_cents, tax_cents)
         SELECT $1, $2, h, 1, 0, $3, $3, 0 FROM generate_series(0, 23) AS h`,
        [chain.sites.paris, date, cents],
      );
    }
    await t.database.pool.query(
      `INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents)
       VALUES ($1, $2, 24, 4800, 4800, 0)`,
      [chain.sites.paris, lastYear],
    );
    const shownLastYear = wireToDisplay(lastYear);
    const expected = {
      fr: [`Il y a un an (${shownLastYear}), jusqu'à `, `Il y a un an (${shownLastYear}, journée entière)`],
      en: [`A year ago (${shownLastYear}), until `, `A year ago (${shownLastYear}, whole day)`],
      de: [`Vor einem Jahr (${shownLastYear}), bis `, `Vor einem Jahr (${shownLastYear}, ganzer Tag)`],
    } as const;
    await signIn('directeur', PASSWORD);
    for (const [locale, messages] of [
      ['fr', fr],
      ['en', en],
      ['de', de],
    ] as const) {
      const page = await renderHome(today, locale, messages);
      await waitUntil(
        () => page.querySelector('.home-widget--ventes .home-widget__time') !== null,
        10_000,
        25,
      );
      const lines = [...page.querySelectorAll('.home-widget--ventes .home-figure')].slice(1, 3);
      const [soFarLabel, wholeLabel] = lines.map((l) => l.querySelector('dt')!.textContent!);
      const [soFarValue, wholeValue] = lines.map((l) => l.querySelector('dd')!.textContent!);
      expect(soFarLabel!.slice(0, expected[locale][0].length)).toBe(expected[locale][0]);
      // The hours fully elapsed, on both sides: €2 an hour a year ago, half of it today.
      const hour = Number(/(\d\d):00( Uhr)?$/.exec(soFarLabel!)![1]);
      const soFarCents = hour * 200;
      const change =
        hour === 0 ? '' : ` (${formatNumber(-0.5, locale, { style: 'percent', signDisplay: 'always' })})`;
      expect(soFarValue).toBe(`${formatMoney(soFarCents, 'EUR', locale)}${change}`);
      expect(wholeLabel).toBe(expected[locale][1]);
      expect(wholeValue).toBe(formatMoney(4800, 'EUR', locale));
      unmountScreen(screen!);
      screen = undefined;
    }
  });

  it('empties the persisted cache on sign-out', async () => {
    await signIn('directeur', PASSWORD);
    const page = await renderHome();
    await waitUntil(() => page.querySelectorAll('.home-widget .home-widget__time').length === 4, 10_000, 25);
    await waitUntil(() => (localStorage.getItem(PERSIST_STORAGE_KEY) ?? '').includes('ventes'), 5_000, 50);
    await act(async () => {
      await signOut();
    });
    await waitUntil(() => !(localStorage.getItem(PERSIST_STORAGE_KEY) ?? '').includes('ventes'), 5_000, 50);
    expect(queryClient.getQueryCache().findAll({ queryKey: ['home'] })).toEqual([]);
  });

  it('shows a user without the right of any widget no widget, and asks the server nothing', async () => {
    await signIn('caissier', PASSWORD);
    const page = await renderHome();
    await waitUntil(() => text(page, '.home-status') !== 'Loading…', 5_000, 25);
    expect(text(page, '.home-status')).toBe('Your profile gives access to no dashboard.');
    expect(page.querySelectorAll('.home-widget')).toHaveLength(0);
    expect(queryClient.getQueryCache().findAll({ queryKey: ['home'] })).toEqual([]);
    expect(apiBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  });
});

/**
 * /home against the real server (home-api.ts), rendered with react-dom in happy-dom under a
 * memory router: a director sees the four widgets with the figures of the fixture day, the
 * day-part table whose bars hide nothing focusable, and the dashboard written to the persisted
 * cache (decision 0021) — only dashboard and reference queries, under the app's buster; a cashier
 * with no right of the widgets' data sees none and asks the server for nothing.
 */
import { apiBase, PASSWORD } from './home-api.ts';
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { HomePage } from '../../src/client/features/home/components/home-page.tsx';
import {
  PERSIST_BUSTER,
  PERSIST_STORAGE_KEY,
  queryClient,
  restoreQueryCache,
} from '../../src/client/lib/query-client.ts';
import { signIn, signOut } from '../../src/client/lib/session.ts';
import { loadReferenceData } from '../../src/client/selection/load-reference-data.ts';
import { resetSelection } from '../../src/client/selection/selection-state.ts';
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

async function renderHome(): Promise<HTMLDivElement> {
  resetSelection();
  await loadReferenceData();
  screen = await renderRoutedScreen(
    {
      '/home': () => <HomePage datePerso="2026-03-02" />,
      '/analyses/coffre': Empty,
      '/analyses/comptageCaisses': Empty,
    },
    '/home',
    'en',
    en,
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

// @vitest-environment happy-dom
/**
 * /rapports with no network (issue #20 item 9), rendered with react-dom in happy-dom over the
 * app's Dexie database (fake-indexeddb) holding offline copies as the service worker keeps them:
 * the page lists the signed-in user's report previews (report, sites, period DD/MM/YYYY, time
 * of the copy) — not their files, not another user's, not other reads — and opening one shows
 * its dataset marked as an offline copy. Online, the list is not shown.
 */
import 'fake-indexeddb/auto';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fr from '../../i18n/fr.json';
import type { Dataset, ReportClassInfo } from '../../src/contract/reports.ts';
import { ReportsPage } from '../../src/client/features/reports/components/reports-page.tsx';
import { reportQueries } from '../../src/client/features/reports/report-queries.ts';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { db } from '../../src/client/lib/outbox/local-database.ts';
import { copyKey } from '../../src/client/lib/outbox/offline-copy-store.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { resetSelection } from '../../src/client/selection/selection-state.ts';
import {
  renderScreen,
  type Screen,
  seedReferenceData,
  signInAs,
  testSite,
  unmountScreen,
  waitUntil,
} from './support.tsx';

const editions: ReportClassInfo[] = [
  {
    className: 'RapportVentes',
    localisedTitle: 'Ventes',
    variants: ['Daily'],
    formats: ['PDF', 'JSON'],
    maxDays: 366,
  },
];

const dataset: Dataset = {
  className: 'RapportVentes',
  variant: 'Daily',
  title: 'Ventes journalières',
  currency: 'EUR',
  dateDebut: '2026-11-02',
  dateFin: '2026-11-08',
  sites: [
    { restaurantId: 1, libelle: 'Lyon Bellecour' },
    { restaurantId: 2, libelle: 'Annecy' },
  ],
  generatedAt: '2026-11-09T13:32:00.000Z',
  columns: [
    { key: 'fiscalDate', type: 'date', label: 'Date fiscale' },
    { key: 'netSales', type: 'money', label: 'CA TTC' },
  ],
  rows: [{ fiscalDate: '2026-11-02', netSales: 123_456 }],
  totals: { fiscalDate: null, netSales: 123_456 },
};

/** 9 November 2026 at 14:32, local time, as the service worker stamps a copy. */
const STORED_AT = new Date(2026, 10, 9, 14, 32).getTime();

/** Keeps `body` as the copy of GET `path?query` for `login`, as offline-copy-store.ts does. */
async function keepCopy(login: string, path: string, query: string, body: string, contentType: string) {
  const bytes = new TextEncoder().encode(body);
  await db().offlineCopies.put({
    key: copyKey(login, path, new URLSearchParams(query)),
    storedAt: STORED_AT,
    status: 200,
    contentType,
    body: bytes.buffer,
    bytes: bytes.byteLength,
    login,
  });
}

const reportQuery = (format: string) =>
  `id=5&rapportClassName=RapportVentes&typeRapport=Daily&dateDebut=2026-11-02&dateFin=2026-11-08&format=${format}&sites[]=1&sites[]=2&_=1`;

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

let screen: Screen;

beforeEach(async () => {
  resetSelection();
  signInAs({ id: 5, login: 'gerant' });
  seedReferenceData([testSite(1, 'Lyon Bellecour'), testSite(2, 'Annecy')]);
  queryClient.setQueryData(reportQueries.metrics(5, i18nState.language).queryKey, { editions });
  queryClient.setQueryData(reportQueries.choices(5, 'RapportVentes', i18nState.language).queryKey, {
    className: 'RapportVentes',
    localisedTitle: 'Ventes',
    variants: [{ value: 'Daily', label: 'Journalier' }],
    formats: ['PDF', 'JSON'],
    maxDays: 366,
    operations: [],
    filtres: [],
    tris: [],
    regroupements: [],
    conditionsFrom: 'bo/getGroupements',
  });
  await keepCopy('gerant', 'bo/getReport', reportQuery('JSON'), JSON.stringify(dataset), 'application/json');
  // Not listed: the PDF file, another user's preview, another read.
  await keepCopy('gerant', 'bo/getReport', reportQuery('PDF'), '%PDF', 'application/pdf');
  await keepCopy('autre', 'bo/getReport', reportQuery('JSON'), JSON.stringify(dataset), 'application/json');
  await keepCopy('gerant', 'bo/home/ventes', 'id=5', '{"days":[]}', 'application/json');
});

afterEach(async () => {
  unmountScreen(screen);
  setOnline(true);
  await db().offlineCopies.clear();
});

const items = () => [...screen.container.querySelectorAll('.rep-copies__item')];

describe('/rapports offline', () => {
  it("lists the user's kept report previews: report, sites, period and time of the copy", async () => {
    setOnline(false);
    screen = await renderScreen(<ReportsPage />, 'fr', fr);
    await waitUntil(() => items().length > 0, 5_000, 20);
    expect(screen.container.querySelector('#rep-copies-heading')?.textContent).toBe(
      'Rapports disponibles hors ligne',
    );
    expect(items().map((b) => [...b.children].map((c) => c.textContent))).toEqual([
      ['Ventes', 'Lyon Bellecour, Annecy · du 02/11/2026 au 08/11/2026', 'Copie du 09/11/2026 à 14:32'],
    ]);
  });

  it('opens a copy: its dataset shows, marked with the time of the copy', async () => {
    setOnline(false);
    screen = await renderScreen(<ReportsPage />, 'fr', fr);
    await waitUntil(() => items().length > 0, 5_000, 20);
    await act(async () => {
      (items()[0] as HTMLButtonElement).click();
    });
    await waitUntil(() => screen.container.querySelector('.rep-preview') !== null, 5_000, 20);
    expect(screen.container.querySelector('#rep-preview-heading')?.textContent).toBe('Ventes journalières');
    expect(screen.container.querySelector('.rep-copy-note')?.textContent).toBe(
      'Copie hors ligne du 09/11/2026 à 14:32',
    );
    expect(screen.container.querySelector('.rep-totals dd')?.textContent).toBe('1\u202f234,56\u00a0€');
  });

  it('lists them too when the browser says online but a report request fails for the network', async () => {
    setOnline(true);
    screen = await renderScreen(<ReportsPage />, 'fr', fr);
    expect(screen.container.querySelector('.rep-copies')).toBeNull();
    // No server answers in this test: the request fails as on a dead network.
    const show = [...screen.container.querySelectorAll('button')].find(
      (b) => b.textContent === "Afficher à l'écran",
    );
    await act(async () => {
      show?.click();
    });
    await waitUntil(() => items().length > 0, 10_000, 20);
    expect(items()[0]?.querySelector('.rep-copies__title')?.textContent).toBe('Ventes');
  });

  it('shows no list while online', async () => {
    setOnline(true);
    screen = await renderScreen(<ReportsPage />, 'fr', fr);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 100));
    });
    expect(screen.container.querySelector('.rep-copies')).toBeNull();
  });
});

// @vitest-environment happy-dom
/**
 * The exports screen rendered with react-dom in happy-dom on answers already in the query cache
 * (as GET exports/status and exports/list give them): one card per site with its state and
 * figures, the ZIP button only where tickets arrived, and one row per generated report with its
 * period, sites, size, author and a named download button — in English and German.
 */
import 'fake-indexeddb/auto';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import { toWireDate } from '../../src/contract/dates.ts';
import type { EditionsAnswer, ExportStatusAnswer } from '../../src/contract/exports.ts';
import type { Language } from '../../src/contract/reports.ts';
import { ExportsPage, formatInstant } from '../../src/client/features/exports/components/exports-page.tsx';
import { exportQueries } from '../../src/client/features/exports/export-queries.ts';
import { i18nState } from '../../src/client/lib/i18n.tsx';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { renderRoutedScreen, renderScreen, signInAs, unmountScreen } from './support.tsx';

const today = toWireDate(new Date());

const status: ExportStatusAnswer = {
  dateFiscale: today,
  sites: [
    {
      restaurantId: 2,
      libelle: 'Lyon Part-Dieu',
      tickets: 1234,
      netCents: 1_234_550,
      currency: 'EUR',
      firstTicketAt: '2026-11-03T07:00:00.000Z',
      lastTicketAt: '2026-11-03T21:30:00.000Z',
      lastLoadAt: '2026-11-04T02:00:00.000Z',
      lastLoadSource: 'file:lyon.csv',
      reports: 2,
      lastReportAt: '2026-11-04T08:00:00.000Z',
      state: 'REPORTED',
    },
    {
      restaurantId: 4,
      libelle: 'Nantes',
      tickets: 0,
      netCents: 0,
      currency: 'EUR',
      firstTicketAt: null,
      lastTicketAt: null,
      lastLoadAt: null,
      lastLoadSource: null,
      reports: 0,
      lastReportAt: null,
      state: 'NO_DATA',
    },
  ],
};

const list: EditionsAnswer = {
  more: true,
  editions: [
    {
      id: 7,
      className: 'RapportVentes',
      localisedTitle: 'Sales',
      variant: 'Daily',
      format: 'JSON',
      language: 'en',
      dateDebut: '2026-11-01',
      dateFin: '2026-11-10',
      fiscalDates: null,
      sites: [
        { restaurantId: 1, libelle: 'Paris Opéra' },
        { restaurantId: 2, libelle: 'Lyon Part-Dieu' },
      ],
      bytes: 14_230,
      rows: 20,
      status: 'OK',
      login: 'manager',
      generatedAt: '2026-11-04T08:00:00.000Z',
    },
    {
      id: 6,
      className: 'RapportVentesComparaison',
      localisedTitle: 'Comparison with last year',
      variant: 'Cumulative',
      format: 'CSV',
      language: 'fr',
      dateDebut: '2026-11-03',
      dateFin: '2026-11-03',
      fiscalDates: null,
      sites: [{ restaurantId: 2, libelle: 'Lyon Part-Dieu' }],
      bytes: null,
      rows: 0,
      status: 'EMPTY',
      login: 'lyon',
      generatedAt: '2026-11-03T22:00:00.000Z',
    },
  ],
};

let container: HTMLDivElement;
let root: Root;

async function render(language: Language, messages: Record<string, string>) {
  i18nState.language = language;
  signInAs({ id: 9, login: 'manager', language });
  queryClient.setQueryData(exportQueries.status(9, today).queryKey, status);
  queryClient.setQueryData(exportQueries.list(9, language, 1).queryKey, list);
  ({ container, root } = await renderScreen(<ExportsPage />, language, messages));
}

afterEach(() => {
  unmountScreen({ container, root });
  i18nState.language = 'fr';
});

const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s/gu, ' ') ?? '';

describe('exports page', () => {
  it("shows each site's state of the day with its figures, and the ZIP only where tickets arrived", async () => {
    await render('en', en);
    const cards = [...container.querySelectorAll('.ex-site')];
    expect(cards.map((c) => c.querySelector('.ex-site__name')?.textContent)).toEqual([
      'Lyon Part-Dieu',
      'Nantes',
    ]);
    expect(text(cards[0]!.querySelector('.ex-badge'))).toBe('Reports generated');
    expect(text(cards[0])).toContain('Tickets1,234');
    expect(text(cards[0])).toContain('Net sales (incl. VAT)€12,345.50');
    expect(text(cards[0])).toContain(`Last load${formatInstant('2026-11-04T02:00:00.000Z')} · file:lyon.csv`);
    expect(text(cards[0])).toContain('Reports covering this day2');
    // The name starts with the visible text (WCAG 2.5.3, axe label-content-name-mismatch).
    const zip = cards[0]!.querySelector('button');
    expect(zip?.getAttribute('aria-label')).toBe(
      `All reports of the day (ZIP): ${today.split('-').reverse().join('/')}, Lyon Part-Dieu`,
    );
    expect(zip?.getAttribute('aria-label')?.startsWith(text(zip))).toBe(true);
    expect(text(cards[1]!.querySelector('.ex-badge'))).toBe('No tickets received');
    expect(text(cards[1])).toContain('Last loadNo ticket load recorded for this day');
    expect(cards[1]!.querySelector('button')).toBeNull();
  });

  it('lists the generated reports with period, sites, format, size, date, author, outcome and a download button', async () => {
    await render('en', en);
    const rows = [...container.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(2);
    const cells = (row: Element) => [...row.querySelectorAll('th, td')].map((c) => text(c));
    expect(cells(rows[0]!)).toEqual([
      'Sales',
      '01/11/2026 – 10/11/2026',
      'Paris Opéra, Lyon Part-Dieu',
      'On screen',
      '14.2 kB',
      formatInstant('2026-11-04T08:00:00.000Z'),
      'manager',
      'Sent',
      'Download again (PDF)',
    ]);
    expect(cells(rows[1]!).slice(0, 5)).toEqual([
      'Comparison with last year · Cumulative',
      '03/11/2026',
      'Lyon Part-Dieu',
      'CSV',
      '–',
    ]);
    expect(cells(rows[1]!)[7]).toBe('Empty (no data)');
    // The name starts with the visible text (WCAG 2.5.3, axe label-content-name-mismatch).
    const button = rows[1]!.querySelector('button');
    expect(button?.getAttribute('aria-label')).toBe(
      'Download again (CSV): Comparison with last year of 03/11/2026',
    );
    expect(button?.getAttribute('aria-label')?.startsWith(text(button))).toBe(true);
    // Phone cards read each value under its column's name.
    expect(rows[0]!.querySelector('td')?.getAttribute('data-label')).toBe('Period');
    expect(text(container.querySelector('.ex-buttons button'))).toBe('Show older ones');
    expect(text(container.querySelector('.ex-list-head button'))).toBe('My last report as PDF');
  });

  it('tells a manager, under a day with tickets and no report, that none was generated and where to make one (issue #20 item 15)', async () => {
    i18nState.language = 'en';
    signInAs({ id: 9, login: 'manager', language: 'en' });
    const received = { ...status.sites[0]!, state: 'RECEIVED' as const, reports: 0, lastReportAt: null };
    queryClient.setQueryData(exportQueries.status(9, today).queryKey, { ...status, sites: [received] });
    queryClient.setQueryData(exportQueries.list(9, 'en', 1).queryKey, list);
    ({ container, root } = await renderRoutedScreen(
      { '/analyses/listExports': ExportsPage, '/rapports': () => <p>reports</p> },
      '/analyses/listExports',
      'en',
      en,
    ));
    const card = container.querySelector('.ex-site');
    expect(text(card?.querySelector('.ex-hint'))).toBe(
      'No report generated for this day yet: generate one from Reports.',
    );
    expect(card?.querySelector('.ex-hint a')?.getAttribute('href')).toBe('/rapports');
    // A day that has its reports needs no such word.
    unmountScreen({ container, root });
    await render('en', en);
    expect(container.querySelector('.ex-hint')).toBeNull();
  });

  it('speaks German', async () => {
    await render('de', de);
    expect(text(container.querySelector('h1'))).toBe('Exporte');
    expect(text(container.querySelector('.ex-site .ex-badge'))).toBe('Berichte erstellt');
    expect(text(container.querySelector('.ex-site'))).toContain('Umsatz (inkl. MwSt.)12.345,50 €');
    expect([...container.querySelectorAll('thead th')].map((c) => text(c))).toEqual([
      'Bericht',
      'Zeitraum',
      'Standorte',
      'Format',
      'Größe',
      'Erstellt am',
      'Von',
      'Ergebnis',
      'Aktion',
    ]);
  });
});

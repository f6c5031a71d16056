// @vitest-environment happy-dom
/**
 * The report preview table (src/client/features/reports/components/dataset-table.tsx) rendered
 * with react-dom in happy-dom: a semantic table (column headers, the first column as row
 * headers), a hundred rows at a time with the whole report's totals under each page, the rows
 * shown and previous / next buttons in the interface's language, and the first page again when
 * another dataset comes.
 */
import { readFileSync } from 'node:fs';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import fr from '../../i18n/fr.json';
import type { Dataset } from '../../src/contract/reports.ts';
import {
  DatasetTable,
  DatasetTotals,
  PREVIEW_PAGE_ROWS,
} from '../../src/client/features/reports/components/dataset-table.tsx';
import { renderScreen, rerenderScreen, type Screen, unmountScreen } from './support.tsx';

/** A sales-by-day dataset of `days` rows from 1 January 2026: day n sold n tickets of 10.00. */
function salesByDay(days: number, title = 'Ventes'): Dataset {
  const rows = Array.from({ length: days }, (_, i) => ({
    fiscalDate: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    tickets: i + 1,
    netSales: (i + 1) * 1000,
  }));
  return {
    className: 'RapportVentes',
    variant: 'Daily',
    title,
    currency: 'EUR',
    dateDebut: rows[0]?.fiscalDate ?? '2026-01-01',
    dateFin: rows.at(-1)?.fiscalDate ?? '2026-01-01',
    sites: [{ restaurantId: 1, libelle: 'Paris Opéra' }],
    generatedAt: '2026-11-23T08:00:00.000Z',
    columns: [
      { key: 'fiscalDate', type: 'date', label: 'Date fiscale' },
      { key: 'tickets', type: 'qty', label: 'Tickets' },
      { key: 'netSales', type: 'money', label: 'CA TTC' },
    ],
    rows,
    totals: {
      fiscalDate: null,
      tickets: rows.reduce((n, r) => n + r.tickets, 0),
      netSales: rows.reduce((n, r) => n + r.netSales, 0),
    },
  };
}

let screen: Screen | undefined;
afterEach(() => {
  if (screen) unmountScreen(screen);
  screen = undefined;
});

const bodyRows = () => [...document.querySelectorAll('table tbody tr')];
const firstCells = () => bodyRows().map((tr) => tr.firstElementChild?.textContent ?? '');
const button = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent === name) as HTMLButtonElement;
const press = async (name: string) => {
  await act(async () => {
    button(name).click();
  });
};
const where = () => document.querySelector('.rep-pager [role=status]')?.textContent;

describe('the report preview table', () => {
  it('is a table with column headers, the date as row header, and totals', async () => {
    screen = await renderScreen(<DatasetTable dataset={salesByDay(3)} />, 'en', en);
    const table = document.querySelector('table')!;
    expect(table.getAttribute('aria-label')).toBe('Ventes');
    expect([...table.querySelectorAll('thead th[scope=col]')].map((th) => th.textContent)).toEqual([
      'Date fiscale',
      'Tickets',
      'CA TTC',
    ]);
    expect([...table.querySelectorAll('tbody th[scope=row]')].map((th) => th.textContent)).toEqual([
      '01/01/2026',
      '02/01/2026',
      '03/01/2026',
      'Total',
    ]);
    expect(bodyRows()[3]!.textContent).toBe('Total6€60.00');
    // Three rows: one page, no pager.
    expect(document.querySelector('.rep-pager')).toBeNull();
  });

  it(`shows ${PREVIEW_PAGE_ROWS} rows at a time, the whole report's totals under each page`, async () => {
    screen = await renderScreen(<DatasetTable dataset={salesByDay(250)} />, 'en', en);
    expect(bodyRows()).toHaveLength(PREVIEW_PAGE_ROWS + 1);
    expect(firstCells()[0]).toBe('01/01/2026');
    expect(firstCells()[PREVIEW_PAGE_ROWS - 1]).toBe('10/04/2026');
    expect(where()).toBe('Rows 1–100 of 250');
    expect(button('Previous rows').disabled).toBe(true);
    const totals = bodyRows().at(-1)!.textContent;
    expect(totals).toBe(`Total${(31375).toLocaleString('en')}€${(313750).toLocaleString('en')}.00`);

    // Scrolled down the first page, the next one starts at its first row.
    const scroller = document.querySelector('.ui-table-scroll') as HTMLDivElement;
    scroller.scrollTop = 400;
    expect(scroller.scrollTop).toBe(400);
    await press('Next rows');
    expect(where()).toBe('Rows 101–200 of 250');
    expect(firstCells()[0]).toBe('11/04/2026');
    expect(scroller.scrollTop).toBe(0);
    expect(bodyRows().at(-1)!.textContent).toBe(totals);

    await press('Next rows');
    expect(where()).toBe('Rows 201–250 of 250');
    expect(bodyRows()).toHaveLength(51);
    expect(firstCells()[49]).toBe('07/09/2026');
    expect(button('Next rows').disabled).toBe(true);

    await press('Previous rows');
    expect(where()).toBe('Rows 101–200 of 250');
  });

  it('goes back to the first page when another report comes', async () => {
    screen = await renderScreen(<DatasetTable dataset={salesByDay(250)} />, 'en', en);
    await press('Next rows');
    await press('Next rows');
    await rerenderScreen(screen, <DatasetTable dataset={salesByDay(120, 'Autre')} />, 'en', en);
    expect(where()).toBe('Rows 1–100 of 120');
    expect(firstCells()[0]).toBe('01/01/2026');
  });

  it.each([
    ['fr', fr, 'Lignes 1 à 100 sur 250', 'Lignes suivantes'],
    ['de', de, 'Zeilen 1–100 von 250', 'Nächste Zeilen'],
  ] as const)('speaks %s', async (locale, messages, rows, next) => {
    screen = await renderScreen(<DatasetTable dataset={salesByDay(250)} />, locale, messages);
    expect(where()).toBe(rows);
    expect(button(next).disabled).toBe(false);
    expect(document.querySelector('.rep-pager')?.getAttribute('aria-label')).toBe(
      messages['reports.preview.pages'],
    );
  });

  it('says so when the report is empty', async () => {
    screen = await renderScreen(<DatasetTable dataset={salesByDay(0)} />, 'en', en);
    expect(bodyRows()).toHaveLength(1);
    expect(bodyRows()[0]!.textContent).toBe(en['reports.preview.empty']);
    expect(document.querySelector('.rep-pager')).toBeNull();
  });
});

/** A year-on-year comparison of 7 days whose year-earlier side sold on `previousDays` of them. */
function comparison(previousDays: number): Dataset {
  const rows = Array.from({ length: 7 }, (_, i) => ({
    fiscalDate: `2026-11-0${i + 2}`,
    netSales: 13_212_100,
    previousNetSales: i < previousDays ? 9_000_000 : 0,
  }));
  const net = rows.reduce((n, r) => n + r.netSales, 0);
  const previous = rows.reduce((n, r) => n + r.previousNetSales, 0);
  return {
    className: 'RapportVentesComparaison',
    variant: 'Daily',
    title: 'Comparaison',
    currency: 'EUR',
    dateDebut: '2026-11-02',
    dateFin: '2026-11-08',
    sites: [{ restaurantId: 1, libelle: 'Paris Opéra' }],
    generatedAt: '2026-11-23T08:00:00.000Z',
    columns: [
      { key: 'fiscalDate', type: 'date', label: 'Date fiscale' },
      { key: 'netSales', type: 'money', label: 'CA TTC' },
      { key: 'previousNetSales', type: 'money', label: 'CA TTC N-1' },
      { key: 'variancePercent', type: 'percent', label: 'Écart %' },
    ],
    rows,
    totals: {
      fiscalDate: null,
      netSales: net,
      previousNetSales: previous,
      variancePercent: previous === 0 ? null : (net - previous) / previous,
    },
  };
}

const tiles = () =>
  [...document.querySelectorAll('.rep-totals__item')].map((t) => [
    t.querySelector('dt')?.textContent,
    t.querySelector('dd')?.textContent,
  ]);

describe('the key figures above the report (issue #20 items 11 and 13)', () => {
  it('gives the percentage against a year earlier only when that year sold on as many days', async () => {
    screen = await renderScreen(<DatasetTotals dataset={comparison(7)} />, 'fr', fr);
    expect(tiles().at(-1)).toEqual(['Écart %', '46,8\u00a0%']);
  });

  it('says "partial data a year earlier" instead of a percentage over a few days', async () => {
    // One day of sales a year earlier against seven now: the server's percentage would be +927 %.
    screen = await renderScreen(<DatasetTotals dataset={comparison(1)} />, 'en', en);
    expect(tiles().at(-1)).toEqual(['Écart %', 'No comparison: partial data a year earlier']);
    expect(document.querySelector('.rep-totals')?.textContent).not.toMatch(/\d\s?%/);
  });

  it('says "no sales a year earlier" when that year sold nothing, in German too', async () => {
    screen = await renderScreen(<DatasetTotals dataset={comparison(0)} />, 'de', de);
    expect(tiles().at(-1)).toEqual(['Écart %', 'Kein Vergleich: ein Jahr zuvor keine Umsätze']);
  });

  it('keeps each amount on one line: the tile value does not wrap', async () => {
    screen = await renderScreen(<DatasetTotals dataset={comparison(7)} />, 'fr', fr);
    const amount = document.querySelector('.rep-totals__item dd');
    expect(amount?.textContent).toBe('924\u202f847,00\u00a0€');
    // happy-dom lays nothing out: the rule itself is what holds the amount on one line.
    const css = readFileSync('src/client/features/reports/components/reports.css', 'utf8');
    const rule = /\.rep-totals__item dd \{[^}]*\}/.exec(css)?.[0] ?? '';
    expect(rule).toContain('white-space: nowrap');
    expect(rule).not.toContain('overflow-wrap: anywhere');
  });
});

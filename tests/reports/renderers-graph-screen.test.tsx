// @vitest-environment happy-dom
/**
 * The Graph variant on the /rapports screen: the preview of a Graph dataset shows the chart's
 * figure (recharts, the same rule as the PDF's) above the table; a Daily dataset shows none.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import type { Dataset } from '../../src/contract/reports.ts';
import { ReportChart } from '../../src/client/features/reports/components/report-chart.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function dataset(variant: Dataset['variant']): Dataset {
  return {
    className: 'RapportVentesTranche',
    variant,
    title: 'Sales by day part',
    currency: 'EUR',
    dateDebut: '2026-11-01',
    dateFin: '2026-11-10',
    sites: [{ restaurantId: 1, libelle: 'Site 1' }],
    generatedAt: '2026-11-21T10:00:00Z',
    columns: [
      { key: 'dayPart', label: 'Day part', type: 'text' },
      { key: 'netSales', label: 'Net sales incl. VAT', type: 'money' },
    ],
    rows: [
      { dayPart: 'Morning', netSales: 120_000 },
      { dayPart: 'Lunch', netSales: 480_000 },
      { dayPart: 'Evening', netSales: 300_000 },
    ],
    totals: { dayPart: null, netSales: 900_000 },
  };
}

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

function show(ds: Dataset) {
  act(() =>
    root.render(
      <IntlProvider locale="en-GB" messages={en}>
        {ds.variant === 'Graph' ? <ReportChart dataset={ds} /> : null}
      </IntlProvider>,
    ),
  );
}

describe('Graph variant on screen', () => {
  it('shows a chart figure named after its axes, the drawing hidden from screen readers', () => {
    show(dataset('Graph'));
    const figure = container.querySelector('figure.rep-chart');
    expect(figure).not.toBeNull();
    expect(figure!.querySelector('figcaption')!.textContent).toBe('Net sales incl. VAT · Day part');
    expect(figure!.querySelector('.rep-chart__plot')!.getAttribute('aria-hidden')).toBe('true');
    expect(figure!.querySelector('.recharts-responsive-container')).not.toBeNull();
  });

  it('shows no chart for the Daily variant', () => {
    show(dataset('Daily'));
    expect(container.querySelector('figure.rep-chart')).toBeNull();
  });
});

// @vitest-environment happy-dom
/**
 * A page of ticket search results rendered with react-dom in happy-dom (inside a memory router,
 * since each number links to its ticket): the count, rows with money in each site's currency
 * and the interface's language, the link to each ticket, the pager, and SPEC.md §8
 * NoTicketToCrit when nothing matches.
 */
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../i18n/de.json';
import en from '../../i18n/en.json';
import type { TicketSearchAnswer, TicketSummary } from '../../src/contract/tickets.ts';
import { TicketResults } from '../../src/client/features/tickets/components/ticket-results.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ticket = (over: Partial<TicketSummary>): TicketSummary => ({
  restaurantId: 1,
  site: 'Paris Opéra',
  ticketId: 5000,
  number: 'PAR-0001',
  fiscalDate: '2026-10-03',
  openedAt: '2026-10-03T19:05:00.000Z',
  openedLocal: '2026-10-03T21:05:00',
  terminalId: 2,
  terminal: 'Caisse bar',
  sellerCode: 'V01',
  seller: 'Alice',
  kind: 'SALE',
  employeeMeal: false,
  trainingMode: false,
  corrected: false,
  cashed: true,
  totalCents: 2150,
  currency: 'EUR',
  ...over,
});

let container: HTMLDivElement | undefined;
let root: Root | undefined;

afterEach(() => {
  if (root) act(() => root?.unmount());
  container?.remove();
});

async function show(
  answer: TicketSearchAnswer,
  language: 'en' | 'de' = 'en',
  onPage: (page: number) => void = () => {},
) {
  const rootRoute = createRootRoute({
    component: () => (
      <IntlProvider locale={language} messages={language === 'en' ? en : de}>
        <TicketResults answer={answer} onPage={onPage} />
      </IntlProvider>
    ),
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/tickets'] }),
  });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root?.render(<RouterProvider router={router} />);
  });
  await act(async () => {
    await router.load();
  });
  return container;
}

describe('ticket search results', () => {
  it('says NoTicketToCrit when nothing matches', async () => {
    const view = await show({ page: 1, pageSize: 50, total: 0, tickets: [] });
    expect(view.querySelector('.tk-empty')?.textContent).toBe(en['error.NoTicketToCrit']);
    expect(view.querySelector('table')).toBeNull();
  });

  it('lists each ticket with its site clock, till, seller, number linking to it, kind and amount', async () => {
    const view = await show({
      page: 1,
      pageSize: 50,
      total: 2,
      tickets: [
        ticket({}),
        ticket({
          restaurantId: 3,
          site: 'London Soho',
          ticketId: 7001,
          number: 'LON-7',
          openedLocal: '2026-10-03T18:59:00',
          kind: 'CANCELLATION',
          corrected: true,
          totalCents: -880,
          currency: 'GBP',
        }),
      ],
    });
    expect(view.querySelector('.tk-count')?.textContent).toBe('2 tickets');
    const rows = [...view.querySelectorAll('tbody tr')].map((r) =>
      [...r.querySelectorAll('td')].map((c) => c.textContent),
    );
    expect(rows).toEqual([
      ['03/10/2026 21:05', 'Paris Opéra', 'Caisse bar', 'Alice', 'PAR-0001', 'Sale', '€21.50'],
      ['03/10/2026 18:59', 'London Soho', 'Caisse bar', 'Alice', 'LON-7', 'CancellationCorrected', '-£8.80'],
    ]);
    const links = [...view.querySelectorAll<HTMLAnchorElement>('a.tk-open')].map((a) =>
      a.getAttribute('href'),
    );
    expect(links).toEqual(['/tickets/1/5000', '/tickets/3/7001']);
    expect(view.querySelector('.tk-pager')).toBeNull();
  });

  it('pages: shows where the user is and asks for the page before or after', async () => {
    const asked: number[] = [];
    const view = await show({ page: 2, pageSize: 1, total: 3, tickets: [ticket({})] }, 'de', (p) =>
      asked.push(p),
    );
    expect(view.querySelector('.tk-count')?.textContent).toBe('3 Bons');
    expect(view.querySelector('.tk-pager__where')?.textContent).toBe('Seite 2 von 3');
    expect(view.querySelector('tbody td.tk-c-amount')?.textContent).toBe('21,50\u00a0€');
    const [previous, next] = [...view.querySelectorAll<HTMLButtonElement>('.tk-pager button')];
    await act(async () => {
      previous?.click();
      next?.click();
    });
    expect(asked).toEqual([1, 3]);
  });
});

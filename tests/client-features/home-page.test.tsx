// @vitest-environment happy-dom
/**
 * The home page rendered with react-dom in happy-dom on answers already in the query cache (as
 * the server gives them): yesterday and today side by side, money in the answer's currency and
 * the interface's language.
 */
import 'fake-indexeddb/auto';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { toWireDate } from '../../src/contract/dates.ts';
import type { Site } from '../../src/contract/api.ts';
import { HomePage } from '../../src/client/features/home/components/home-page.tsx';
import { homeQueries } from '../../src/client/features/home/home-queries.ts';
import { referenceQueries } from '../../src/client/features/selection/reference-queries.ts';
import { referenceLoad, resetSelection } from '../../src/client/features/selection/selection-state.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { session } from '../../src/client/lib/session.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const site = (restaurantId: number, libelle: string): Site => ({
  restaurantId,
  libelle,
  societeId: 1,
  currency: 'GBP',
  timeZone: 'Europe/London',
  caisses: [],
  vendeurs: [],
  groupe: ['TOUS'],
  extras: { code_implant: null },
});

let container: HTMLDivElement;
let root: Root;

beforeEach(async () => {
  resetSelection();
  session.user = {
    id: 9,
    login: 'manager',
    droits: [],
    currency: 'GBP',
    role: '',
    token: 't',
    codeExploitant: 'OP7',
    language: 'en',
  };
  queryClient.setQueryData(referenceQueries.sites().queryKey, [site(4, 'Soho'), site(2, 'Camden')]);
  queryClient.setQueryData(referenceQueries.groups().queryKey, []);
  queryClient.setQueryData(referenceQueries.terminals().queryKey, []);
  queryClient.setQueryData(referenceQueries.sellers().queryKey, []);
  Object.assign(referenceLoad, { loading: false, loaded: true, failedCode: null });
  const today = toWireDate(new Date());
  // Same key the page builds: sites ascending, today, the user's operator code (SPEC.md §6).
  queryClient.setQueryData(
    homeQueries.sales({ userId: 9, siteIds: [2, 4], datePerso: today, exploitant: 'OP7' }).queryKey,
    {
      data: {
        currency: 'GBP',
        days: [
          { fiscalDate: '2026-03-01', tickets: 1234, netSales: 1_234_550, averageTicket: 1000 },
          { fiscalDate: '2026-03-02', tickets: 12, netSales: 9_999, averageTicket: 833 },
        ],
      },
    },
  );
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root.render(
      <QueryClientProvider client={queryClient}>
        <IntlProvider locale="en" messages={en}>
          <HomePage />
        </IntlProvider>
      </QueryClientProvider>,
    );
  });
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  queryClient.clear();
});

describe('home page', () => {
  it("shows yesterday's then today's net sales, tickets and average ticket for all the user's sites", () => {
    const cards = [...container.querySelectorAll('.home-day')].map((c) => c.textContent);
    expect(cards).toEqual([
      'Yesterday01/03/2026Net sales (incl. VAT)£12,345.50Tickets1,234Average ticket£10.00',
      'Today02/03/2026Net sales (incl. VAT)£99.99Tickets12Average ticket£8.33',
    ]);
    expect(container.querySelector('.sel-picker__summary')?.textContent).toBe(
      'None chosen: all your sites (2)',
    );
  });
});

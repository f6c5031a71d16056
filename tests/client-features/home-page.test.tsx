// @vitest-environment happy-dom
/**
 * The home page rendered with react-dom in happy-dom on answers already in the query cache (as
 * the server gives them): yesterday and today side by side, money in the answer's currency and
 * the interface's language.
 */
import 'fake-indexeddb/auto';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { toWireDate } from '../../src/contract/dates.ts';
import { HomePage } from '../../src/client/features/home/components/home-page.tsx';
import { homeQueries } from '../../src/client/features/home/home-queries.ts';
import { resetSelection } from '../../src/client/selection/selection-state.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { renderScreen, seedReferenceData, signInAs, testSite, unmountScreen } from './support.tsx';

const site = (restaurantId: number, libelle: string) =>
  testSite(restaurantId, libelle, { currency: 'GBP', timeZone: 'Europe/London' });

let container: HTMLDivElement;
let root: Root;

beforeEach(async () => {
  resetSelection();
  signInAs({ id: 9, login: 'manager', droits: [], currency: 'GBP', codeExploitant: 'OP7', language: 'en' });
  seedReferenceData([site(4, 'Soho'), site(2, 'Camden')]);
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
  ({ container, root } = await renderScreen(<HomePage />, 'en', en));
});

afterEach(() => {
  unmountScreen({ container, root });
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

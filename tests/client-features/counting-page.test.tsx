/**
 * The cash-count screen rendered with react-dom in happy-dom, on answers already in the query
 * cache as the server gives them, with IndexedDB from fake-indexeddb: the manager types notes and
 * amounts, sees counted and variance live, and saving stores the count on the device with its
 * outbox item (same transaction) — or, when a required part is missing, shows the error and
 * keeps everything typed.
 *
 * The page lives at the origin of a loopback HTTP server (tests/client/api-server.ts) that answers
 * the screen's two reads as the cache holds them: a save refreshes them (the day's list changes),
 * and that refetch must reach a server — the requests it received are checked too.
 */
import { api } from './counting-page-api.ts';
import 'fake-indexeddb/auto';
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json } from '../client/api-server.ts';
import en from '../../i18n/en.json';
import type { Site } from '../../src/contract/api.ts';
import { toWireDate } from '../../src/contract/dates.ts';
import { CashCountPage } from '../../src/client/features/counting/components/cash-count-page.tsx';
import { countingQueries } from '../../src/client/features/counting/counting-queries.ts';
import { referenceQueries } from '../../src/client/features/selection/reference-queries.ts';
import { referenceLoad, resetSelection } from '../../src/client/features/selection/selection-state.ts';
import { db } from '../../src/client/lib/db.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import { session } from '../../src/client/lib/session.ts';

const today = toWireDate(new Date());
const lyon: Site = {
  restaurantId: 3,
  libelle: 'Lyon Bellecour',
  societeId: 1,
  currency: 'EUR',
  timeZone: 'Europe/Paris',
  caisses: [],
  vendeurs: [],
  groupe: ['TOUS'],
  extras: { code_implant: null },
};

const expectedAnswer = {
  site: 3,
  dateFiscale: today,
  caisse: 1,
  currency: 'EUR',
  expected: { cashCents: 6500, chequesCents: 4500, mealVouchersCents: 1000, cardSlipsCents: 0 },
  rules: [],
  required: { cash: true, cheques: true, mealVouchers: false, cardSlips: false },
};
const listAnswer = { currency: 'EUR', counts: [] };

beforeAll(() => {
  api.on('bo/comptage/expected', (_req, res) => json(res, 200, expectedAnswer));
  api.on('bo/comptage/list', (_req, res) => json(res, 200, listAnswer));
});
afterAll(async () => {
  await api.close();
});
/** Paths (without the API prefix) of the requests the API received in this test. */
const requested = () => api.requests.map((r) => r.path);

let container: HTMLDivElement;
let root: Root;

beforeEach(async () => {
  resetSelection();
  await db().outbox.clear();
  await db().cashCounts.clear();
  session.user = {
    id: 9,
    login: 'manager',
    droits: ['COMPTAGE'],
    currency: 'EUR',
    role: '',
    token: 't',
    codeExploitant: null,
    language: 'en',
  };
  queryClient.setQueryData(referenceQueries.sites().queryKey, [lyon]);
  queryClient.setQueryData(referenceQueries.groups().queryKey, []);
  queryClient.setQueryData(referenceQueries.terminals().queryKey, [
    { restaurantId: 3, libelle: 'Lyon Bellecour', caisses: [{ id: 1, libelle: 'Till 1' }] },
  ]);
  queryClient.setQueryData(referenceQueries.sellers().queryKey, []);
  Object.assign(referenceLoad, { loading: false, loaded: true, failedCode: null });
  queryClient.setQueryData(countingQueries.expected(9, 3, today, 1).queryKey, expectedAnswer);
  queryClient.setQueryData(countingQueries.list(9, 3, today).queryKey, listAnswer);
  api.requests.length = 0;
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root.render(
      <QueryClientProvider client={queryClient}>
        <IntlProvider locale="en" messages={en}>
          <CashCountPage action="saisie" fixOutboxId={undefined} />
        </IntlProvider>
      </QueryClientProvider>,
    );
  });
  await waitFor(() => container.querySelector('[data-testid="cash-denomination-2000"]') !== null);
});

afterEach(async () => {
  // Let the reads a save started finish before the page goes.
  await waitFor(() => queryClient.isFetching() === 0);
  act(() => root.unmount());
  container.remove();
  queryClient.clear();
});

async function waitFor(predicate: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
}

/** Types into an input the way React sees it (native setter, then an input event). */
async function type(input: HTMLInputElement, value: string): Promise<void> {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function inputLabelled(text: string): HTMLInputElement {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.startsWith(text));
  const id = label?.getAttribute('for');
  const input = id ? container.querySelector<HTMLInputElement>(`#${CSS.escape(id)}`) : null;
  if (!input) throw new Error(`no input labelled ${text}`);
  return input;
}

const text = (testId: string) => container.querySelector(`[data-testid="${testId}"]`)?.textContent;

async function save(): Promise<void> {
  const form = container.querySelector<HTMLFormElement>('[data-testid="cash-count-form"]');
  await act(async () => {
    form?.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}

describe('cash count screen', () => {
  it('shows counted and variance live against the expected amounts as notes and cheques are typed', async () => {
    await type(container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement, '3');
    await type(inputLabelled('Cheques'), '40');
    expect(text('counted-cash')).toBe('€60.00');
    expect(text('variance-cash')).toBe('-€5.00');
    expect(text('counted-cheques')).toBe('€40.00');
    expect(text('variance-cheques')).toBe('-€5.00');
    // Meal vouchers are not required on this site and were not counted.
    expect(text('counted-mealVouchers')).toBe('—');
  });

  it('stores the count and its outbox item together when saved, then empties the counts for the next drawer', async () => {
    await type(container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement, '3');
    await type(inputLabelled('Cheques'), '45,5');
    await save();
    await waitFor(() => container.querySelectorAll('[data-testid="cash-count-local"]').length === 1);

    const items = await db().outbox.toArray();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'cashCount',
      method: 'POST',
      path: 'bo/comptage/save',
      searchParams: { id: '9' },
      login: 'manager',
      state: 'waiting',
      body: {
        site: 3,
        dateFiscale: today,
        caisse: 1,
        cash: [{ denominationCents: 2000, quantity: 3 }],
        chequesCents: 4550,
        mealVouchersCents: null,
        cardSlipsCents: null,
      },
    });
    const local = await db().cashCounts.get(items[0]!.record!.key);
    expect(local).toMatchObject({
      syncState: 'pending',
      outboxId: items[0]!.id,
      siteId: 3,
      fiscalDate: today,
    });
    expect(
      (container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement).value,
    ).toBe('');
    // The save refreshes the day's reads (the list will hold the count once it reached the server).
    await waitFor(() => requested().includes('bo/comptage/list'));
    expect(requested().filter((p) => p.startsWith('bo/comptage/save'))).toEqual([]);
  });

  it('opens a queued count the server refused with what was typed, so it can be fixed (?outbox=<id>)', async () => {
    await type(container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement, '3');
    await type(inputLabelled('Cheques'), '45,5');
    await save();
    await waitFor(() => container.querySelectorAll('[data-testid="cash-count-local"]').length === 1);
    const [item] = await db().outbox.toArray();

    await act(async () => {
      root.render(
        <QueryClientProvider client={queryClient}>
          <IntlProvider locale="en" messages={en}>
            <CashCountPage action="saisie" fixOutboxId={item!.id} />
          </IntlProvider>
        </QueryClientProvider>,
      );
    });
    await waitFor(
      () =>
        (container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement).value === '3',
    );
    expect(inputLabelled('Cheques').value).toBe('45.50');
  });

  it('refuses a count missing a required part, says which, and keeps what was typed', async () => {
    await type(container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement, '3');
    await save();
    const alert = container.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('Cheques');
    expect(alert?.textContent).toContain('Required.');
    expect(
      (container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement).value,
    ).toBe('3');
    expect(await db().outbox.count()).toBe(0);
  });
});

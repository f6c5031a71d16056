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
import type { Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json } from '../client/api-server.ts';
import en from '../../i18n/en.json';
import { toWireDate } from '../../src/contract/dates.ts';
import { CashCountPage } from '../../src/client/features/counting/components/cash-count-page.tsx';
import { countingQueries } from '../../src/client/features/counting/counting-queries.ts';
import { resetSelection } from '../../src/client/selection/selection-state.ts';
import { db } from '../../src/client/lib/outbox/local-database.ts';
import { queryClient } from '../../src/client/lib/query-client.ts';
import {
  inputLabelled,
  renderScreen,
  rerenderScreen,
  seedReferenceData,
  signInAs,
  submitForm,
  testSite,
  typeInto as type,
  unmountScreen,
  waitUntil,
} from './support.tsx';

const today = toWireDate(new Date());
const lyon = testSite(3, 'Lyon Bellecour');

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
  await db().localRecords.clear();
  signInAs({ id: 9, login: 'manager', droits: ['COMPTAGE'], language: 'en' });
  seedReferenceData(
    [lyon],
    [{ restaurantId: 3, libelle: 'Lyon Bellecour', caisses: [{ id: 1, libelle: 'Till 1' }] }],
  );
  queryClient.setQueryData(countingQueries.expected(9, 3, today, 1).queryKey, expectedAnswer);
  queryClient.setQueryData(countingQueries.list(9, 3, today).queryKey, listAnswer);
  api.requests.length = 0;
  ({ container, root } = await renderScreen(
    <CashCountPage action="saisie" fixOutboxId={undefined} />,
    'en',
    en,
  ));
  await waitFor(() => container.querySelector('[data-testid="cash-denomination-2000"]') !== null);
});

afterEach(async () => {
  // Let the reads a save started finish before the page goes.
  await waitFor(() => queryClient.isFetching() === 0);
  unmountScreen({ container, root });
});

const waitFor = (predicate: () => boolean) => waitUntil(predicate, 3_000, 20);

const text = (testId: string) => container.querySelector(`[data-testid="${testId}"]`)?.textContent;

const save = () => submitForm('cash-count-form');

describe('cash count screen', () => {
  it('says an empty day has no count and what to do, then names a saved count by its terminal once (issue #32 D.5, D.9)', async () => {
    const list = () => container.querySelector('[data-testid="cash-count-list"]')?.closest('section');
    await waitFor(() => list()?.textContent?.includes(en['counting.cash.emptyDay']) ?? false);
    await type(container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement, '3');
    await save();
    await waitFor(() => container.querySelectorAll('[data-testid="cash-count-local"]').length === 1);
    const item = text('cash-count-local') ?? '';
    expect(item).toContain('Till 1');
    expect(item).not.toContain('Terminal Till 1');
    expect(list()?.textContent).not.toContain(en['counting.cash.emptyDay']);
  });

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
    const local = await db().localRecords.get(['cashCounts', items[0]!.record!.key]);
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

    await rerenderScreen(
      { container, root },
      <CashCountPage action="saisie" fixOutboxId={item!.id} />,
      'en',
      en,
    );
    await waitFor(
      () =>
        (container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement).value === '3',
    );
    expect(inputLabelled('Cheques').value).toBe('45.50');
  });

  it('saves a required part left empty as zero (issue #20 item 3): nothing refused, the form asks nothing of the browser', async () => {
    const form = container.querySelector<HTMLFormElement>('[data-testid="cash-count-form"]');
    // The browser's own validation is off: refusals are the form's, at the field.
    expect(form?.noValidate).toBe(true);
    const cheques = inputLabelled('Cheques');
    // Empty counts as 0, and the field says that alone: not marked "(required)" as well (issue #32 D.6).
    expect(cheques.getAttribute('aria-required')).toBeNull();
    expect(cheques.required).toBe(false);
    expect(container.querySelector(`label[for="${cheques.id}"]`)?.textContent).not.toContain('(required)');
    const describedBy = (cheques.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    const description = describedBy.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    expect(description).toContain(en['counting.zeroHint']);

    await type(container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement, '3');
    expect(text('counted-cheques')).toBe('€0.00');
    await save();
    await waitFor(() => container.querySelectorAll('[data-testid="cash-count-local"]').length === 1);
    const [item] = await db().outbox.toArray();
    expect(item?.body).toMatchObject({ chequesCents: 0, mealVouchersCents: null, cardSlipsCents: null });
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });

  it('refuses an unreadable amount with the translated message at the field, linked and focused, and keeps what was typed', async () => {
    await type(container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement, '3');
    await type(inputLabelled('Cheques'), '12,3,4');
    await save();
    await waitFor(() => inputLabelled('Cheques').getAttribute('aria-invalid') === 'true');
    const cheques = inputLabelled('Cheques');
    const message = en['counting.error.amount'];
    // The message sits at the field and is part of its description (read with the field).
    const describedBy = (cheques.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    const description = describedBy.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    expect(description).toContain(message);
    expect(cheques.closest('.ui-field')?.querySelector('.ui-field__error')?.textContent).toBe(message);
    // The focus goes to the field to fix, so a screen reader reads it there.
    expect(document.activeElement).toBe(cheques);
    const alert = container.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('Cheques');
    expect(alert?.textContent).toContain(message);
    expect(cheques.value).toBe('12,3,4');
    expect(
      (container.querySelector('[data-testid="cash-denomination-2000"]') as HTMLInputElement).value,
    ).toBe('3');
    expect(await db().outbox.count()).toBe(0);
  });
});

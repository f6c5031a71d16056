/**
 * The header's sync badge, the offline-copy banner and /sync rendered together with react-dom in
 * happy-dom, on the app's own outbox (IndexedDB from fake-indexeddb). Nobody is signed in on the
 * device, so the page's replayer sends nothing and the writes stay as the test puts them.
 *
 * - issue #20 item 7: the badge and /sync say the same thing, because they render one state
 *   (sync-state.ts), fed by one read of the outbox;
 * - issue #20 item 8: the offline-copy banner goes once the device is back online;
 * - issue #20 item 20: the badge's accessible name holds its visible text (WCAG 2.5.3); axe's
 *   rule itself needs a real browser (happy-dom leaves it "incomplete"): e2e/phone-labels.spec.ts.
 */
import { api } from './sync-screens-api.ts';
import { act } from 'react';
import { ref } from 'valtio';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import { OfflineCopyBanner } from '../../src/client/features/sync/components/offline-copy-banner.tsx';
import { SyncBadge } from '../../src/client/features/sync/components/sync-badge.tsx';
import { SyncPage } from '../../src/client/features/sync/components/sync-page.tsx';
import {
  applyServiceWorkerMessage,
  offlineCopies,
} from '../../src/client/features/sync/offline-copy-notices.ts';
import { stopSync, syncState } from '../../src/client/features/sync/sync-state.ts';
import { OFFLINE_COPY_MESSAGE } from '../../src/client/lib/outbox/offline-copy-protocol.ts';
import { db } from '../../src/client/lib/outbox/local-database.ts';
import { queueWrite } from '../../src/client/lib/outbox/queue.ts';
import { setDeviceOnline } from '../client-features/counting-dom.ts';
import {
  type RoutedScreen,
  renderRoutedScreen,
  unmountScreen,
  waitUntil,
} from '../client-features/support.tsx';
import { stopApiWithDom } from './support.tsx';

const LOGIN = 'manager';

/** Puts a write of LOGIN in the outbox, as a feature queues it, then leaves it in `state`. */
async function putWrite(n: number, state: 'waiting' | 'sending') {
  const item = await queueWrite(db(), {
    kind: 'cashCount',
    lane: `lane-${n}`,
    method: 'POST',
    path: 'bo/comptage/save',
    body: { n },
    login: LOGIN,
    summary: { terminal: n },
  });
  if (state !== 'waiting') await db().outbox.update(item.seq as number, { state });
  return item;
}

function SyncScreen() {
  return (
    <>
      <SyncBadge login={LOGIN} />
      <OfflineCopyBanner />
      <SyncPage />
    </>
  );
}

let screen: RoutedScreen;
const waitFor = (predicate: () => boolean) => waitUntil(predicate, 3_000, 20);
const badge = () => screen.container.querySelector<HTMLElement>('[data-testid="sync-badge"]') as HTMLElement;
const fact = (label: string) =>
  [...screen.container.querySelectorAll('[data-testid="sync-summary"] dt')].find(
    (dt) => dt.textContent === label,
  )?.nextElementSibling?.textContent;
const listedStates = () =>
  [...screen.container.querySelectorAll('[data-testid="sync-item"]')].map((li) =>
    li.getAttribute('data-state'),
  );

beforeEach(async () => {
  await db().outbox.clear();
  setDeviceOnline(false);
});
afterEach(() => {
  unmountScreen(screen);
  stopSync();
});
afterAll(async () => {
  await stopApiWithDom(api);
});

async function mount() {
  screen = await renderRoutedScreen({ '/sync': SyncScreen }, '/sync', 'en', en);
  await waitFor(
    () => syncState.loaded && screen.container.querySelector('[data-testid="sync-summary"]') !== null,
  );
}

describe('sync badge and /sync (issue #20 item 7)', () => {
  it('say the same thing of a write being sent when the network drops: "sending", not "waiting"', async () => {
    await putWrite(1, 'waiting');
    await putWrite(2, 'sending');
    await mount();
    await waitFor(() => listedStates().length === 2);

    expect(listedStates()).toEqual(['waiting', 'sending']);
    expect(fact('Waiting')).toBe('1');
    expect(fact('Sending')).toBe('1');
    expect(badge().getAttribute('data-state')).toBe('offline');
    expect(badge().querySelector('[data-testid="sync-badge-sending"]')?.textContent).toContain(
      'sending 1 item',
    );
    expect(badge().querySelector('[data-testid="sync-badge-waiting"]')?.textContent).toContain('1 waiting');
  });

  it('render one state: whatever it holds, the list, its counts and the badge change in the same render', async () => {
    await mount();
    const [one, two] = await act(async () => [await putWrite(1, 'waiting'), await putWrite(2, 'waiting')]);
    await waitFor(() => listedStates().length === 2);

    // The state alone changes (no outbox read): both screens follow it at once.
    await act(async () => {
      Object.assign(syncState, {
        items: ref([
          { ...one, state: 'sending' },
          { ...two, state: 'sending' },
        ]),
        waiting: 0,
        sending: 2,
      });
    });
    expect(listedStates()).toEqual(['sending', 'sending']);
    expect(fact('Sending')).toBe('2');
    expect(badge().querySelector('[data-testid="sync-badge-sending"]')?.textContent).toContain(
      'sending 2 items',
    );
    expect(badge().querySelector('[data-testid="sync-badge-waiting"]')).toBeNull();

    // And the outbox changes reach both through that one state.
    await act(async () => {
      await db().outbox.clear();
    });
    await waitFor(() => listedStates().length === 0);
    expect(badge().getAttribute('data-waiting')).toBe('0');
    expect(screen.container.querySelector('[data-testid="sync-empty"]')).not.toBeNull();
  });
});

describe('offline-copy banner (issue #20 item 8)', () => {
  it('goes once the device is back online, without a change of page', async () => {
    await mount();
    await act(async () => {
      applyServiceWorkerMessage({
        type: OFFLINE_COPY_MESSAGE,
        key: 'GET bo/x',
        storedAt: new Date().toISOString(),
      });
    });
    expect(screen.container.querySelector('[data-testid="offline-copy-banner"]')).not.toBeNull();

    await act(async () => setDeviceOnline(true));
    expect(screen.container.querySelector('[data-testid="offline-copy-banner"]')).toBeNull();
    expect(offlineCopies.byKey).toEqual({});
    expect(screen.router.state.location.pathname).toBe('/sync');
  });
});

describe('sync badge name (issue #20 item 20)', () => {
  it('is named by its visible text: no aria-label, and the name from its content starts with what it shows', async () => {
    await putWrite(1, 'waiting');
    await mount();
    await waitFor(() => badge().getAttribute('data-waiting') === '1');
    const link = badge();
    const visible = link.querySelector('.sync-badge__text')?.textContent ?? '';
    expect(visible).toBe('Offline · 1 waiting');
    expect(link.hasAttribute('aria-label')).toBe(false);
    expect(link.hasAttribute('aria-labelledby')).toBe(false);
    // The name from content: every text of the link that is not aria-hidden, in order.
    const name = [...link.childNodes]
      .filter((n) => !(n instanceof Element && n.getAttribute('aria-hidden') === 'true'))
      .map((n) => n.textContent)
      .join('');
    expect(name.startsWith(visible)).toBe(true);
  });
});

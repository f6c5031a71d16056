// @vitest-environment happy-dom
/**
 * The notification area (SPEC.md §2, §8): successes go after 5 s, errors stay until closed,
 * every route change clears them, and they are announced (role=alert / role=status).
 */
import 'fake-indexeddb/auto';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fr from '../../i18n/fr.json';
import { wireRouterEvents } from '../../src/client/app/router-events.ts';
import { NotificationArea } from '../../src/client/app/notification-area.tsx';
import { ApiFailure } from '../../src/client/lib/http.ts';
import {
  clearNotifications,
  notifications,
  notify,
  notifyFailure,
  SUCCESS_DURATION_MS,
} from '../../src/client/lib/notifications.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeEach(() => clearNotifications());
afterEach(() => vi.useRealTimers());

describe('notifications', () => {
  it('show a success for 5 seconds, then remove it', () => {
    vi.useFakeTimers();
    notify.success('SaveOk');
    expect(notifications.items.map((n) => n.messageId)).toEqual(['success.SaveOk']);
    vi.advanceTimersByTime(SUCCESS_DURATION_MS - 1);
    expect(notifications.items).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(notifications.items).toHaveLength(0);
  });

  it('keep an error until it is dismissed, and show the same error only once', () => {
    vi.useFakeTimers();
    notify.error('NoSitesSelected');
    notify.error('NoSitesSelected');
    vi.advanceTimersByTime(10 * 60_000);
    expect(notifications.items.map((n) => [n.kind, n.messageId])).toEqual([
      ['error', 'error.NoSitesSelected'],
    ]);
  });

  it('translate an ApiFailure by its code with its details as values, anything else as the generic error', () => {
    notifyFailure(new ApiFailure('MaxReportDays', 400, { maxDays: 31, nested: { x: 1 } }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    notifyFailure(new Error('boom'));
    expect(notifications.items.map((n) => [n.messageId, n.values])).toEqual([
      ['error.MaxReportDays', { maxDays: 31 }],
      ['app.unexpectedError', undefined],
    ]);
  });

  it('say how long to wait after too many attempts when the server tells (lock-outs grow to an hour)', () => {
    notifyFailure(new ApiFailure('TooManyRequests', 429, { retryAfterSeconds: 61 }));
    notifyFailure(new ApiFailure('TooManyRequests', 429));
    expect(notifications.items.map((n) => [n.messageId, n.values])).toEqual([
      ['error.TooManyRequestsWait', { minutes: 2 }],
      ['error.TooManyRequests', undefined],
    ]);
  });
});

describe('the notification area', () => {
  let container: HTMLDivElement;
  let root: Root;

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  async function renderApp() {
    const rootRoute = createRootRoute({
      component: () => (
        <>
          <Outlet />
          <NotificationArea />
        </>
      ),
    });
    const routeA = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => <p>a</p> });
    const routeB = createRoute({ getParentRoute: () => rootRoute, path: '/b', component: () => <p>b</p> });
    const router = createRouter({
      routeTree: rootRoute.addChildren([routeA, routeB]),
      history: createMemoryHistory({ initialEntries: ['/'] }),
    });
    const unwire = wireRouterEvents(router);
    await act(async () => {
      root.render(
        <IntlProvider locale="fr" messages={fr}>
          <RouterProvider router={router} />
        </IntlProvider>,
      );
    });
    await act(() => router.load());
    return { router, unwire };
  }

  it('announces errors as alerts with a close button, in the catalogue language', async () => {
    const { unwire } = await renderApp();
    await act(async () => notify.error('badCredentials'));
    const alert = container.querySelector('[role="alert"]')!;
    expect(alert.textContent).toContain('Identifiant ou mot de passe incorrect.');
    const close = alert.querySelector('button')!;
    expect(close.getAttribute('aria-label')).toBe('Fermer');
    await act(async () => close.click());
    expect(container.querySelector('[role="alert"]')!.textContent).toBe('');
    unwire();
  });

  it('shows the generic error for a code the catalogue does not know, never the code itself', async () => {
    const { unwire } = await renderApp();
    await act(async () => notify.error('SomethingNew'));
    const text = container.querySelector('[role="alert"] .notification__text')!.textContent;
    expect(text).toBe(fr['app.unexpectedError']);
    unwire();
  });

  it('is cleared when the route changes', async () => {
    const { router, unwire } = await renderApp();
    await act(async () => {
      notify.error('NoSites');
      notify.success('SaveOk');
    });
    expect(container.querySelector('[role="status"]')!.textContent).toContain(fr['success.SaveOk']);
    // Through the history, as a link or the back button would (this router is not the app's typed one).
    await act(async () => router.history.push('/b'));
    await vi.waitFor(() => expect(container.querySelector('p')?.textContent).toBe('b'));
    expect(notifications.items).toHaveLength(0);
    expect(container.querySelector('[role="alert"]')!.textContent).toBe('');
    unwire();
  });
});

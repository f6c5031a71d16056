/**
 * The whole client app in a test, as main.tsx starts it (real route tree, stored session and
 * language first, router events wired), against the loopback API server of api-server.ts, in a
 * happy-dom DOM at that server's origin with Node's own fetch (counting-dom.ts says why).
 *
 * React and react-dom load only inside launchApp, after the DOM exists (react-dom checks for it
 * when it loads), and afresh each time (vi.resetModules): this module imports neither.
 */
import type { AnyRouter } from '@tanstack/react-router';
import type { Root } from 'react-dom/client';
import { expect, vi } from 'vitest';
import { installDom } from '../client-features/counting-dom.ts';
import { startTestApi, type TestApi } from './api-server.ts';

/**
 * Starts a loopback API server (no routes yet: `api.on`) and installs the DOM at its origin,
 * the client pointed at it (VITE_API_BASE).
 */
export async function startApiWithDom(): Promise<TestApi> {
  const api = await startTestApi();
  installDom(api.base);
  return api;
}

/** Undoes startApiWithDom: closes the server and drops the API base. */
export async function stopApiWithDom(api: TestApi): Promise<void> {
  await api.close();
  vi.unstubAllEnvs();
}

/** An app started by launchApp: the `act` of its React, its router, its element and root. */
export interface LaunchedApp {
  act: typeof import('react').act;
  router: AnyRouter;
  container: HTMLDivElement;
  root: Root;
}

/**
 * Loads the client afresh and starts it as main.tsx does at `path` of a memory history, in a new
 * element of document.body; resolves once the router is idle. `prepare` runs on the fresh modules
 * before the stored session is read (e.g. to store a signed-in user in IndexedDB).
 */
export async function launchApp(path: string, prepare?: () => Promise<void>): Promise<LaunchedApp> {
  vi.resetModules();
  const { act } = await import('react');
  await prepare?.();
  const { createRoot } = await import('react-dom/client');
  const { createMemoryHistory, createRouter, RouterProvider } = await import('@tanstack/react-router');
  const { routeTree } = await import('../../src/client/routeTree.gen.ts');
  const { wireRouterEvents } = await import('../../src/client/app/router-events.ts');
  const { I18nProvider, initLanguage } = await import('../../src/client/lib/i18n.tsx');
  const { restoreSession } = await import('../../src/client/lib/session.ts');
  await Promise.all([restoreSession(), initLanguage()]);
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [path] }) });
  wireRouterEvents(router);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <I18nProvider>
        <RouterProvider router={router} />
      </I18nProvider>,
    );
  });
  await vi.waitFor(() => expect(router.state.status).toBe('idle'));
  return { act, router, container, root };
}

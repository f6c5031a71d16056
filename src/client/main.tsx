/**
 * Entry point: reads the stored session and language (idb-keyval) and loads only the active
 * language's catalogue (its start part) before the first render, so a signed-in user lands on their screen in
 * their language with no flash of the login, and restores the persisted query cache (decision 0021).
 * The service worker registers after that.
 */
import { type AnyRoute, RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { router } from './app/router.tsx';
import { registerServiceWorker } from './app/service-worker.ts';
import './app/styles.css';
import { appState } from './lib/app-state.ts';
import { ensureFullCatalogue, I18nProvider, initLanguage, prefetchFullCatalogue } from './lib/i18n.tsx';
import { restoreSession, session } from './lib/session.ts';

/**
 * Starts fetching the code of the screen at the page's address (its routes' split chunks) now,
 * while the session, the language and the cache are read, rather than when the router first
 * renders (decision 0026). A failure is left to the router, which loads the same chunks again.
 */
function preloadScreenCode(): void {
  try {
    const routes: AnyRoute[] = Object.values(router.routesById);
    for (const match of router.matchRoutes(window.location.pathname, {})) {
      const route = routes.find((r) => r.id === match.routeId);
      if (route) void router.loadRouteChunk(route)?.catch(() => {});
    }
  } catch {
    // An address the router cannot match: the not-found screen is in the entry already.
  }
}

if (appState.isMobile) document.documentElement.dataset.mobile = 'true';
preloadScreenCode();
await Promise.all([restoreSession(), initLanguage()]);
if (session.user) {
  // The signed-in screens' messages (routes/_authed.tsx awaits them), fetched with the cache's
  // restore rather than after the first render; a failure is reported there.
  void ensureFullCatalogue().catch(() => {});
  // The persisted reference data and dashboard (decision 0021) are in the cache before the first
  // render, so /home paints its last figures without waiting for the API. Imported here only
  // then, so the login page's JavaScript does not carry the query client.
  await import('./lib/query-client.ts').then((m) => m.restoreQueryCache());
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A transition: React renders the first screen in slices that yield to the browser instead of
// one long task, so the splash (index.html) stays responsive and the main thread is never blocked
// for long (Lighthouse's total blocking time; decision 0026). The screen commits at once when done.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <I18nProvider>
        <RouterProvider router={router} />
      </I18nProvider>
    </StrictMode>,
  );
});

void registerServiceWorker();
// Signed out: the catalogue's later part (the signed-in screens' messages) is fetched now so
// sign-in seldom waits for it, but not shown: the login needs only the start part, and showing it
// would draw the login again in the first seconds. routes/_authed.tsx shows it before a signed-in
// screen, and reports a failure there.
if (!session.user) void prefetchFullCatalogue().catch(() => {});

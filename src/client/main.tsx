/**
 * Entry point: reads the stored session and language (idb-keyval) and loads only the active
 * language's catalogue (its start part) before the first render, so a signed-in user lands on their screen in
 * their language with no flash of the login, and restores the persisted query cache (decision 0021).
 * The service worker registers after that.
 */
// First: zod must know it may not evaluate code before any schema of ours is built or used.
import './lib/zod-jitless.ts';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { router } from './app/router.tsx';
import { registerServiceWorker } from './app/service-worker.ts';
import './app/styles.css';
import { appState } from './lib/app-state.ts';
import { ensureFullCatalogue, I18nProvider, initLanguage } from './lib/i18n.tsx';
import { restoreSession, session } from './lib/session.ts';

if (appState.isMobile) document.documentElement.dataset.mobile = 'true';
await Promise.all([restoreSession(), initLanguage()]);
// Signed in: the persisted reference data and dashboard (decision 0021) are in the cache before the
// first render, so /home paints its last figures without waiting for the API. Imported here only
// then, so the login page's JavaScript does not carry the query client.
if (session.user) await import('./lib/query-client.ts').then((m) => m.restoreQueryCache());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <I18nProvider>
      <RouterProvider router={router} />
    </I18nProvider>
  </StrictMode>,
);

void registerServiceWorker();
// The catalogue's later part (the signed-in screens' messages), fetched now so sign-in seldom waits
// for it; routes/_authed.tsx awaits it before a signed-in screen shows, and reports a failure there.
void ensureFullCatalogue().catch(() => {});

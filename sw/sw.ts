/**
 * The service worker (DESIGN.md §7), built by vite-plugin-pwa (injectManifest).
 *
 * What it guarantees:
 * - the whole build (shell, route chunks, catalogues, icons) is precached, so the installed app
 *   opens and signs in from its stored session with no network;
 * - every navigation is answered with the precached `index.html` (the router takes it from there),
 *   except `/api/` paths;
 * - nothing under `/api/` is cached or replayed: several GETs of the API change data
 *   (removeSociete, updateRule, emptyDataBase… DESIGN.md §4), so API caching must be an explicit
 *   allow-list of read-only paths (issue #3 adds it where marked below);
 * - a new version waits until the page asks it to take over (update prompt, `registerType:
 *   'prompt'`): it never replaces the running one behind the user's back.
 */
/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

/** Paths the service worker never answers from a cache (the API base, DESIGN.md §4). */
const API_PATH = /^\/api\//;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [API_PATH] }));

// Seam for issue #3: register the allow-listed read-only API routes (network first, answers kept
// in Dexie) here, before any catch-all. Until then API requests are not intercepted at all and go
// straight to the network.

self.addEventListener('message', (event) => {
  if (
    event.data &&
    typeof event.data === 'object' &&
    (event.data as { type?: unknown }).type === 'SKIP_WAITING'
  ) {
    void self.skipWaiting();
  }
});

clientsClaim();

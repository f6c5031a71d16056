/**
 * The service worker (DESIGN.md §7), built by vite-plugin-pwa (injectManifest).
 *
 * What it guarantees:
 * - the whole build (shell, route chunks, catalogues, icons) is precached, so the installed app
 *   opens and signs in from its stored session with no network;
 * - every navigation is answered with the precached `index.html` (the router takes it from there),
 *   except `/api/` paths;
 * - API answers are kept only for an explicit allow-list of read-only GETs
 *   (lib/outbox/offline-copy-store.ts):
 *   several GETs of the API change data (removeSociete, updateRule, emptyDataBase… DESIGN.md §4),
 *   and those, like every write, always go straight to the network;
 * - queued offline writes are replayed on Background Sync (`comptoir-outbox`, Chromium) with the
 *   same outbox module as the page, under the same Web Lock, so a write is never sent twice at once;
 * - a new version waits until the page asks it to take over (update prompt, `registerType:
 *   'prompt'`): it never replaces the running one behind the user's back.
 */
/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { db } from '../src/client/lib/outbox/local-database.ts';
import { readStoredCredentials } from '../src/client/lib/outbox/credentials.ts';
import { webLock } from '../src/client/lib/outbox/lock.ts';
import {
  FRESH_ANSWER_MESSAGE,
  OFFLINE_COPY_MESSAGE,
} from '../src/client/lib/outbox/offline-copy-protocol.ts';
import { OUTBOX_SYNC_TAG } from '../src/client/lib/outbox/queue.ts';
import { replayOutbox } from '../src/client/lib/outbox/replay.ts';
import { type CopyEvent, networkFirst } from '../src/client/lib/outbox/offline-copy-store.ts';
import { isCacheableRead } from '../src/contract/offline-reads.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

/** Paths the service worker never answers from the precache (the API base, DESIGN.md §4). */
const API_PATH = /^\/api\//;
/** The API base as the page sees it (lib/http.ts: `VITE_API_BASE`, default `/api/`). */
const API_BASE = new URL(
  (import.meta as { env?: { VITE_API_BASE?: string } }).env?.VITE_API_BASE ?? '/api/',
  self.location.origin,
);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [API_PATH] }));

/** The path of an API URL relative to the base, or null outside the API. */
function apiPath(url: URL): string | null {
  if (url.origin !== API_BASE.origin || !url.pathname.startsWith(API_BASE.pathname)) return null;
  return url.pathname.slice(API_BASE.pathname.length);
}

/** Tells the page that made the request whether it got a copy (for its "offline copy of…" banner). */
async function tell(clientId: string, event: CopyEvent): Promise<void> {
  if (!clientId) return;
  const client = await self.clients.get(clientId);
  client?.postMessage(
    event.type === 'copy'
      ? { type: OFFLINE_COPY_MESSAGE, key: event.key, path: event.path, storedAt: event.storedAt }
      : { type: FRESH_ANSWER_MESSAGE, key: event.key, path: event.path },
  );
}

// Allow-listed read-only GETs: network first, last answers kept in Dexie, served offline.
self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const path = apiPath(url);
  if (path === null || !isCacheableRead(path, url.searchParams)) return;
  event.respondWith(
    networkFirst(request, {
      db: db(),
      path,
      onEvent: (e) => {
        event.waitUntil(tell(event.clientId, e));
      },
    }).catch(() => Response.error()),
  );
});

interface SyncEventLike extends ExtendableEvent {
  tag: string;
}

// Background Sync (Chromium): replay the outbox even with no page open. A run that leaves writes
// waiting rejects, so the browser schedules another sync later; when a page holds the lock it is
// replaying already, and the event simply ends.
self.addEventListener('sync', (event) => {
  const sync = event as SyncEventLike;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    replayOutbox({
      db: db(),
      lock: webLock(),
      apiBase: API_BASE.href,
      credentials: readStoredCredentials,
      backoff: { retries: 2 },
      // The browser fires Background Sync when it judges the network back: try everything now.
      ignoreSchedule: true,
    }).then((result) => {
      if (result && result.remaining > 0 && result.stoppedBy !== 'unauthorized') {
        throw new Error(`outbox: ${result.remaining} writes still waiting`);
      }
    }),
  );
});

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

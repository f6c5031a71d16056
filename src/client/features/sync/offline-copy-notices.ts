/**
 * Which answers on screen are offline copies (DESIGN.md §7: the UI says "offline copy of 14:32").
 * The service worker answers allow-listed GETs from its Dexie copies when the network fails and
 * tells the page by message (lib/outbox/offline-copy-store.ts); a fresh answer for the same request clears
 * it. The list is per screen: the layout resets it on every route change.
 */
import { proxy } from 'valtio';
import { FRESH_ANSWER_MESSAGE, OFFLINE_COPY_MESSAGE } from '../../lib/outbox/offline-copy-protocol.ts';

/** Copies shown on the current screen: request key → ISO date of the copy. */
export const offlineCopies = proxy<{ byKey: Record<string, string> }>({ byKey: {} });

/** The oldest copy shown on this screen (ISO), or null when everything is fresh. */
export function oldestCopy(byKey: Readonly<Record<string, string>>): string | null {
  const dates = Object.values(byKey).sort();
  return dates[0] ?? null;
}

export function resetOfflineCopies(): void {
  offlineCopies.byKey = {};
}

/** Applies one message of the service worker; ignores anything else. */
export function applyServiceWorkerMessage(data: unknown): void {
  if (typeof data !== 'object' || data === null) return;
  const { type, key, storedAt } = data as { type?: unknown; key?: unknown; storedAt?: unknown };
  if (typeof key !== 'string') return;
  if (type === OFFLINE_COPY_MESSAGE && typeof storedAt === 'string') {
    offlineCopies.byKey[key] = storedAt;
  } else if (type === FRESH_ANSWER_MESSAGE && key in offlineCopies.byKey) {
    delete offlineCopies.byKey[key];
  }
}

let listening = false;

/** Listens to the service worker's messages (once per page). */
export function listenToServiceWorker(): void {
  const container = globalThis.navigator?.serviceWorker;
  if (listening || !container) return;
  listening = true;
  container.addEventListener('message', (event: MessageEvent) => applyServiceWorkerMessage(event.data));
}

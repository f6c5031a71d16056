/**
 * A DOM for the tests that run the client against a real HTTP server (the counting screens, and
 * the whole app in tests/client/support.tsx), on that server's origin: happy-dom's window,
 * document, elements and events, but Node's own fetch, Request and Response. happy-dom's fetch
 * breaks on the answers ky clones for its hooks ("Controller is already closed") and loses the
 * body of error answers (tests/client/login.test.tsx), which a browser does not.
 *
 * Call it before React and the client modules load: react-dom looks for the DOM when it loads,
 * and lib/http.ts reads the API base (VITE_API_BASE) when it loads. A test file does that by
 * importing, first, a module that awaits its server and then calls this (vitest runs a file's
 * imports one after the other, in order).
 */
// On Node's global, before `window` exists (it would otherwise land on happy-dom's window only).
import 'fake-indexeddb/auto';
import { Window } from 'happy-dom';
import { vi } from 'vitest';

/** Installs the DOM at the origin of `apiBase` (e.g. `http://127.0.0.1:4567/api/`) and points the client at it. */
export function installDom(apiBase: string): Window {
  vi.stubEnv('VITE_API_BASE', apiBase);
  const dom = new Window({ url: new URL('/', apiBase).href });
  const g = globalThis as Record<string, unknown>;
  const w = dom as unknown as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(dom)) {
    // Node has its own Event classes; happy-dom only dispatches its own (IndexedDB's stay fake-indexeddb's).
    const isEventClass =
      key === 'EventTarget' || (/^[A-Z]/.test(key) && key.endsWith('Event') && !key.startsWith('IDB'));
    // defineProperty: some of Node's globals are lazy accessors that plain assignment does not replace.
    if (!(key in g) || isEventClass) {
      Object.defineProperty(g, key, { value: w[key], writable: true, configurable: true, enumerable: false });
    }
  }
  g.window = dom;
  g.document = dom.document;
  (g as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  return dom;
}

/**
 * Says the device is offline (or online again), as the browser does: `navigator.onLine` and the
 * `offline` / `online` event.
 */
export function setDeviceOnline(online: boolean): void {
  Object.defineProperty(globalThis.navigator, 'onLine', { value: online, configurable: true });
  globalThis.dispatchEvent?.(
    new (globalThis as unknown as { Event: typeof Event }).Event(online ? 'online' : 'offline'),
  );
}

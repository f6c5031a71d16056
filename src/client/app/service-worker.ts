/**
 * Registers the service worker (sw/sw.ts) in production builds and tracks whether a new version
 * waits (DESIGN.md §7, `registerType: 'prompt'`). The page never reloads by itself: only
 * `applyUpdate()` — the user's "reload" in the update prompt — tells the waiting worker to take
 * over, and the page reloads once it controls it. workbox-window is loaded after the first
 * render so it stays out of the login's initial JavaScript.
 */
import { proxy } from 'valtio';

/** `needRefresh` is true while a new version is installed and waiting. */
export const pwaState = proxy({ needRefresh: false, dismissed: false });

/** How often a long-open app asks the server for a new version, in milliseconds. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60_000;

let applyUpdateImpl: (() => void) | null = null;

/** Activates the waiting version, then reloads the page when it controls it. */
export function applyUpdate(): void {
  applyUpdateImpl?.();
}

/** Hides the prompt until the next new version. */
export function dismissUpdate(): void {
  pwaState.dismissed = true;
}

/**
 * Registers `/sw.js` (production only; the service worker is off in dev, DESIGN.md) once the page
 * has loaded: a first visit's worker precaches the whole app (about 2 MB), which must not compete
 * with the first screen's own requests and start-up (decision 0026). A page already controlled
 * is served by its worker meanwhile.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (document.readyState !== 'complete') {
    await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  }
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { scope: '/' });
  const showPrompt = () => {
    pwaState.needRefresh = true;
    pwaState.dismissed = false;
  };
  wb.addEventListener('waiting', showPrompt);
  applyUpdateImpl = () => {
    wb.addEventListener('controlling', () => window.location.reload());
    wb.messageSkipWaiting();
  };
  try {
    const registration = await wb.register();
    // A version already waiting from an earlier visit.
    if (registration?.waiting && navigator.serviceWorker.controller) showPrompt();
    setInterval(() => {
      void registration?.update().catch(() => undefined);
    }, UPDATE_CHECK_INTERVAL_MS);
  } catch (e) {
    console.warn('service worker registration failed', e);
  }
}

/**
 * Global application state of SPEC.md §3 ("Global state: version 1.3.0, serverVersion, isGlobal,
 * isTotal, client, isApp") and the rules of SPEC.md §4 that fill it from `GET version` and
 * `GET distribution`. `isMobile` comes from the user agent (SPEC.md §2).
 */
import { proxy } from 'valtio';
import { APP_VERSION } from '../../contract/constants.ts';
import { getJson } from './http.ts';

/** True for phones and tablets, from the user agent (SPEC.md §2 "Mobile layout is detected from the user agent"). */
export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile|Silk/i.test(userAgent);
}

/** True when the app runs installed (standalone display), not in a browser tab. */
function isInstalledApp(): boolean {
  const w = globalThis as { matchMedia?: (q: string) => { matches: boolean } };
  return w.matchMedia?.('(display-mode: standalone)').matches ?? false;
}

export interface AppState {
  /** This client's version (SPEC.md §9). */
  version: string;
  /** The server's version text; `'error'` when it could not be read, `null` before asking. */
  serverVersion: string | null;
  /** Global mode: the server version contains "CAS" (SPEC.md §4). */
  isGlobal: boolean;
  /** Total mode: off when the distribution is named "TOTAL" or the version failed (SPEC.md §4). */
  isTotal: boolean;
  /** Distribution (client) name from `GET distribution`. */
  client: string | null;
  /** Running as the installed app. */
  isApp: boolean;
  /** Phone or tablet user agent. */
  isMobile: boolean;
}

export const appState = proxy<AppState>({
  version: APP_VERSION,
  serverVersion: null,
  isGlobal: false,
  isTotal: false,
  client: null,
  isApp: isInstalledApp(),
  // iPadOS announces itself as a Mac; its touch screen gives it away.
  isMobile:
    isMobileUserAgent(globalThis.navigator?.userAgent ?? '') ||
    (/Macintosh/.test(globalThis.navigator?.userAgent ?? '') &&
      (globalThis.navigator?.maxTouchPoints ?? 0) > 1),
});

/**
 * Asks the server for its version, then its distribution, and applies SPEC.md §4: version read →
 * stored, global mode when it contains "CAS"; version failed → `'error'`, global and total off.
 * Then the distribution sets the client name; total is off when it is "TOTAL", otherwise on.
 * Never throws: the header shows what could be read. Called by the authenticated layout (the
 * answer schemas, and zod with them, load then rather than with the login).
 */
export async function loadServerInfo(): Promise<void> {
  const { DistributionAnswerSchema, VersionAnswerSchema } = await import('../../contract/api.ts');
  try {
    const { version } = await getJson('version', VersionAnswerSchema);
    appState.serverVersion = version;
    appState.isGlobal = version.includes('CAS');
  } catch {
    appState.serverVersion = 'error';
    appState.isGlobal = false;
    appState.isTotal = false;
  }
  try {
    const { nom } = await getJson('distribution', DistributionAnswerSchema);
    appState.client = nom;
    appState.isTotal = nom !== 'TOTAL';
  } catch {
    appState.client = null;
  }
}

let serverInfoLoad: Promise<void> | null = null;

/**
 * Loads the server version and distribution once (SPEC.md §4); concurrent callers share the
 * call. Resolves at once when they are known. The reference-data load awaits it, because the
 * distribution name decides whether sellers are loaded (skipped for client type TOTAL).
 */
export function ensureServerInfo(): Promise<void> {
  if (appState.serverVersion !== null) return Promise.resolve();
  serverInfoLoad ??= loadServerInfo().finally(() => {
    serverInfoLoad = null;
  });
  return serverInfoLoad;
}

/**
 * The signed-in user (SPEC.md §3 "User (session)", §4 "Session"). The user — with the token every
 * later call sends — is kept in idb-keyval, so a reload or an installed app opened offline skips
 * the login. Signing out clears it and runs every `onSignOut` callback, which is how features
 * clear their own state (report state, sites, brands, sirets, groupings: SPEC.md §4).
 */
import { del, get, set } from 'idb-keyval';
import { proxy } from 'valtio';
import type { ConnexionAnswer } from '../../contract/api.ts';
import { basicAuth } from '../../contract/basic-auth.ts';
import { connectSession, http, toApiFailure } from './http.ts';

/** idb-keyval key of the stored user. */
export const SESSION_KEY = 'comptoir.session.user';

/**
 * Format of the stored record. The user was validated against the contract's schema when it was
 * stored (at sign-in); bump this when ConnexionAnswer changes so older records are dropped rather
 * than trusted.
 */
export const SESSION_FORMAT = 1;

interface StoredSession {
  format: number;
  user: ConnexionAnswer;
}

/** The fields the shell relies on before anything is re-validated (zod stays out of the first load). */
function isStoredSession(value: unknown): value is StoredSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { format?: unknown; user?: unknown };
  if (v.format !== SESSION_FORMAT || typeof v.user !== 'object' || v.user === null) return false;
  const u = v.user as Record<string, unknown>;
  return (
    typeof u.id === 'number' &&
    typeof u.login === 'string' &&
    typeof u.token === 'string' &&
    Array.isArray(u.droits) &&
    u.droits.every((d) => typeof d === 'string') &&
    typeof u.currency === 'string'
  );
}

/** `user` is null when nobody is signed in; `ready` turns true once the stored user was read. */
export const session = proxy<{ user: ConnexionAnswer | null; ready: boolean }>({ user: null, ready: false });

/** Why the session ended: the user asked, or the server refused the token (401, SPEC.md §4). */
export type SignOutReason = 'user' | 'expired';

const signOutCallbacks = new Set<(reason: SignOutReason) => void | Promise<void>>();

/** Registers `callback` to run at every sign-out; returns a function that unregisters it. */
export function onSignOut(callback: (reason: SignOutReason) => void | Promise<void>): () => void {
  signOutCallbacks.add(callback);
  return () => signOutCallbacks.delete(callback);
}

/** Reads the stored user (once, at start). A stored value that no longer fits the contract is dropped. */
export async function restoreSession(): Promise<void> {
  try {
    const stored: unknown = await get(SESSION_KEY);
    const valid = isStoredSession(stored);
    session.user = valid ? stored.user : null;
    if (stored !== undefined && !valid) await del(SESSION_KEY);
  } catch {
    // IndexedDB unavailable (private mode of some browsers): start signed out.
    session.user = null;
  } finally {
    session.ready = true;
  }
}

/**
 * Signs in with `GET bo/connexion?username` and `Basic base64(login:password)` (DESIGN.md §4),
 * then stores the user with its token. Throws `ApiFailure` (`badCredentials`, `Network Error`,
 * `TooManyRequests`…) and leaves the session untouched on failure.
 */
export async function signIn(login: string, password: string): Promise<ConnexionAnswer> {
  let answer: unknown;
  try {
    answer = await http
      .get('bo/connexion', {
        searchParams: { username: login },
        headers: { Authorization: basicAuth(login, password) },
        context: { signingIn: true },
      })
      .json<unknown>();
  } catch (e) {
    throw toApiFailure(e);
  }
  // The schema (and zod) load only now, after the user pressed "sign in": not in the login's first load.
  const { ConnexionAnswerSchema } = await import('../../contract/api.ts');
  const user = ConnexionAnswerSchema.parse(answer);
  try {
    // Stored before it enters the valtio proxy: valtio wraps nested arrays in Proxies, which
    // IndexedDB cannot clone.
    await set(SESSION_KEY, { format: SESSION_FORMAT, user: structuredClone(user) } satisfies StoredSession);
  } catch {
    // Not persisted: the session still works until the page is closed.
  }
  session.user = user;
  // Ask the browser not to evict the app's data (DESIGN.md §7); a refusal changes nothing.
  void globalThis.navigator?.storage?.persist?.().catch(() => false);
  return user;
}

let signingOut: Promise<void> | null = null;

/**
 * Ends the session: revokes the token on the server (best effort, without waiting for it),
 * forgets the stored user and runs the `onSignOut` callbacks. Concurrent calls (several 401s at
 * once) share one sign-out.
 */
export function signOut(reason: SignOutReason = 'user'): Promise<void> {
  if (signingOut) return signingOut;
  const user = session.user;
  signingOut = (async () => {
    if (user && reason === 'user') {
      // Sent with the old token explicitly: the session is cleared before the answer arrives.
      void http
        .get('bo/logout', {
          headers: { Authorization: basicAuth(user.login, user.token) },
          context: { signingIn: true },
        })
        .catch(() => undefined);
    }
    session.user = null;
    try {
      await del(SESSION_KEY);
    } catch {
      // Nothing stored or IndexedDB unavailable.
    }
    for (const callback of signOutCallbacks) {
      try {
        await callback(reason);
      } catch (e) {
        console.error('onSignOut callback failed', e);
      }
    }
  })().finally(() => {
    signingOut = null;
  });
  return signingOut;
}

// Every call of http carries the signed-in user's token; a token the server refuses (401) ends the session.
connectSession({
  credentials: () => session.user,
  onUnauthorized: () => void signOut('expired'),
});

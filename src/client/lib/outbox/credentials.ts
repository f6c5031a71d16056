/**
 * What the outbox needs to send as the signed-in user, read from IndexedDB rather than from the
 * page's memory: the service worker replays on Background Sync with no page open, and it cannot
 * see the page's valtio session. lib/session.ts keeps the user (login and token) in idb-keyval
 * under SESSION_KEY; this reads the same record (the service worker does not load the session
 * module, which pulls in the page's HTTP client and state).
 */
import { get } from 'idb-keyval';

/** Same key and format as lib/session.ts (tests/client/outbox-credentials check they agree). */
export const STORED_SESSION_KEY = 'comptoir.session.user';
export const STORED_SESSION_FORMAT = 1;

export interface OutboxCredentials {
  login: string;
  token: string;
}

/** The stored user's login and token, or null when nobody is signed in on this device. */
export async function readStoredCredentials(): Promise<OutboxCredentials | null> {
  try {
    const stored: unknown = await get(STORED_SESSION_KEY);
    if (typeof stored !== 'object' || stored === null) return null;
    const { format, user } = stored as { format?: unknown; user?: unknown };
    if (format !== STORED_SESSION_FORMAT || typeof user !== 'object' || user === null) return null;
    const { login, token } = user as { login?: unknown; token?: unknown };
    return typeof login === 'string' && typeof token === 'string' ? { login, token } : null;
  } catch {
    return null;
  }
}

/**
 * Offline copies of reports and dashboards (DESIGN.md §7, issue #3 point 6): the store the service
 * worker keeps them in and answers from. For an allow-list of read-only GETs it goes to the network first (short time
 * limit) and keeps the last answers in Dexie, bounded by count and bytes (oldest out); when the network
 * fails it answers from Dexie with `X-Comptoir-Offline-Copy: <ISO date>` and tells the page, so
 * the screen can say "offline copy of 14:32".
 *
 * Never cached: anything not on the list, which the contract holds (src/contract/offline-reads.ts:
 * the API's paths are the contract's, and this store names no domain). The contract has GETs that
 * change data (bo/infra/removeSociete, bo/updateRule, bo/emptyDataBase, bo/home/envoieMail…); an
 * allow-list, not a deny-list, is what keeps a new one of those out. Copies are per user (the login of the
 * request's Basic authorization) and forgotten at sign-out (features/sync).
 *
 * Written without DOM or worker globals beyond fetch/Request/Response, so the tests run it in Node.
 */
import { basicAuthLogin } from '../../../contract/basic-auth.ts';
import { isSlowRead } from '../../../contract/offline-reads.ts';
import type { ComptoirDb, OfflineCopy } from './local-database.ts';
import { OFFLINE_COPY_HEADER } from './offline-copy-protocol.ts';

/** Most copies kept, and most bytes kept in all; past either the oldest copies go. */
export const MAX_COPIES = 200;
export const MAX_COPY_BYTES = 25 * 1024 * 1024;
/** A single answer larger than this is not kept (a year-long dataset would push out everything else). */
export const MAX_ONE_COPY_BYTES = 5 * 1024 * 1024;

/**
 * Network time limits before answering from a copy, in milliseconds: most reads answer in well
 * under a second; the contract's slow reads (isSlowRead: answers computed over a long period) get
 * longer.
 */
export const READ_TIMEOUT_MS = 5_000;
export const SLOW_READ_TIMEOUT_MS = 30_000;

/** The network time limit of a cacheable path, in milliseconds. */
export function timeoutFor(path: string): number {
  return isSlowRead(path) ? SLOW_READ_TIMEOUT_MS : READ_TIMEOUT_MS;
}

/** Key of a request's copy: login, path, and the query sorted without the cache-busting `_`. */
export function copyKey(login: string, path: string, params: URLSearchParams): string {
  const kept = [...params].filter(([name]) => name !== '_');
  kept.sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  return `${login}|${path}?${new URLSearchParams(kept).toString()}`;
}

/** Bounds of the kept copies (count, total bytes, bytes of one). */
export interface CopyBounds {
  maxCopies: number;
  maxBytes: number;
  maxOneBytes: number;
}
export const COPY_BOUNDS: CopyBounds = {
  maxCopies: MAX_COPIES,
  maxBytes: MAX_COPY_BYTES,
  maxOneBytes: MAX_ONE_COPY_BYTES,
};

/** Stores `body` as the copy of `key`, then drops the oldest copies past the bounds. */
export async function storeCopy(
  db: ComptoirDb,
  copy: OfflineCopy,
  bounds: CopyBounds = COPY_BOUNDS,
): Promise<void> {
  const { maxCopies, maxBytes } = bounds;
  if (copy.bytes > bounds.maxOneBytes) return;
  await db.transaction('rw', db.offlineCopies, async () => {
    await db.offlineCopies.put(copy);
    let count = await db.offlineCopies.count();
    let bytes = 0;
    await db.offlineCopies.each((c) => {
      bytes += c.bytes;
    });
    if (count <= maxCopies && bytes <= maxBytes) return;
    const oldestFirst = await db.offlineCopies.orderBy('storedAt').toArray();
    for (const old of oldestFirst) {
      if (count <= maxCopies && bytes <= maxBytes) break;
      if (old.key === copy.key) continue;
      await db.offlineCopies.delete(old.key);
      count -= 1;
      bytes -= old.bytes;
    }
  });
}

/** Forgets every kept copy (sign-out: they hold that user's figures). */
export async function clearOfflineCopies(db: ComptoirDb): Promise<void> {
  await db.offlineCopies.clear();
}

/** What happened, for the page's banner. */
export type CopyEvent =
  | { type: 'fresh'; key: string; path: string }
  | { type: 'copy'; key: string; path: string; storedAt: string };

export interface NetworkFirstOptions {
  db: ComptoirDb;
  /** Path relative to the API base. */
  path: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
  onEvent?: (event: CopyEvent) => void;
  bounds?: CopyBounds;
}

/**
 * Network first: a 200 answer is kept and returned; a failed network (no answer, time limit,
 * 502/503/504 from a gateway) is answered from the copy when there is one, marked with
 * {@link OFFLINE_COPY_HEADER}; otherwise the failure passes through unchanged. Other answers
 * (401, 4xx, 500) pass through and are not kept.
 */
export async function networkFirst(request: Request, options: NetworkFirstOptions): Promise<Response> {
  const url = new URL(request.url);
  const login = basicAuthLogin(request.headers.get('Authorization')) ?? '';
  const key = copyKey(login, options.path, url.searchParams);
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;

  let response: Response | null = null;
  let failure: unknown = null;
  try {
    response = await doFetch(request.clone(), {
      signal: AbortSignal.timeout(options.timeoutMs ?? timeoutFor(options.path)),
    });
  } catch (e) {
    failure = e;
  }

  if (response && response.status === 200) {
    const body = await response.clone().arrayBuffer();
    try {
      await storeCopy(
        options.db,
        {
          key,
          storedAt: now(),
          status: 200,
          contentType: response.headers.get('Content-Type') ?? 'application/json',
          body,
          bytes: body.byteLength,
          login,
        },
        options.bounds,
      );
    } catch (e) {
      // Out of quota or IndexedDB closed: the answer still goes to the page.
      console.warn('offline copy not kept', e);
    }
    options.onEvent?.({ type: 'fresh', key, path: options.path });
    return response;
  }
  const gatewayDown = response !== null && [502, 503, 504].includes(response.status);
  if (response && !gatewayDown) return response;

  const copy = await options.db.offlineCopies.get(key).catch(() => undefined);
  if (!copy) {
    if (response) return response;
    throw failure;
  }
  const storedAt = new Date(copy.storedAt).toISOString();
  options.onEvent?.({ type: 'copy', key, path: options.path, storedAt });
  return new Response(copy.body, {
    status: copy.status,
    headers: {
      'Content-Type': copy.contentType,
      [OFFLINE_COPY_HEADER]: storedAt,
      'Cache-Control': 'no-store',
    },
  });
}

/**
 * The offline copies a user holds, as the page may list and open them (issue #20 item 9): the
 * service worker keeps them (offline-copy-store.ts), and without a network a screen can offer
 * "the copies you have" instead of nothing. Generic like the rest of the outbox: a caller names
 * the API path it wants; which path means what is the feature's business.
 *
 * Meant to be reached through page-outbox.ts, the features' one door into the outbox: until it
 * re-exports these two functions, a feature imports this module directly.
 */
import { type ComptoirDb, db as defaultDb } from './local-database.ts';

/** One kept copy as a list shows it; the body is read on demand ({@link readOfflineCopy}). */
export interface OfflineCopyEntry {
  /** The copy's key (login, path and sorted query, as offline-copy-store.ts `copyKey` makes it). */
  key: string;
  /** API path relative to the API base, no leading slash. */
  path: string;
  /** The request's query, cache-busting `_` already left out; repeated names keep each value. */
  params: URLSearchParams;
  /** Epoch milliseconds of the network answer the copy keeps. */
  storedAt: number;
  contentType: string;
  /** Size of the kept body in bytes. */
  bytes: number;
}

/** The path and query of a copy's key (`login|path?query`), or null for a key of another shape. */
function splitKey(key: string, login: string): { path: string; params: URLSearchParams } | null {
  const prefix = `${login}|`;
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  const mark = rest.indexOf('?');
  const path = mark < 0 ? rest : rest.slice(0, mark);
  return { path, params: new URLSearchParams(mark < 0 ? '' : rest.slice(mark + 1)) };
}

/**
 * Every copy of `login` whose path is `path`, answered as JSON, newest first.
 * @param database the app's database unless a test gives another.
 */
export async function listOfflineCopies(
  login: string,
  path: string,
  database: ComptoirDb = defaultDb(),
): Promise<OfflineCopyEntry[]> {
  const copies = await database.offlineCopies.where('login').equals(login).toArray();
  const entries: OfflineCopyEntry[] = [];
  for (const copy of copies) {
    const where = splitKey(copy.key, login);
    if (!where || where.path !== path || !copy.contentType.includes('json')) continue;
    entries.push({
      key: copy.key,
      path: where.path,
      params: where.params,
      storedAt: copy.storedAt,
      contentType: copy.contentType,
      bytes: copy.bytes,
    });
  }
  return entries.sort((a, b) => b.storedAt - a.storedAt);
}

/**
 * The JSON body of the copy `key` (unknown: the caller checks its shape), or undefined when the
 * copy is gone (pushed out by newer ones, or forgotten at sign-out). Throws a SyntaxError for a
 * body that is not JSON.
 */
export async function readOfflineCopy(key: string, database: ComptoirDb = defaultDb()): Promise<unknown> {
  const copy = await database.offlineCopies.get(key);
  if (!copy) return undefined;
  return JSON.parse(new TextDecoder().decode(copy.body)) as unknown;
}

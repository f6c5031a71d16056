/**
 * Start-up memory (decision record 0008, which has the figures). Loading the server's modules
 * makes short-lived objects (Node's ES module loader, drizzle-orm's export graph); V8 collects
 * them but keeps some freed pages in its page pool, which an ordinary collection does not give
 * back and a memory-reducing one does. An idle server may never get a memory-reducing collection
 * of its own; one after start-up lowers the floor every request's peak adds to.
 */

/**
 * Runs one full, memory-reducing garbage collection (V8's "last resort" flavour: objects are
 * compacted and pooled pages released), synchronously and once, before the first request. Needs `--expose-gc` (package.json's `start` script gives it).
 * @returns whether it ran: false when the process has no exposed `gc` (tests, other runners).
 */
export function releaseStartupMemory(): boolean {
  if (typeof globalThis.gc !== 'function') return false;
  globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}

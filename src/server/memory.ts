/**
 * Start-up memory (decision record 0008). Loading the server's modules makes tens of megabytes
 * of short-lived objects (Node's ES module loader, drizzle-orm's export graph); V8 collects them
 * but keeps some freed pages in its page pool, which an ordinary collection does not give back
 * (measured after loading app.ts: resident anonymous memory 67 MB, still 67 after a full
 * collection, 57 after this one). An idle server may never get a memory-reducing collection of
 * its own; one after start-up lowers the floor every request's peak adds to.
 */

/**
 * Runs one full, memory-reducing garbage collection (V8's "last resort" flavour: objects are
 * compacted and pooled pages released), synchronously — about 10 to 30 ms, once, before the
 * first request. Needs `--expose-gc` (package.json's `start` script gives it).
 * @returns whether it ran: false when the process has no exposed `gc` (tests, other runners).
 */
export function releaseStartupMemory(): boolean {
  if (typeof globalThis.gc !== 'function') return false;
  globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}

/**
 * The one-replayer guarantee of the outbox (DESIGN.md §7): every replay runs inside the Web Lock
 * `comptoir-outbox`, which the browser shares between all tabs and the service worker of the
 * origin, so two contexts never send the same queued write at the same time. Behind a small
 * interface so the replayer can be tested with the real `navigator.locks` (Node 24, Chromium) and
 * still run where the API is missing (old Safari): there the fallback only serialises replays of
 * this context — duplicates across tabs stay harmless because the server answers a repeated
 * Idempotency-Key with its first answer.
 */

/** Name of the Web Lock held while replaying. */
export const OUTBOX_LOCK_NAME = 'comptoir-outbox';

export interface OutboxLock {
  /**
   * Runs `task` holding the lock, if nobody holds it now. Resolves to the task's result, or to
   * `null` without running it when another replayer holds the lock (that one is replaying already).
   */
  runIfFree<T>(task: () => Promise<T>): Promise<T | null>;
}

interface LockManagerLike {
  request<T>(
    name: string,
    options: { ifAvailable: boolean },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

/** The Web Locks API of this context, or undefined where the browser lacks it. */
function lockManager(): LockManagerLike | undefined {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks;
}

/** A lock on `navigator.locks` (shared across tabs and the service worker). */
export function webLock(name: string = OUTBOX_LOCK_NAME, manager = lockManager()): OutboxLock {
  if (!manager) return contextLock();
  return {
    runIfFree: (task) =>
      manager.request(name, { ifAvailable: true }, async (lock) => (lock === null ? null : task())),
  };
}

/** A lock that only serialises this JavaScript context (the fallback without Web Locks). */
export function contextLock(): OutboxLock {
  let held = false;
  return {
    async runIfFree(task) {
      if (held) return null;
      held = true;
      try {
        return await task();
      } finally {
        held = false;
      }
    },
  };
}

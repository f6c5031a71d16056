/**
 * The outbox as the page's features use it: one replayer per page, started after sign-in and
 * stopped at sign-out, and `submitWrite`, which stores a write with its local record (one
 * transaction, queue.ts) and asks for it to be sent at once. Features never send their writes
 * themselves: online or offline, a write goes through the outbox, so it is sent the same way,
 * exactly once, whatever happens to the network or the tab.
 */
import { proxy } from 'valtio';
import { db } from '../db.ts';
import { API_BASE } from '../http.ts';
import { startPageReplayer, type PageReplayer, requestBackgroundSync } from './page-replayer.ts';
import { type WriteToQueue, queueWrite } from './queue.ts';
import type { OutboxItem } from '../db.ts';

/** `replaying` is true while this page runs a replay (the badge shows "sending"). */
export const outboxRuntime = proxy({ replaying: false });

let replayer: PageReplayer | null = null;

/** Absolute API base of this page (`/api/` resolved against the page's address). */
export function absoluteApiBase(): string {
  return new URL(API_BASE, globalThis.location?.href ?? 'http://localhost/').href;
}

/** Starts the page's replayer (idempotent). */
export function startOutbox(): void {
  replayer ??= startPageReplayer({
    db: db(),
    apiBase: absoluteApiBase(),
    onActivity: (running) => {
      outboxRuntime.replaying = running;
    },
  });
}

/** Stops it (sign-out); queued writes stay for the same user's next sign-in. */
export function stopOutbox(): void {
  replayer?.stop();
  replayer = null;
  outboxRuntime.replaying = false;
}

/** Asks for a replay now (the /sync screen's retry, after an edit). */
export function kickOutbox(): void {
  replayer?.kick();
  void requestBackgroundSync();
}

/** Resolves when this page's replayer is idle. */
export async function outboxIdle(): Promise<void> {
  await replayer?.idle();
}

/** Queues a write with its local record and asks for it to be sent; resolves once stored locally. */
export async function submitWrite(write: WriteToQueue): Promise<OutboxItem> {
  const item = await queueWrite(db(), write);
  kickOutbox();
  return item;
}

/**
 * When the page replays the outbox (DESIGN.md §7): at start, on `online`, on page show (back from
 * the bfcache, tab made visible), on a timer, and right after a write is queued. Each trigger asks
 * for a run; a run already going in this page is told to go round once more, and one going in
 * another tab or the service worker holds the Web Lock, so this page simply skips (replay.ts).
 * `online` also cuts short a run that is waiting between retries, so writes leave as soon as the
 * network is back. Background Sync is asked for after each write where the browser has it
 * (Chromium); it is a bonus, never the only way a write leaves.
 */
import type { ComptoirDb } from './local-database.ts';
import { readStoredCredentials } from './credentials.ts';
import { webLock } from './lock.ts';
import { OUTBOX_SYNC_TAG } from './queue.ts';
import { type BackoffOptions, type ReplayResult, replayOutbox } from './replay.ts';

/** How often an open page looks for due writes, in milliseconds. */
export const REPLAY_INTERVAL_MS = 20_000;

export interface PageReplayer {
  /**
   * Asks for a run now (coalesced with a run in progress). `urgent` (the default) sends waiting
   * items without waiting for their backoff delay; the timer's runs respect it.
   */
  kick(urgent?: boolean): void;
  /** Removes the listeners and the timer and stops a run in progress. */
  stop(): void;
  /** Resolves when no run of this page is going (tests, e2e). */
  idle(): Promise<void>;
}

export interface PageReplayerOptions {
  db: ComptoirDb;
  apiBase: string;
  backoff?: Partial<BackoffOptions>;
  intervalMs?: number;
  /** Called when a run starts and ends, and as items move. */
  onActivity?: (running: boolean, result?: ReplayResult | null) => void;
}

/** Starts replaying in this page; call `stop()` on sign-out. */
export function startPageReplayer(options: PageReplayerOptions): PageReplayer {
  const lock = webLock();
  let running: Promise<void> | null = null;
  let again = false;
  let controller = new AbortController();
  let stopped = false;
  let urgent = true;

  const runOnce = async () => {
    const ignoreSchedule = urgent;
    urgent = false;
    options.onActivity?.(true);
    let result: ReplayResult | null = null;
    try {
      result = await replayOutbox({
        db: options.db,
        lock,
        apiBase: options.apiBase,
        credentials: readStoredCredentials,
        signal: controller.signal,
        ignoreSchedule,
        ...(options.backoff ? { backoff: options.backoff } : {}),
        onProgress: () => options.onActivity?.(true),
      });
    } catch (e) {
      console.error('outbox replay failed', e);
    }
    options.onActivity?.(false, result);
  };

  const kick = (isUrgent = true) => {
    if (stopped) return;
    if (isUrgent) urgent = true;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        if (controller.signal.aborted) controller = new AbortController();
        await runOnce();
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  };

  const onOnline = () => {
    // Cut the wait between retries: the network is back, send now.
    controller.abort();
    kick();
  };
  const onShow = () => kick();
  const onVisible = () => {
    if (document.visibilityState === 'visible') kick();
  };
  globalThis.addEventListener('online', onOnline);
  globalThis.addEventListener('pageshow', onShow);
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(() => kick(false), options.intervalMs ?? REPLAY_INTERVAL_MS);
  kick();

  return {
    kick,
    stop() {
      stopped = true;
      controller.abort();
      clearInterval(timer);
      globalThis.removeEventListener('online', onOnline);
      globalThis.removeEventListener('pageshow', onShow);
      document.removeEventListener('visibilitychange', onVisible);
    },
    async idle() {
      while (running) await running;
    },
  };
}

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/** Asks the service worker for a Background Sync (Chromium); silently nothing elsewhere. */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = await globalThis.navigator?.serviceWorker?.getRegistration();
    const sync = (registration as { sync?: SyncManagerLike } | undefined)?.sync;
    await sync?.register(OUTBOX_SYNC_TAG);
  } catch {
    // Refused (permission, no service worker in dev): the page's own triggers still replay.
  }
}

/**
 * The sync state shown in the header on every signed-in screen (DESIGN.md §7): online or
 * offline, writes waiting, being sent, needing attention, and when a write last reached the
 * server. It comes from the outbox through Dexie's liveQuery, which also sees the changes the
 * service worker or another tab makes, so the badge is right whoever replays.
 *
 * It is the one source of the badge and of /sync (issue #20 item 7): the list of writes and its
 * counts arrive together in one answer of readOutboxState, and both screens derive what they say
 * from this proxy alone, so one cannot show an item "sending" while the other says "waiting".
 */
import { liveQuery, type Subscription } from 'dexie';
import { proxy, ref } from 'valtio';
import {
  forgetOfflineCopies,
  type OutboxItem,
  readOutboxState,
  startOutbox,
  stopOutbox,
} from '../../lib/outbox/page-outbox.ts';
import { onSignOut } from '../../lib/session.ts';

export interface SyncState {
  /** False until the outbox was read once: before that the badge does not claim anything. */
  loaded: boolean;
  online: boolean;
  /** Counts of `items` per state. */
  waiting: number;
  sending: number;
  needsAttention: number;
  /** Epoch milliseconds of the last write that reached the server, null if none yet. */
  lastSyncedAt: number | null;
  /** The signed-in user's writes still on the device, oldest first (the /sync list). */
  items: readonly OutboxItem[];
}

export const syncState = proxy<SyncState>({
  loaded: false,
  online: globalThis.navigator?.onLine ?? true,
  waiting: 0,
  sending: 0,
  needsAttention: 0,
  lastSyncedAt: null,
  items: ref([]),
});

/** What the badge says, most urgent first. */
export type SyncSummary = 'checking' | 'offline' | 'needsAttention' | 'sending' | 'waiting' | 'synced';

/** The state in one word, from the outbox's own counts only (as /sync shows them). */
export function summarise(s: Omit<SyncState, 'items'>): SyncSummary {
  if (!s.loaded) return s.online ? 'checking' : 'offline';
  if (s.needsAttention > 0) return 'needsAttention';
  if (!s.online) return 'offline';
  if (s.sending > 0) return 'sending';
  if (s.waiting > 0) return 'waiting';
  return 'synced';
}

let subscription: Subscription | null = null;
let removeListeners: (() => void) | null = null;

/** Starts the replayer and the live counts for `login` (idempotent per login). */
export function startSync(login: string): () => void {
  stopSync();
  startOutbox();
  subscription = liveQuery(async () => {
    return readOutboxState(login);
  }).subscribe({
    // The items are read-only answers: kept as they are (ref), not made reactive one by one.
    next: ({ items, ...counts }) => Object.assign(syncState, counts, { items: ref(items), loaded: true }),
    error: (e: unknown) => console.error('sync state', e),
  });
  const setOnline = () => {
    syncState.online = globalThis.navigator?.onLine ?? true;
  };
  globalThis.addEventListener('online', setOnline);
  globalThis.addEventListener('offline', setOnline);
  setOnline();
  removeListeners = () => {
    globalThis.removeEventListener('online', setOnline);
    globalThis.removeEventListener('offline', setOnline);
  };
  return stopSync;
}

export function stopSync(): void {
  syncState.loaded = false;
  syncState.items = ref([]);
  subscription?.unsubscribe();
  subscription = null;
  removeListeners?.();
  removeListeners = null;
  stopOutbox();
}

// Sign-out stops sending (the writes stay for the same user's next sign-in) and forgets the
// offline copies of reports and dashboards: they hold that user's figures.
onSignOut(async () => {
  stopSync();
  try {
    await forgetOfflineCopies();
  } catch {
    // IndexedDB unavailable: nothing was kept either.
  }
});

/**
 * The TanStack Query client of the app (DESIGN.md §8). Reads are retried once, except when the
 * server answered a definite no (4xx: bad parameters, rights, session) — those fail at once so the
 * user sees the translated error. Signing out empties the cache (SPEC.md §4: logout clears state),
 * the persisted copy included.
 *
 * Persisted cache (issue #19, decision 0021): the reference data (sites, groups, terminals,
 * sellers) and the home dashboard's widgets are kept in localStorage, at most
 * {@link PERSIST_MAX_AGE_MS} old and dropped whenever {@link PERSIST_BUSTER} changes, so /home
 * paints its last figures at once on the next start and refreshes behind them. Nothing else is
 * kept: no report, no session, no administration list (an allow-list of key roots).
 */
import { QueryClient } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { persistQueryClient } from '@tanstack/react-query-persist-client';
import { APP_VERSION } from '../../contract/constants.ts';
import { ApiFailure } from './http.ts';
import { onSignOut } from './session.ts';

/** Key root of the home dashboard's queries (features/home/home-queries.ts). */
export const HOME_QUERY_ROOT = 'home';
/** Key roots whose successful answers are persisted: reference data and the dashboard. */
export const PERSISTED_QUERY_ROOTS: ReadonlySet<string> = new Set(['reference', HOME_QUERY_ROOT]);
/** Longest age of a persisted cache before it is ignored: a day (yesterday's dashboard is stale news). */
export const PERSIST_MAX_AGE_MS = 24 * 60 * 60_000;
/**
 * Drops the persisted cache when it changes: the app version, and the number of the persisted
 * shapes (raise it when a persisted answer's contract changes within a version).
 */
export const PERSIST_BUSTER = `${APP_VERSION}+1`;
/** localStorage key of the persisted cache. */
export const PERSIST_STORAGE_KEY = 'comptoir-query-cache';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5 * 60_000,
      // Persisted answers must outlive a restart; the persister drops them after a day.
      gcTime: PERSIST_MAX_AGE_MS,
      retry: (failureCount, error) => {
        if (error instanceof ApiFailure && error.status !== null && error.status >= 400 && error.status < 500)
          return false;
        return failureCount < 1;
      },
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

/** True when a query's answer may be written to the persisted cache. */
export function isPersistedQuery(query: {
  queryKey: readonly unknown[];
  state: { status: string };
}): boolean {
  const root = query.queryKey[0];
  return query.state.status === 'success' && typeof root === 'string' && PERSISTED_QUERY_ROOTS.has(root);
}

/** The browser's localStorage, or undefined where there is none (tests in Node, private modes that throw). */
function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

const persister = createSyncStoragePersister({ storage: browserStorage(), key: PERSIST_STORAGE_KEY });

let restoring: Promise<void> | undefined;

/**
 * Restores the persisted cache into {@link queryClient} and keeps it written from then on, once
 * per page (later calls answer the same promise); the promise settles when the restore is done
 * (synchronous storage: at once), so main.tsx can wait for it before the first render and /home
 * paints from it. A cache too old, of another buster or unreadable is dropped.
 */
export function restoreQueryCache(): Promise<void> {
  restoring ??= persistQueryClient({
    // One query-core for react-query and the persister (package.json `overrides`).
    queryClient,
    persister,
    maxAge: PERSIST_MAX_AGE_MS,
    buster: PERSIST_BUSTER,
    dehydrateOptions: { shouldDehydrateQuery: isPersistedQuery },
  })[1].catch(() => {});
  return restoring;
}

// Whoever loads the client first (main.tsx for a restored session, the signed-in screens after a
// sign-in) starts the persistence; this module stays out of the login page's JavaScript.
void restoreQueryCache();

onSignOut(async () => {
  queryClient.clear();
  await persister.removeClient();
});

/**
 * The TanStack Query client of the app (DESIGN.md §8). Reads are retried once, except when the
 * server answered a definite no (4xx: bad parameters, rights, session) — those fail at once so the
 * user sees the translated error. Signing out empties the cache (SPEC.md §4: logout clears state).
 */
import { QueryClient } from '@tanstack/react-query';
import { ApiFailure } from './http.ts';
import { onSignOut } from './session.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5 * 60_000,
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

onSignOut(() => {
  queryClient.clear();
});

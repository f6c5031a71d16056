/**
 * React hook over Dexie's liveQuery: re-renders when the queried tables change, in this page,
 * another tab or the service worker (Dexie broadcasts its changes across the origin's contexts).
 */
import { liveQuery } from 'dexie';
import { useEffect, useState } from 'react';

/** `undefined` until the first answer. `deps` re-create the query, as in useEffect. */
export function useLiveQuery<T>(query: () => Promise<T>, deps: readonly unknown[]): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    const subscription = liveQuery(query).subscribe({
      next: setValue,
      error: (e: unknown) => console.error('live query', e),
    });
    return () => subscription.unsubscribe();
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what the query reads
  }, deps);
  return value;
}

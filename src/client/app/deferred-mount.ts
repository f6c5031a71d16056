import { useDeferredValue } from 'react';

/**
 * False in the render that mounts the calling component, true in a deferred re-render React starts
 * right after (decision 0026). A component that returns nothing while it is false is rendered by
 * React in slices that yield to the browser, even when its mount comes from a synchronous update
 * (the router's store, read through useSyncExternalStore, mounts the signed-in layout and /home in
 * one synchronous render: a task of about a second on a slow phone). Later renders are true at once.
 */
export function useDeferredMount(): boolean {
  return useDeferredValue(true, false);
}

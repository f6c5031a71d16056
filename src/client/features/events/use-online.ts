/**
 * Whether the device says it is online (`navigator.onLine`, updated on the window's `online` /
 * `offline` events): the calendar reads from offline copies, but its writes need the network, and
 * the screen says so before anyone types. `true` may still fail (a server down); a save then
 * tells `Network Error`.
 */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

const onLine = () => globalThis.navigator?.onLine !== false;

/** True unless the device says it is offline; re-renders when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, onLine, () => true);
}

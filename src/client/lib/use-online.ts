/**
 * Whether the device says it is online (`navigator.onLine`, updated on the window's `online` /
 * `offline` events), for the actions that need the network (the safe's dialogs, the events
 * calendar's writes): screens say so before anyone types, not only after a failed send. `true`
 * may still fail (a captive portal, a server down); the actions handle that as `Network Error`.
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

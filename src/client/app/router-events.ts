/**
 * What the shell does on navigation and sign-out, kept apart from the router's creation so tests
 * can wire it to a router of their own:
 * - every route change (a new path, not a new search) clears the notifications (SPEC.md §2);
 * - a sign-out returns to the login route (SPEC.md §2, §4); when the server refused the session
 *   (401), the login then says the session expired.
 */
import type { AnyRouter } from '@tanstack/react-router';
import { clearNotifications, notify } from '../lib/notifications.ts';
import { onSignOut } from '../lib/session.ts';

/** Subscribes the shell's behaviour to `router`; returns a function that undoes it. */
export function wireRouterEvents(router: AnyRouter): () => void {
  const unsubscribe = router.subscribe('onBeforeNavigate', (event) => {
    if (event.pathChanged) clearNotifications();
  });
  const unregister = onSignOut(async (reason) => {
    await router.navigate({ to: '/', replace: true });
    if (reason === 'expired') notify.error('Unauthorized');
  });
  return () => {
    unsubscribe();
    unregister();
  };
}

/**
 * The app's router: TanStack Router over the file-based route tree (src/client/routes, generated
 * into routeTree.gen.ts by the Vite plugin). Routes load on demand (SPEC.md §2), with a progress
 * bar and the 120-second limit of SPEC.md §9 (screen-load.tsx); the not-found screen answers any
 * other path.
 */
import { createRouter } from '@tanstack/react-router';
import { routeTree } from '../routeTree.gen.ts';
import { RouteError } from './route-error.tsx';
import { ScreenPending } from './screen-load.tsx';
import { wireRouterEvents } from './router-events.ts';

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultErrorComponent: RouteError,
  // A screen whose code is slow shows a progress bar, then a message past SPEC.md §9's limit.
  defaultPendingComponent: ScreenPending,
});

wireRouterEvents(router);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

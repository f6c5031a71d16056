/**
 * The app's router: TanStack Router over the file-based route tree (src/client/routes, generated
 * into routeTree.gen.ts by the Vite plugin). Routes load on demand (SPEC.md §2); the not-found
 * screen answers any other path.
 */
import { createRouter } from '@tanstack/react-router';
import { routeTree } from '../routeTree.gen.ts';
import { RouteError } from './route-error.tsx';
import { wireRouterEvents } from './router-events.ts';

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  scrollRestoration: true,
  defaultErrorComponent: RouteError,
});

wireRouterEvents(router);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

import { createRootRoute, Outlet } from '@tanstack/react-router';
import { NotFound } from '../app/not-found.tsx';
import { NotificationArea } from '../app/notification-area.tsx';
import { UpdatePrompt } from '../app/update-prompt.tsx';

/** The root: every screen, the notification area (top right) and the update prompt. */
export const Route = createRootRoute({
  component: Root,
  notFoundComponent: NotFound,
});

function Root() {
  return (
    <>
      <Outlet />
      <NotificationArea />
      <UpdatePrompt />
    </>
  );
}

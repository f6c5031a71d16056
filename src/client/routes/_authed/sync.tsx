import { createFileRoute } from '@tanstack/react-router';
import { SyncPage } from '../../features/sync/components/sync-page.tsx';

/** /sync (issue #3): the writes still on this device, with retry and discard. */
export const Route = createFileRoute('/_authed/sync')({
  component: SyncPage,
});

import { createFileRoute, redirect } from '@tanstack/react-router';
import { session } from '../lib/session.ts';
import { AuthedLayout } from './-components/authed-layout.tsx';

/**
 * The authenticated layout (pathless): without a session every screen under it sends to the login
 * (SPEC.md §2, §4).
 */
export const Route = createFileRoute('/_authed')({
  beforeLoad: () => {
    if (!session.user) throw redirect({ to: '/', replace: true });
  },
  component: AuthedLayout,
});

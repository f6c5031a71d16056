import { createFileRoute, redirect } from '@tanstack/react-router';
import { session } from '../lib/session.ts';
import { LoginPage } from './-components/login-page.tsx';

/** `/` — the login (SPEC.md §2); a stored user goes straight to /home. */
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    if (session.user) throw redirect({ to: '/home' });
  },
  component: LoginPage,
});

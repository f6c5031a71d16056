import { createFileRoute, redirect } from '@tanstack/react-router';
import { session } from '../lib/session.ts';
import { LoginPage } from './-components/login-page.tsx';

/** `/index` — the same login as `/` (SPEC.md §2 "/ and /index"). */
export const Route = createFileRoute('/index')({
  beforeLoad: () => {
    if (session.user) throw redirect({ to: '/home' });
  },
  component: LoginPage,
});

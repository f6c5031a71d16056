import { createFileRoute, redirect } from '@tanstack/react-router';

/** /analyses/comptageCaisses: the counting form (`saisie`) by default. */
export const Route = createFileRoute('/_authed/analyses/comptageCaisses/')({
  beforeLoad: () => {
    throw redirect({ to: '/analyses/comptageCaisses/$action', params: { action: 'saisie' }, replace: true });
  },
});

import { createFileRoute, redirect } from '@tanstack/react-router';
import { ensureFullCatalogue } from '../lib/i18n.tsx';
import { session } from '../lib/session.ts';
import { AuthedLayout } from './-components/authed-layout.tsx';

/**
 * The authenticated layout (pathless): without a session every screen under it sends to the login
 * (SPEC.md §2, §4). A signed-in screen shows once the whole catalogue of the language is loaded.
 */
export const Route = createFileRoute('/_authed')({
  beforeLoad: async () => {
    if (!session.user) throw redirect({ to: '/', replace: true });
    // The signed-in screens' messages are in the catalogue's later part (lib/catalogue-parts.ts).
    await ensureFullCatalogue();
  },
  component: AuthedLayout,
});

import { createFileRoute } from '@tanstack/react-router';
import { DatabasePage } from '../../features/database/components/database-page.tsx';

/** /config/bdd (issue #30): backup, restore, automatic backup, reindex. Needs ACCES_BASE (SCREEN_RIGHTS '/config/bdd'). */
export const Route = createFileRoute('/_authed/config/bdd')({
  component: DatabasePage,
});

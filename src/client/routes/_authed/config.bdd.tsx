import { createFileRoute } from '@tanstack/react-router';
import { PurgeSection } from '../../features/database-purge/components/purge-section.tsx';
import { DATABASE_SECTIONS, DatabasePage } from '../../features/database/components/database-page.tsx';

/** The sections of /config/bdd: backup, restore, automatic backup, reindex, previous databases, then the archive-first purge. */
const SECTIONS = [...DATABASE_SECTIONS, PurgeSection];

/**
 * /config/bdd (issue #30): backup, restore, automatic backup, reindex and the archive-first
 * purge. Needs ACCES_BASE (SCREEN_RIGHTS '/config/bdd').
 */
export const Route = createFileRoute('/_authed/config/bdd')({
  component: DatabaseScreen,
});

function DatabaseScreen() {
  return <DatabasePage sections={SECTIONS} />;
}

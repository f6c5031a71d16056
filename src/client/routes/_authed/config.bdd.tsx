import { createFileRoute } from '@tanstack/react-router';
import { FormattedMessage } from 'react-intl';
import { PurgeSection } from '../../features/database-purge/components/purge-section.tsx';
import '../../ui/page.css';

/**
 * /config/bdd (issue #30, right ACCES_BASE, contract/rights.ts SCREEN_RIGHTS): the database
 * operations. For now the archive-first empty and partial empty (PurgeSection); backup, restore,
 * automatic backup and reindex join it on this page.
 */
export const Route = createFileRoute('/_authed/config/bdd')({
  component: DatabasePage,
});

function DatabasePage() {
  return (
    <div className="ui-page">
      <h1>
        <FormattedMessage id="database.title" />
      </h1>
      <PurgeSection />
    </div>
  );
}

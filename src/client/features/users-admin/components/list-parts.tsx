/**
 * Parts shared by the two lists of this feature: their words for ui/list-page.tsx's ListReads, and
 * cells that read as cards on a phone.
 */
import type { ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { ListTexts } from '../../../ui/list-page.tsx';

/** Loading, failed and retry of /config/users and /config/profils (their tables say "empty" themselves). */
export function listTexts(intl: IntlShape): ListTexts {
  const t = (id: string) => intl.formatMessage({ id });
  return {
    loading: t('usersAdmin.loading'),
    failed: t('usersAdmin.loadFailed'),
    retry: t('usersAdmin.retry'),
  };
}

/**
 * A cell's content with its column name, shown (and read) only where rows read as cards on a
 * phone: there a screen reader may no longer announce the column header, so the cell says it.
 */
export function labelled(label: string, content: ReactNode): ReactNode {
  return (
    <>
      <span className="ua-cell-label">{label}</span>
      {content}
    </>
  );
}

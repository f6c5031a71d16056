/** The words of /config/sites' and /config/groupes' lists (ui/list-page.tsx ListReads), in the user's language. */
import type { IntlShape } from 'react-intl';
import type { ListTexts } from '../../ui/list-page.tsx';

/** Loading, failed and retry of the administration of sites, and the list's own `emptyId`. */
export function listTexts(intl: IntlShape, emptyId: string): ListTexts {
  const t = (id: string) => intl.formatMessage({ id });
  return {
    loading: t('sitesAdmin.loading'),
    failed: t('sitesAdmin.loadFailed'),
    retry: t('sitesAdmin.retry'),
    empty: t(emptyId),
  };
}

/**
 * Says, above a report, which of its days were purged (issue #30, decision 0040): for each site
 * and purged period the server listed in the dataset's `archived`, that the detail was archived,
 * where, and the grand totals kept for those days (to the cent, in the dataset's currency). The
 * report's rows hold nothing for those days: the notice is how a reader knows why.
 */
import { useIntl } from 'react-intl';
import type { Dataset } from '../../../../contract/reports.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import './archived-notice.css';

/** The notice of the module comment; nothing when no day of the report was purged. */
export function ArchivedNotice({ dataset }: { dataset: Dataset }) {
  const intl = useIntl();
  const archived = dataset.archived ?? [];
  if (archived.length === 0) return null;
  const money = (cents: number) => formatMoney(cents, dataset.currency, intl.locale);
  const siteName = (id: number) => dataset.sites.find((s) => s.restaurantId === id)?.libelle ?? String(id);
  return (
    <section className="rep-archived" aria-labelledby="rep-archived-heading" data-testid="report-archived">
      <h3 id="rep-archived-heading">{intl.formatMessage({ id: 'reports.archived.heading' })}</h3>
      <ul>
        {archived.map((a) => (
          <li key={`${a.restaurantId}-${a.debut}-${a.archive}`}>
            {intl.formatMessage(
              { id: 'reports.archived.line' },
              {
                site: siteName(a.restaurantId),
                debut: formatDate(a.debut),
                fin: formatDate(a.fin),
                archive: a.archive,
                tickets: a.tickets,
                net: money(a.netCents),
                excl: money(a.netExclCents),
                tax: money(a.taxCents),
              },
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

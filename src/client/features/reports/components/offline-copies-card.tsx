/**
 * /rapports with no network (issue #20 item 9): the report previews this device keeps as offline
 * copies, each named by its report, sites, period and the time of the copy, so a manager opens
 * one at once instead of asking again a report the network cannot bring.
 */
import { format as formatInstant } from 'date-fns/format';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { Site } from '../../../../contract/api.ts';
import type { Dataset, ReportClassInfo } from '../../../../contract/reports.ts';
import { formatDate } from '../../../lib/format.ts';
import { useLiveQuery } from '../../../lib/outbox/use-live-query.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { listReportCopies, openReportCopy, type ReportCopy } from '../offline-copies.ts';

/** Whether the browser says it has a network, kept up to date by its online/offline events. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => globalThis.navigator?.onLine ?? true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** Epoch milliseconds as the local date and 24-hour time of the copy. */
export function copyTime(storedAt: number): { date: string; time: string } {
  return { date: formatInstant(storedAt, 'dd/MM/yyyy'), time: formatInstant(storedAt, 'HH:mm') };
}

/** Most site names listed for one copy; more read as "n sites". */
const MAX_SITE_NAMES = 3;

/**
 * The card listing `login`'s kept previews; `onOpen` receives the dataset of the one pressed and
 * the time of its copy. `editions` name the reports and `sites` the sites (what the page knows;
 * a class or site it does not know shows its code).
 */
export function OfflineCopiesCard(props: {
  login: string;
  editions: readonly ReportClassInfo[];
  sites: readonly Site[];
  onOpen: (dataset: Dataset, storedAt: number) => void;
}) {
  const intl = useIntl();
  const copies = useLiveQuery(() => listReportCopies(props.login), [props.login]);
  const [gone, setGone] = useState(false);
  const title = (c: ReportCopy) =>
    props.editions.find((e) => e.className === c.className)?.localisedTitle ?? c.className;
  const siteNames = (c: ReportCopy) => {
    if (c.siteIds.length > MAX_SITE_NAMES) {
      return intl.formatMessage({ id: 'reports.copies.manySites' }, { count: c.siteIds.length });
    }
    return c.siteIds
      .map((id) => props.sites.find((s) => s.restaurantId === id)?.libelle ?? String(id))
      .join(', ');
  };
  const open = async (c: ReportCopy) => {
    const dataset = await openReportCopy(c.key);
    setGone(dataset === null);
    if (dataset) props.onOpen(dataset, c.storedAt);
  };

  return (
    <Card className="rep-copies" labelledBy="rep-copies-heading">
      <CardTitle id="rep-copies-heading">{intl.formatMessage({ id: 'reports.copies.title' })}</CardTitle>
      <p className="rep-muted">{intl.formatMessage({ id: 'reports.copies.intro' })}</p>
      {gone ? (
        <p className="rep-form-error" role="alert">
          {intl.formatMessage({ id: 'reports.copies.gone' })}
        </p>
      ) : null}
      {copies === undefined ? null : copies.length === 0 ? (
        <p className="rep-muted">{intl.formatMessage({ id: 'reports.copies.empty' })}</p>
      ) : (
        <ul className="rep-copies__list">
          {copies.map((c) => (
            <li key={c.key}>
              <Button className="rep-copies__item" onPress={() => void open(c)}>
                <span className="rep-copies__title">{title(c)}</span>
                <span className="rep-copies__detail">
                  {intl.formatMessage(
                    { id: 'reports.copies.detail' },
                    { sites: siteNames(c), start: formatDate(c.dateDebut), end: formatDate(c.dateFin) },
                  )}
                </span>
                <span className="rep-copies__detail">
                  {intl.formatMessage({ id: 'reports.copies.storedAt' }, copyTime(c.storedAt))}
                </span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

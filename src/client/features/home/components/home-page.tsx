/**
 * /home (SPEC.md §2 "Home screen (slide transition)"): yesterday's and today's sales — net sales,
 * tickets, average ticket — for the selected sites (all the user's sites when none is chosen),
 * from GET bo/home/ventes. The page slides in on entering, unless the user asked for reduced motion.
 */
import { useQuery } from '@tanstack/react-query';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { toWireDate } from '../../../../contract/dates.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { session } from '../../../lib/session.ts';
import { Button } from '../../../ui/button.tsx';
import { GroupPicker, SitePicker } from '../../../selection/components/site-pickers.tsx';
import { useSiteScope } from '../../../selection/use-reference-data.ts';
import { homeQueries } from '../home-queries.ts';
import './home.css';

/** Message id of a failure: `error.<code>` when the catalogue has it, else the generic error. */
function errorMessageId(error: unknown, messages: Record<string, unknown>): string {
  const id = error instanceof ApiFailure ? `error.${error.code}` : '';
  return id in messages ? id : 'app.unexpectedError';
}

type Day = { fiscalDate: string; tickets: number; netSales: number; averageTicket: number };

function DayCard({ titleId, day, currency }: { titleId: string; day: Day | undefined; currency: string }) {
  const intl = useIntl();
  const locale = intl.locale;
  const headingId = `home-${titleId}`;
  return (
    <section className="home-day" aria-labelledby={headingId}>
      <h2 className="home-day__title" id={headingId}>
        {intl.formatMessage({ id: `home.${titleId}` })}
        {day ? <span className="home-day__date">{formatDate(day.fiscalDate)}</span> : null}
      </h2>
      <dl className="home-figures">
        <div className="home-figure home-figure--main">
          <dt>{intl.formatMessage({ id: 'home.netSales' })}</dt>
          <dd>{formatMoney(day?.netSales ?? 0, currency, locale)}</dd>
        </div>
        <div className="home-figure">
          <dt>{intl.formatMessage({ id: 'home.tickets' })}</dt>
          <dd>{formatNumber(day?.tickets ?? 0, locale)}</dd>
        </div>
        <div className="home-figure">
          <dt>{intl.formatMessage({ id: 'home.averageTicket' })}</dt>
          <dd>{formatMoney(day?.averageTicket ?? 0, currency, locale)}</dd>
        </div>
      </dl>
    </section>
  );
}

export function HomePage() {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const scope = useSiteScope();
  const siteIds = [...scope.effective].sort((a, b) => a - b);
  const sales = useQuery({
    ...homeQueries.sales({
      userId: user?.id ?? 0,
      siteIds,
      datePerso: toWireDate(new Date()),
      exploitant: user?.codeExploitant ?? null,
    }),
    enabled: user !== null && !scope.isLoading && siteIds.length > 0,
  });
  const days = sales.data?.days ?? [];
  // The server answers datePerso-1 then datePerso; read them by position from the end.
  const today = days.at(-1);
  const yesterday = days.length > 1 ? days.at(-2) : undefined;
  const currency = sales.data?.currency ?? user?.currency ?? 'EUR';

  return (
    <div className="home-page">
      <h1 className="home-title">{intl.formatMessage({ id: 'home.title' })}</h1>
      <div className="home-where">
        <GroupPicker />
        <SitePicker />
      </div>
      {scope.isLoading ? (
        <p className="home-status" role="status">
          {intl.formatMessage({ id: 'home.loading' })}
        </p>
      ) : siteIds.length === 0 ? (
        <p className="home-status">{intl.formatMessage({ id: 'home.noSite' })}</p>
      ) : sales.isPending ? (
        <p className="home-status" role="status">
          {intl.formatMessage({ id: 'home.loading' })}
        </p>
      ) : sales.isError ? (
        <div className="home-error" role="alert">
          <p>
            {intl.formatMessage({ id: 'home.failed' })}{' '}
            {intl.formatMessage({ id: errorMessageId(sales.error, intl.messages) })}
          </p>
          <Button onPress={() => void sales.refetch()}>{intl.formatMessage({ id: 'home.retry' })}</Button>
        </div>
      ) : (
        <div className="home-days" aria-busy={sales.isFetching}>
          <DayCard titleId="yesterday" day={yesterday} currency={currency} />
          <DayCard titleId="today" day={today} currency={currency} />
        </div>
      )}
    </div>
  );
}

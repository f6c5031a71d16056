/**
 * The frame of one home widget: a named card whose body is the widget's figures once they are
 * there, a status line while they load, and a translated error with "Try again" when they fail.
 * Under the title it says when the figures were read ("Figures of 14:32"): painted from the
 * persisted cache (decision 0021) they may be older than the screen; served by the service
 * worker's offline copy it says so, with the copy's time ("Offline copy of 14:32").
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { displayInstant } from '../../../../contract/dates.ts';
import { ApiFailure } from '../../../lib/http.ts';
import { Button } from '../../../ui/button.tsx';
import { Card, CardTitle } from '../../../ui/card.tsx';

/** Message id of a failure: `error.<code>` when the catalogue has it, else the generic error. */
export function errorMessageId(error: unknown, messages: Record<string, unknown>): string {
  const id = error instanceof ApiFailure ? `error.${error.code}` : '';
  return id in messages ? id : 'app.unexpectedError';
}

/**
 * What a home card shows before its data is there: the failure, translated, with "Try again"
 * (refetches `query`), or the loading line. Shared by the widgets and the "Needs attention" card.
 */
export function QueryFallback({ query }: { query: Pick<UseQueryResult, 'isError' | 'error' | 'refetch'> }) {
  const intl = useIntl();
  return query.isError ? (
    <div className="home-error" role="alert">
      <p>{intl.formatMessage({ id: errorMessageId(query.error, intl.messages) })}</p>
      <Button onPress={() => void query.refetch()}>{intl.formatMessage({ id: 'home.retry' })}</Button>
    </div>
  ) : (
    <p className="home-status" role="status">
      {intl.formatMessage({ id: 'home.loading' })}
    </p>
  );
}

/** "14:32", or "01/03/2026 14:32" when not today. */
function readAt(instant: number): string {
  const shown = displayInstant(instant);
  return new Date(instant).toDateString() === new Date().toDateString()
    ? shown.time
    : `${shown.date} ${shown.time}`;
}

export function WidgetCard<T extends { offlineCopyOf: string | null }>({
  widget,
  query,
  children,
}: {
  /** Widget name (`ventes`, …): title `home.widget.<name>`, class `home-widget--<name>`. */
  widget: string;
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  const intl = useIntl();
  const titleId = `home-widget-${widget}`;
  return (
    <Card labelledBy={titleId} className={`home-widget home-widget--${widget}`}>
      <CardTitle id={titleId}>{intl.formatMessage({ id: `home.widget.${widget}` })}</CardTitle>
      {query.data !== undefined ? (
        <div aria-busy={query.isFetching}>
          <p className="home-widget__time">
            {query.data.offlineCopyOf
              ? intl.formatMessage(
                  { id: 'home.offlineCopyOf' },
                  { when: readAt(Date.parse(query.data.offlineCopyOf)) },
                )
              : intl.formatMessage({ id: 'home.readAt' }, { when: readAt(query.dataUpdatedAt) })}
          </p>
          {children(query.data)}
        </div>
      ) : (
        <QueryFallback query={query} />
      )}
    </Card>
  );
}

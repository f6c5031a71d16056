/**
 * A page of ticket search results: the count, a table (time, site, terminal, seller, number,
 * kind, amount; each number opens the ticket) that becomes one card per ticket on a phone, and
 * previous / next page buttons. An empty page says SPEC.md §8 `NoTicketToCrit`.
 */
import { Link } from '@tanstack/react-router';
import { useIntl } from 'react-intl';
import type { TicketSearchAnswer } from '../../../../contract/tickets.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { Button } from '../../../ui/button.tsx';
import { pageCount, splitLocal } from '../ticket-search.ts';
import { TicketKind } from './ticket-kind.tsx';

export function TicketResults({
  answer,
  onPage,
}: {
  answer: TicketSearchAnswer;
  onPage: (page: number) => void;
}) {
  const intl = useIntl();
  const pages = pageCount(answer.total, answer.pageSize);
  if (answer.total === 0) {
    return (
      <p className="tk-empty" role="status">
        {intl.formatMessage({ id: 'error.NoTicketToCrit' })}
      </p>
    );
  }
  const columns = [
    ['time', 'tickets.col.time'],
    ['site', 'tickets.col.site'],
    ['terminal', 'tickets.col.terminal'],
    ['seller', 'tickets.col.seller'],
    ['number', 'tickets.col.number'],
    ['kind', 'tickets.col.kind'],
    ['amount', 'tickets.col.amount'],
  ] as const;
  const label = (id: string) => intl.formatMessage({ id });
  const pager = (
    <nav className="ui-pager tk-pager" aria-label={label('tickets.pages')}>
      <Button isDisabled={answer.page <= 1} onPress={() => onPage(answer.page - 1)}>
        {label('tickets.previous')}
      </Button>
      <span className="ui-pager__where tk-pager__where">
        {intl.formatMessage({ id: 'tickets.pageOf' }, { page: answer.page, pages })}
      </span>
      <Button isDisabled={answer.page >= pages} onPress={() => onPage(answer.page + 1)}>
        {label('tickets.next')}
      </Button>
    </nav>
  );
  return (
    <>
      <p className="tk-count" role="status">
        {intl.formatMessage({ id: 'tickets.count' }, { count: answer.total })}
      </p>
      <div className="tk-table-wrap">
        <table className="tk-table tk-table--results">
          <caption className="visually-hidden">{label('tickets.results')}</caption>
          <thead>
            <tr>
              {columns.map(([key, id]) => (
                <th key={key} scope="col" className={key === 'amount' ? 'tk-num' : undefined}>
                  {label(id)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {answer.tickets.length === 0 ? (
              <tr>
                <td colSpan={columns.length}>{label('tickets.pageEmpty')}</td>
              </tr>
            ) : null}
            {answer.tickets.map((t) => {
              const local = splitLocal(t.openedLocal);
              return (
                <tr
                  key={`${t.restaurantId}:${t.ticketId}`}
                  className={t.kind === 'SALE' ? undefined : 'tk-row--alert'}
                >
                  <td data-label={label('tickets.col.time')} className="tk-c-time">
                    <span className="tk-cell">
                      <span className="tk-nowrap">{formatDate(local.date)}</span>{' '}
                      <span className="tk-nowrap">{local.time}</span>
                    </span>
                  </td>
                  <td data-label={label('tickets.col.site')} className="tk-c-site">
                    {t.site}
                  </td>
                  <td data-label={label('tickets.col.terminal')} className="tk-c-terminal">
                    {t.terminal ?? t.terminalId ?? '—'}
                  </td>
                  <td data-label={label('tickets.col.seller')} className="tk-c-seller">
                    {t.seller ?? t.sellerCode ?? '—'}
                  </td>
                  <td data-label={label('tickets.col.number')} className="tk-c-number">
                    <Link
                      to="/tickets/$siteId/$ticketId"
                      params={{ siteId: t.restaurantId, ticketId: t.ticketId }}
                      className="tk-open"
                      aria-label={intl.formatMessage({ id: 'tickets.open' }, { number: t.number })}
                    >
                      {t.number}
                    </Link>
                  </td>
                  <td data-label={label('tickets.col.kind')} className="tk-c-kind">
                    <TicketKind ticket={t} />
                  </td>
                  <td data-label={label('tickets.col.amount')} className="tk-num tk-c-amount">
                    {formatMoney(t.totalCents, t.currency, intl.locale)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {pages > 1 ? pager : null}
    </>
  );
}

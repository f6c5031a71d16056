/**
 * One ticket (SPEC.md §2 "ticket viewing"): what the till recorded of its history (fiscal date,
 * opening time in the site's clock, terminal, seller, kind), its lines (article, family,
 * quantity, unit price, amount, VAT rate; corrected lines struck through) and its payments.
 * Lines and payments become cards on a phone.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import type { TicketDetail, TicketSummary } from '../../../../contract/tickets.ts';
import { formatDate, formatMoney, formatNumber } from '../../../lib/format.ts';
import { notifyFailure } from '../../../lib/notifications.ts';
import { session } from '../../../lib/session.ts';
import { Card, CardTitle } from '../../../ui/card.tsx';
import { ProgressBar } from '../../../ui/progress-bar.tsx';
import { ticketQueries } from '../ticket-queries.ts';
import { splitLocal } from '../ticket-search.ts';
import { TicketKind } from './ticket-kind.tsx';
import './tickets.css';

const KNOWN_METHODS = ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE', 'OTHER'];

export function TicketDetailPage({ siteId, ticketId }: { siteId: number; ticketId: number }) {
  const intl = useIntl();
  const { user } = useSnapshot(session);
  const query = useQuery({
    ...ticketQueries.detail(user?.id ?? 0, siteId, ticketId),
    enabled: user !== null,
  });
  useEffect(() => {
    if (query.errorUpdatedAt > 0 && query.error) notifyFailure(query.error);
  }, [query.errorUpdatedAt, query.error]);

  return (
    <div className="tk-page">
      <p className="tk-back">
        <Link to="/tickets" className="tk-back__link">
          <span aria-hidden="true" className="tk-back__arrow">
            ←
          </span>
          {intl.formatMessage({ id: 'tickets.back' })}
        </Link>
      </p>
      {query.data ? (
        <TicketView ticket={query.data} />
      ) : query.isError ? (
        <p className="tk-muted">{intl.formatMessage({ id: 'tickets.detail.failed' })}</p>
      ) : (
        <ProgressBar label={intl.formatMessage({ id: 'tickets.detail.loading' })} value={null} />
      )}
    </div>
  );
}

/** A link to another ticket of the same site: its number, time and amount. */
function TicketLink({ other }: { other: TicketSummary }) {
  const intl = useIntl();
  const local = splitLocal(other.openedLocal);
  return (
    <Link
      to="/tickets/$siteId/$ticketId"
      params={{ siteId: other.restaurantId, ticketId: other.ticketId }}
      className="tk-back__link"
    >
      {intl.formatMessage(
        { id: 'tickets.detail.linkedTicket' },
        {
          number: other.number,
          time: local.time,
          amount: formatMoney(other.totalCents, other.currency, intl.locale),
        },
      )}
    </Link>
  );
}

/**
 * What cancels what: a cancellation names the sale it cancels (or says the till did not record
 * it); a sale names its cancellations. Answers kept offline from before the link existed lack
 * both fields, hence the defaults.
 */
function CancellationLinks({ ticket }: { ticket: TicketDetail }) {
  const intl = useIntl();
  const label = (id: string) => intl.formatMessage({ id });
  const cancels = ticket.cancels ?? null;
  const cancelledBy = ticket.cancelledBy ?? [];
  if (ticket.kind === 'CANCELLATION') {
    if (cancels === null) return <p className="tk-note">{label('tickets.detail.cancellationNote')}</p>;
    return (
      <p className="tk-note">
        {label('tickets.detail.cancels')} <TicketLink other={cancels} />
      </p>
    );
  }
  if (cancelledBy.length === 0) return null;
  return (
    <p className="tk-note">
      {label('tickets.detail.cancelledBy')}{' '}
      {cancelledBy.map((c, i) => (
        <span key={c.ticketId}>
          {i > 0 ? ', ' : null}
          <TicketLink other={c} />
        </span>
      ))}
    </p>
  );
}

/** One name and its value in a description list (tk-facts, tk-figures). */
function Fact({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function TicketView({ ticket }: { ticket: TicketDetail }) {
  const intl = useIntl();
  const locale = intl.locale;
  const money = (cents: number) => formatMoney(cents, ticket.currency, locale);
  const label = (id: string) => intl.formatMessage({ id });
  const local = splitLocal(ticket.openedLocal);
  const method = (m: string) => (KNOWN_METHODS.includes(m) ? label(`tickets.payment.${m}`) : m);
  const paid = ticket.payments.reduce((sum, p) => sum + p.amountCents, 0);

  return (
    <>
      <h1 className="tk-title">
        {intl.formatMessage({ id: 'tickets.detail.title' }, { number: ticket.number })}
      </h1>
      <Card labelledBy="tk-history-heading">
        <CardTitle id="tk-history-heading">{label('tickets.detail.history')}</CardTitle>
        <dl className="tk-facts">
          <Fact name={label('tickets.col.site')}>{ticket.site}</Fact>
          <Fact name={label('tickets.detail.fiscalDate')}>{formatDate(ticket.fiscalDate)}</Fact>
          <Fact name={label('tickets.detail.opened')}>
            {intl.formatMessage(
              { id: 'tickets.detail.openedAt' },
              { date: formatDate(local.date), time: local.time },
            )}
          </Fact>
          <Fact name={label('tickets.col.terminal')}>{ticket.terminal ?? ticket.terminalId ?? '—'}</Fact>
          <Fact name={label('tickets.col.seller')}>
            {ticket.seller ?? '—'}
            {ticket.sellerCode ? <span className="tk-muted"> ({ticket.sellerCode})</span> : null}
          </Fact>
          <Fact name={label('tickets.col.kind')}>
            <TicketKind ticket={ticket} />
          </Fact>
          {ticket.covers !== null ? (
            <Fact name={label('tickets.detail.covers')}>{formatNumber(ticket.covers, locale)}</Fact>
          ) : null}
        </dl>
        <CancellationLinks ticket={ticket} />
      </Card>

      <Card labelledBy="tk-total-heading">
        <CardTitle id="tk-total-heading">{label('tickets.detail.totals')}</CardTitle>
        <dl className="tk-figures">
          <Fact name={label('tickets.detail.total')}>{money(ticket.totalCents)}</Fact>
          <Fact name={label('tickets.detail.totalExcl')}>{money(ticket.totalExclCents)}</Fact>
          <Fact name={label('tickets.detail.tax')}>{money(ticket.taxCents)}</Fact>
        </dl>
      </Card>

      <Card labelledBy="tk-lines-heading">
        <CardTitle id="tk-lines-heading">
          {intl.formatMessage({ id: 'tickets.detail.lines' }, { count: ticket.lines.length })}
        </CardTitle>
        <div className="tk-table-wrap">
          <table className="tk-table tk-table--lines">
            <thead>
              <tr>
                <th scope="col">{label('tickets.line.article')}</th>
                <th scope="col">{label('tickets.line.family')}</th>
                <th scope="col" className="tk-num">
                  {label('tickets.line.quantity')}
                </th>
                <th scope="col" className="tk-num">
                  {label('tickets.line.unitPrice')}
                </th>
                <th scope="col" className="tk-num">
                  {label('tickets.line.amount')}
                </th>
                <th scope="col" className="tk-num">
                  {label('tickets.line.vat')}
                </th>
              </tr>
            </thead>
            <tbody>
              {ticket.lines.map((l) => (
                <tr key={l.lineNo} className={l.corrected ? 'tk-row--corrected' : undefined}>
                  <td data-label={label('tickets.line.article')} className="tk-l-article">
                    <span className="tk-cell">
                      <span className="tk-article">{l.article}</span>
                      {l.articleCode ? <span className="tk-muted"> {l.articleCode}</span> : null}
                      {l.corrected ? (
                        <span className="tk-badge tk-badge--warn">{label('tickets.line.corrected')}</span>
                      ) : null}
                    </span>
                  </td>
                  <td data-label={label('tickets.line.family')} className="tk-l-family">
                    {l.family ?? '—'}
                  </td>
                  <td data-label={label('tickets.line.quantity')} className="tk-num tk-l-qty">
                    {formatNumber(l.quantity, locale, { maximumFractionDigits: 3 })}
                  </td>
                  <td data-label={label('tickets.line.unitPrice')} className="tk-num tk-l-unit">
                    {money(l.unitPriceCents)}
                  </td>
                  <td data-label={label('tickets.line.amount')} className="tk-num tk-l-amount">
                    {money(l.amountCents)}
                  </td>
                  <td data-label={label('tickets.line.vat')} className="tk-num tk-l-vat">
                    {formatNumber(l.vatRate, locale, { style: 'percent', maximumFractionDigits: 2 })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      <Card labelledBy="tk-payments-heading">
        <CardTitle id="tk-payments-heading">{label('tickets.detail.payments')}</CardTitle>
        {ticket.payments.length === 0 ? (
          <p className="tk-muted">{label('tickets.detail.noPayment')}</p>
        ) : (
          <table className="tk-table tk-table--compact">
            <thead>
              <tr>
                <th scope="col">{label('tickets.payment.method')}</th>
                <th scope="col" className="tk-num">
                  {label('tickets.payment.amount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {ticket.payments.map((p) => (
                <tr key={p.paymentNo}>
                  <td>{method(p.method)}</td>
                  <td className="tk-num">{money(p.amountCents)}</td>
                </tr>
              ))}
            </tbody>
            {ticket.payments.length > 1 ? (
              <tfoot>
                <tr>
                  <th scope="row">{label('tickets.detail.total')}</th>
                  <td className="tk-num">{money(paid)}</td>
                </tr>
              </tfoot>
            ) : null}
          </table>
        )}
      </Card>
    </>
  );
}

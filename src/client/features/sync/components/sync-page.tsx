/**
 * /sync (issue #3 point 5): every write of this user still on the device — waiting, being sent,
 * or needing attention with the server's reason — with its age; retry now, fix (opens the form
 * with what was typed) or discard after a confirmation. Nothing leaves this list unless it
 * reached the server or the user confirmed its discard.
 */
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSnapshot } from 'valtio';
import { notifyFailure } from '../../../lib/notifications.ts';
import {
  confirmWriteDiscard,
  type DiscardTicket,
  type OutboxItem,
  prepareWriteDiscard,
  retryWrite,
} from '../../../lib/outbox/page-outbox.ts';
import { Button } from '../../../ui/button.tsx';
import { Dialog } from '../../../ui/dialog.tsx';
import { session } from '../../../lib/session.ts';
import { useReferenceData } from '../../../selection/use-reference-data.ts';
import { summaryFacts } from '../summary-facts.ts';
import { summarise, syncState } from '../sync-state.ts';
import '../sync.css';
import { displayInstant } from '../../../../contract/dates.ts';

function useAge() {
  const intl = useIntl();
  return (createdAt: number) => {
    const minutes = Math.round((Date.now() - createdAt) / 60_000);
    if (minutes < 1) return intl.formatMessage({ id: 'sync.ageNow' });
    if (minutes < 60) return intl.formatRelativeTime(-minutes, 'minute', { numeric: 'auto' });
    const hours = Math.round(minutes / 60);
    if (hours < 48) return intl.formatRelativeTime(-hours, 'hour', { numeric: 'auto' });
    return intl.formatRelativeTime(-Math.round(hours / 24), 'day', { numeric: 'auto' });
  };
}

function ReasonText({ code }: { code: string }) {
  const intl = useIntl();
  const id = `error.${code}`;
  return (
    <span className="sync-item__reason">
      {intl.messages[id]
        ? intl.formatMessage({ id })
        : intl.formatMessage({ id: 'sync.reasonUnknown' }, { code })}
    </span>
  );
}

/** The item's facts (site by name, date DD/MM/YYYY, money: summary-facts.ts), one line. */
function Summary({ item }: { item: OutboxItem }) {
  const intl = useIntl();
  const ref = useReferenceData();
  const { user } = useSnapshot(session);
  const facts = summaryFacts(item.summary, {
    sites: ref.sites,
    terminals: ref.terminals,
    currency: user?.currency || 'EUR',
    locale: intl.locale,
  });
  const parts = facts.map((f) => `${intl.formatMessage({ id: `sync.field.${f.key}` })} ${f.value}`);
  return <span className="sync-item__meta">{parts.join(' · ')}</span>;
}

/** One line of the summary: its name (message `label`) and its value. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>
        <FormattedMessage id={label} />
      </dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Opens the item's form with what was queued, to fix it and send it again. */
function FixLink({ item }: { item: OutboxItem }) {
  const label = <FormattedMessage id="sync.fix" />;
  const className = 'ui-button ui-button--secondary';
  if (item.kind === 'cashCount') {
    return (
      <Link
        className={className}
        to="/analyses/comptageCaisses/$action"
        params={{ action: 'saisie' }}
        search={{ outbox: item.id }}
      >
        {label}
      </Link>
    );
  }
  if (item.kind === 'safeCount') {
    return (
      <Link className={className} to="/analyses/coffre" search={{ outbox: item.id }}>
        {label}
      </Link>
    );
  }
  if (item.kind === 'receipt' || item.kind === 'receiptUpdate') {
    return (
      <Link className={className} to="/recus" search={{ outbox: item.id }}>
        {label}
      </Link>
    );
  }
  return null;
}

export function SyncPage() {
  // The list and its counts come from the badge's own state: the two can never disagree.
  const s = useSnapshot(syncState);
  const intl = useIntl();
  const age = useAge();
  const items = s.loaded ? s.items : undefined;
  const [ticket, setTicket] = useState<DiscardTicket | null>(null);

  const retry = async (id: string) => {
    try {
      await retryWrite(id);
    } catch (e) {
      notifyFailure(e);
    }
  };
  const askDiscard = async (id: string) => {
    try {
      setTicket(await prepareWriteDiscard(id));
    } catch (e) {
      notifyFailure(e);
    }
  };
  const discard = async () => {
    if (!ticket) return;
    try {
      await confirmWriteDiscard(ticket);
    } catch (e) {
      notifyFailure(e);
    } finally {
      setTicket(null);
    }
  };

  const summary = summarise(s);
  return (
    <section className="sync-page" aria-labelledby="sync-title">
      <h1 id="sync-title">
        <FormattedMessage id="sync.title" />
      </h1>
      <dl className="sync-page__summary" data-testid="sync-summary" data-state={summary}>
        <Fact label="sync.network">
          <FormattedMessage id={s.online ? 'sync.online' : 'sync.offline'} />
        </Fact>
        <Fact label="sync.state.waiting">{s.waiting}</Fact>
        <Fact label="sync.state.sending">{s.sending}</Fact>
        <Fact label="sync.state.needsAttention">{s.needsAttention}</Fact>
        <Fact label="sync.lastSynced">
          {s.lastSyncedAt === null
            ? '—'
            : `${displayInstant(s.lastSyncedAt).date} ${displayInstant(s.lastSyncedAt).time}`}
        </Fact>
      </dl>
      {items && items.length === 0 ? (
        <p data-testid="sync-empty">
          <FormattedMessage id="sync.empty" />
        </p>
      ) : null}
      <ul className="sync-list" aria-label={intl.formatMessage({ id: 'sync.listLabel' })}>
        {(items ?? []).map((item) => (
          <li
            key={item.id}
            className={`sync-item sync-item--${item.state}`}
            data-testid="sync-item"
            data-state={item.state}
          >
            <div>
              <div className="sync-item__title">
                <FormattedMessage id={`sync.kind.${item.kind}`} /> —{' '}
                <FormattedMessage id={`sync.state.${item.state}`} />
              </div>
              <Summary item={item} />
              <div className="sync-item__meta">
                <FormattedMessage
                  id="sync.ageAttempts"
                  values={{ age: age(item.createdAt), attempts: item.attempts }}
                />
              </div>
              {item.reason ? <ReasonText code={item.reason} /> : null}
            </div>
            <div className="sync-item__actions">
              <Button isDisabled={item.state === 'sending'} onPress={() => void retry(item.id)}>
                <FormattedMessage id="sync.retry" />
              </Button>
              {item.state === 'needsAttention' ? <FixLink item={item} /> : null}
              <Button isDisabled={item.state === 'sending'} onPress={() => void askDiscard(item.id)}>
                <FormattedMessage id="sync.discard" />
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <Dialog
        role="alertdialog"
        title={intl.formatMessage({ id: 'sync.discardTitle' })}
        isOpen={ticket !== null}
        onOpenChange={(open) => {
          if (!open) setTicket(null);
        }}
      >
        {ticket ? (
          <>
            <p>
              <FormattedMessage
                id="sync.discardText"
                values={{
                  kind: intl.formatMessage({ id: `sync.kind.${ticket.kind}` }),
                  age: age(ticket.createdAt),
                }}
              />
            </p>
            <div className="ui-dialog__actions">
              <Button onPress={() => setTicket(null)}>
                <FormattedMessage id="sync.cancel" />
              </Button>
              <Button variant="primary" onPress={() => void discard()}>
                <FormattedMessage id="sync.discardConfirm" />
              </Button>
            </div>
          </>
        ) : null}
      </Dialog>
    </section>
  );
}

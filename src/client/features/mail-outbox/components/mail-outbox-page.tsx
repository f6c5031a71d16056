/**
 * /config/mails (issue #28, #32 D.2): the mails the server wrote to its `.eml` outbox because no
 * mail server is set (SMTP_URL), newest first — a reset link, an invitation, a safe receipt —
 * and one opened: headers, the text part, the HTML part in a sandboxed frame (no script, no
 * form, nothing loaded from elsewhere: the page's CSP), and the attachments' names. Each open is
 * written to the audit log by the server. Right CONFIGURATION.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import type { OutboxEntry, OutboxMessageAnswer } from '../../../../contract/mail-outbox.ts';
import { displayInstant } from '../../../../contract/dates.ts';
import { Button } from '../../../ui/button.tsx';
import { cardClass } from '../../../ui/card.tsx';
import { Table } from '../../../ui/table.tsx';
import { mailOutboxQueries } from '../mail-outbox-queries.ts';
import './mail-outbox.css';

/** The /config/mails screen. */
export function MailOutboxPage() {
  const intl = useIntl();
  const list = useQuery(mailOutboxQueries.list());
  const [opened, setOpened] = useState<string | null>(null);
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  if (opened) return <OpenedMail name={opened} onBack={() => setOpened(null)} />;
  return (
    <div className="mo-page">
      <h1 className="mo-title">{t('mailOutbox.title')}</h1>
      {list.data ? (
        <p className="mo-muted" role="status">
          {list.data.mode === 'outbox'
            ? t('mailOutbox.modeOutbox', { folder: list.data.folder })
            : t('mailOutbox.modeSmtp')}
        </p>
      ) : null}
      {list.isError ? (
        <p className="mo-error" role="alert">
          {t('mailOutbox.loadFailed')}
        </p>
      ) : !list.data ? (
        <p className="mo-muted">{t('mailOutbox.loading')}</p>
      ) : (
        <Table
          label={t('mailOutbox.list')}
          className={cardClass}
          empty={t('mailOutbox.empty')}
          columns={[
            { key: 'date', label: t('mailOutbox.date') },
            { key: 'to', label: t('mailOutbox.to') },
            { key: 'subject', label: t('mailOutbox.subject'), isRowHeader: true },
            { key: 'open', label: t('mailOutbox.actions') },
          ]}
          rows={list.data.mails.map((m) => ({ id: m.name, cells: entryCells(m, t, setOpened) }))}
        />
      )}
    </div>
  );
}

function entryCells(
  m: OutboxEntry,
  t: (id: string, values?: Record<string, string>) => string,
  open: (name: string) => void,
) {
  const { date, time } = displayInstant(m.date);
  return {
    date: `${date} ${time}`,
    to: m.to.join(', '),
    subject: m.subject,
    open: (
      <Button onPress={() => open(m.name)} aria-label={t('mailOutbox.openOne', { subject: m.subject })}>
        {t('mailOutbox.open')}
      </Button>
    ),
  };
}

/** One mail, fetched when opened (the server logs the open). */
function OpenedMail({ name, onBack }: { name: string; onBack: () => void }) {
  const intl = useIntl();
  const mail = useQuery(mailOutboxQueries.message(name));
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <div className="mo-page">
      <Button onPress={onBack}>{t('mailOutbox.back')}</Button>
      {mail.isError ? (
        <p className="mo-error" role="alert">
          {t('mailOutbox.loadFailed')}
        </p>
      ) : !mail.data ? (
        <p className="mo-muted">{t('mailOutbox.loading')}</p>
      ) : (
        <MailView mail={mail.data} />
      )}
    </div>
  );
}

function MailView({ mail }: { mail: OutboxMessageAnswer }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { date, time } = displayInstant(mail.date);
  return (
    <article className={`${cardClass} mo-mail`} aria-labelledby="mo-subject">
      <h1 id="mo-subject" className="mo-title">
        {mail.subject}
      </h1>
      <dl className="mo-headers">
        <dt>{t('mailOutbox.from')}</dt>
        <dd>{mail.from}</dd>
        <dt>{t('mailOutbox.to')}</dt>
        <dd>{mail.to.join(', ')}</dd>
        <dt>{t('mailOutbox.date')}</dt>
        <dd>{`${date} ${time}`}</dd>
      </dl>
      {mail.html ? (
        <section aria-label={t('mailOutbox.html')}>
          <h2>{t('mailOutbox.html')}</h2>
          {/* sandbox="": no script, no form, no navigation of this page; the CSP blocks remote content. */}
          <iframe className="mo-html" sandbox="" srcDoc={mail.html} title={t('mailOutbox.html')} />
        </section>
      ) : null}
      <section aria-label={t('mailOutbox.text')}>
        <h2>{t('mailOutbox.text')}</h2>
        <pre className="mo-text">{mail.text}</pre>
      </section>
      <section aria-label={t('mailOutbox.attachments')}>
        <h2>{t('mailOutbox.attachments')}</h2>
        {mail.attachments.length === 0 ? (
          <p className="mo-muted">{t('mailOutbox.noAttachments')}</p>
        ) : (
          <ul>
            {mail.attachments.map((a) => (
              <li key={a.filename}>{`${a.filename} (${a.contentType}, ${Math.ceil(a.bytes / 1024)} KiB)`}</li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

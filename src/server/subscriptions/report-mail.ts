/**
 * The e-mail of one subscription run to one recipient (issue #28), in the recipient's language:
 * subject, HTML and text parts rendered from one React tree (@react-email/components, built with
 * React.createElement: the server runs .ts without a JSX transform), the period and the sites,
 * the files attached — or, above the size limit, links to download them that expire — and the
 * unsubscribe link (RFC 8058 one-click headers beside it).
 */
import { createElement as h } from 'react';
import { wireToDisplay } from '../../contract/dates.ts';
import type { Language } from '../../contract/reports.ts';
import { message } from '../i18n.ts';
import { type ReactEmail, reactEmail } from '../mail/react-email.ts';
import type { MailMessage } from '../mail/transport.ts';

/** One report file of the run, in one language. */
export interface ReportFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** What the mail says. Dates are wire dates; `expiresAt` is when the download links stop. */
export interface ReportMailContent {
  language: Language;
  libelle: string;
  dateDebut: string;
  dateFin: string;
  /** Names of the sites covered. */
  sites: string[];
  /** The files; empty when there is no data (and the subscription sends anyway). */
  files: ReportFile[];
  /** When set, the files are too large to attach: a link for each, same order as `files`. */
  downloads: { links: string[]; expiresAt: Date } | null;
  unsubscribeUrl: string;
}

const page = { backgroundColor: '#f6f6f6', fontFamily: 'Arial, Helvetica, sans-serif' };
const card = { backgroundColor: '#ffffff', padding: '24px', maxWidth: '560px' };
const button = { backgroundColor: '#1f4e79', color: '#ffffff', padding: '10px 16px', borderRadius: '4px' };

/** The period as the mail shows it: one date, or "from … to …". */
function periodText(c: ReportMailContent): string {
  return c.dateDebut === c.dateFin
    ? wireToDisplay(c.dateDebut)
    : message(c.language, 'subscriptions.mail.range', {
        debut: wireToDisplay(c.dateDebut),
        fin: wireToDisplay(c.dateFin),
      });
}

/** The files part: attached, links, or "nothing for this period". */
function filesPart(e: ReactEmail, c: ReportMailContent) {
  const { Button, Section, Text } = e;
  const t = (id: string, values?: Record<string, string>) => message(c.language, id, values);
  if (c.files.length === 0) return h(Text, null, t('subscriptions.mail.empty'));
  if (!c.downloads)
    return h(
      Text,
      null,
      t('subscriptions.mail.attached', { fichiers: c.files.map((f) => f.filename).join(', ') }),
    );
  const { links, expiresAt } = c.downloads;
  return h(
    Section,
    null,
    h(
      Text,
      null,
      t('subscriptions.mail.tooLarge', {
        date: expiresAt.toISOString().slice(0, 10).split('-').reverse().join('/'),
      }),
    ),
    ...c.files.map((f, i) =>
      h(
        Button,
        { key: f.filename, href: links[i], style: { ...button, margin: '4px 0' } },
        t('subscriptions.mail.download', { nom: f.filename }),
      ),
    ),
  );
}

/** The React tree of the mail. */
function reportMail(e: ReactEmail, c: ReportMailContent) {
  const { Body, Container, Head, Heading, Hr, Html, Link, Preview, Text } = e;
  const t = (id: string, values?: Record<string, string>) => message(c.language, id, values);
  const period = periodText(c);
  return h(
    Html,
    { lang: c.language },
    h(Head, null),
    h(Preview, null, `${c.libelle} — ${period}`),
    h(
      Body,
      { style: page },
      h(
        Container,
        { style: card },
        h(Heading, { as: 'h2' }, c.libelle),
        h(Text, null, t('subscriptions.mail.period', { periode: period })),
        h(Text, null, t('subscriptions.mail.sites', { sites: c.sites.join(', ') })),
        filesPart(e, c),
        h(Hr, null),
        h(
          Link,
          { href: c.unsubscribeUrl, style: { fontSize: '12px', color: '#555555' } },
          t('subscriptions.mail.unsubscribe'),
        ),
      ),
    ),
  );
}

/**
 * The message for `to` (attachments only when `downloads` is null), with the one-click
 * unsubscribe headers (RFC 2369 `List-Unsubscribe`, RFC 8058 `List-Unsubscribe-Post`).
 * @param messageId stable id of this mail (the same on a retried run).
 */
export async function reportMailMessage(
  to: string,
  c: ReportMailContent,
  messageId: string,
): Promise<MailMessage> {
  const e = await reactEmail();
  const html = await e.render(reportMail(e, c));
  return {
    to: [to],
    messageId,
    subject: message(c.language, 'subscriptions.mail.subject', {
      libelle: c.libelle,
      periode: periodText(c),
    }),
    html,
    text: e.toPlainText(html),
    headers: {
      'List-Unsubscribe': `<${c.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...(c.downloads || c.files.length === 0
      ? {}
      : {
          attachments: c.files.map((f) => ({
            filename: f.filename,
            content: f.content,
            contentType: f.contentType,
          })),
        }),
  };
}

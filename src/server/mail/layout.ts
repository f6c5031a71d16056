/**
 * The one layout of the app's HTML mails (issue #28), rendered with React Email
 * (`@react-email/components`, `@react-email/render`): a title, paragraphs, an optional button and
 * a footer, in a narrow column that mail programs show alike. Node runs this file by type
 * stripping, which does not transform JSX: elements are built with `React.createElement` (`h`).
 * Every mail keeps its text part (the HTML is its alternative, never its only form).
 */
import { createElement as h, type ReactNode } from 'react';
import { type ReactEmail, reactEmail } from './react-email.ts';

/** A link shown as a button. */
export interface MailButton {
  label: string;
  url: string;
}

/**
 * What a mail says: `language` (BCP 47, e.g. `fr`), `title`, its blocks in order (a paragraph of
 * text, or a link shown as a button), an optional footer line.
 */
export interface MailContent {
  language: string;
  title: string;
  blocks: readonly (string | MailButton)[];
  footer?: string;
}

const BODY = {
  backgroundColor: '#f4f4f5',
  fontFamily: 'Helvetica, Arial, sans-serif',
  margin: 0,
  padding: '24px 0',
};
const CONTAINER = { backgroundColor: '#ffffff', maxWidth: '560px', padding: '24px', borderRadius: '8px' };
const TEXT = { color: '#18181b', fontSize: '15px', lineHeight: '22px', whiteSpace: 'pre-line' as const };
const BUTTON = {
  backgroundColor: '#1d4ed8',
  color: '#ffffff',
  padding: '12px 20px',
  borderRadius: '6px',
  fontWeight: 600,
  textDecoration: 'none',
};
const FOOTER = { color: '#71717a', fontSize: '12px' };

/** The mail of `content` as React elements (the shared layout), with React Email's components `e`. */
function mailLayout(e: ReactEmail, content: MailContent): ReactNode {
  const { Body, Button, Container, Head, Heading, Hr, Html, Preview, Text } = e;
  const parts: ReactNode[] = [
    h(Heading, { key: 'title', as: 'h1', style: { fontSize: '20px' } }, content.title),
  ];
  content.blocks.forEach((b, i) => {
    parts.push(
      typeof b === 'string'
        ? h(Text, { key: `b${i}`, style: TEXT }, b)
        : h(Button, { key: `b${i}`, href: b.url, style: BUTTON }, b.label),
    );
  });
  if (content.footer) {
    parts.push(h(Hr, { key: 'hr' }), h(Text, { key: 'footer', style: FOOTER }, content.footer));
  }
  return h(
    Html,
    { lang: content.language },
    h(Head, null),
    h(Preview, null, content.blocks.find((b) => typeof b === 'string') ?? content.title),
    h(Body, { style: BODY }, h(Container, { style: CONTAINER }, ...parts)),
  );
}

/** The HTML of `content` in the shared layout. */
export async function renderMailHtml(content: MailContent): Promise<string> {
  const e = await reactEmail();
  return e.render(mailLayout(e, content));
}

const URL_ONLY = /^https?:\/\/\S+$/;

/**
 * The HTML alternative of a plain-text mail: its paragraphs (blank-line separated) in the shared
 * layout, each line that is only a link becoming a button `linkLabel` at its place.
 */
export function htmlOfText(
  language: string,
  subject: string,
  text: string,
  linkLabel: string,
): Promise<string> {
  const blocks: (string | MailButton)[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    let lines: string[] = [];
    const flush = () => {
      if (lines.join('').trim()) blocks.push(lines.join('\n').trim());
      lines = [];
    };
    for (const line of paragraph.split('\n')) {
      if (!URL_ONLY.test(line.trim())) {
        lines.push(line);
        continue;
      }
      flush();
      blocks.push({ label: linkLabel, url: line.trim() });
    }
    flush();
  }
  return renderMailHtml({ language, title: subject, blocks });
}

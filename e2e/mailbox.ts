/**
 * A real SMTP server for the e2e specs that need mail (issue #18: reset links): it listens on the
 * port of SMTP_URL, which playwright.config.ts sets for the e2e server and the workers alike, and
 * keeps every mail it receives, parsed, in arrival order.
 */
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The mails received so far and the server receiving them; {@link openMailbox} starts it. */
export interface Mailbox {
  received: ParsedMail[];
  /**
   * The first mail to `to` (an address) that arrives after `before` mails. Mails to others are
   * passed over: the demo chain's scheduled mails (report e-mails, the FEC recurrence) may reach
   * whichever spec's mailbox listens at their minute.
   * @throws when no such mail comes within 15 s.
   */
  nextMail(before: number, to: string): Promise<ParsedMail>;
  /**
   * The first link of the next mail to `to` after `before` mails ({@link nextMail}), as the server
   * wrote it. @throws when no such mail comes within 15 s or the mail holds no link.
   */
  nextLink(before: number, to: string): Promise<URL>;
  close(): Promise<void>;
}

/** Port of SMTP_URL, the server the e2e server mails to. */
function smtpPort(): number {
  const url = process.env.SMTP_URL;
  if (!url)
    throw new Error('SMTP_URL is unset: playwright.config.ts sets it for the e2e server and the specs.');
  return Number(new URL(url).port || 25);
}

/** True when `mail` is addressed to `address` (To, case-insensitive). */
function addressedTo(mail: ParsedMail, address: string): boolean {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.some((a) => a.value.some((v) => v.address?.toLowerCase() === address.toLowerCase()));
}

async function nextMailTo(received: ParsedMail[], before: number, to: string): Promise<ParsedMail> {
  const find = () => received.slice(before).find((m) => addressedTo(m, to));
  await expect.poll(() => find() !== undefined, { timeout: 15_000, message: `a mail to ${to}` }).toBe(true);
  return find()!;
}

/** Starts the SMTP server on SMTP_URL's port (127.0.0.1, no TLS, no authentication). */
export async function openMailbox(): Promise<Mailbox> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(smtpPort(), '127.0.0.1', resolve);
  });
  expect((server.server.address() as AddressInfo).port).toBe(smtpPort());
  return {
    received,
    async nextMail(before, to) {
      return nextMailTo(received, before, to);
    },
    async nextLink(before, to) {
      const text = (await nextMailTo(received, before, to)).text ?? '';
      const match = /https?:\/\/\S+/.exec(text);
      if (!match) throw new Error(`no link in the mail: ${text}`);
      return new URL(match[0]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A real SMTP server for tests that mail (smtp-server, no TLS, no authentication, on 127.0.0.1):
 * it keeps every message it accepts, parsed by mailparser, in arrival order. The app under test
 * mails through it with `config.smtpUrl: mailbox.url`.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The server, its address and what it received. */
export interface TestMailbox {
  /** `smtp://127.0.0.1:<port>`, for the app's `smtpUrl`. */
  url: string;
  /** Every message accepted so far, in order; empty it with `received.length = 0`. */
  received: ParsedMail[];
  close(): Promise<void>;
}

/** Starts the SMTP server on `port` (0: any free port). Rejects when it cannot listen. */
export async function openTestMailbox(port = 0): Promise<TestMailbox> {
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
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A real SMTP server for tests that mail (smtp-server, no TLS, no authentication, on 127.0.0.1):
 * it keeps every message it accepts, parsed by mailparser, in arrival order. The app under test
 * mails through it with `config.smtpUrl: mailbox.url`. A test of a mail server failing makes it
 * refuse messages (550, as a real server refusing a mailbox) with {@link TestMailbox.refuse}.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The server, its address and what it received. */
export interface TestMailbox {
  /** `smtp://127.0.0.1:<port>`, for the app's `smtpUrl`. */
  url: string;
  /** Every message accepted so far, in order; empty it with `received.length = 0` or {@link reset}. */
  received: ParsedMail[];
  /**
   * From now on refuse with SMTP 550 every message (`true`), the messages to any of the given
   * addresses (the others accepted), or none (`false`, as at the start). A refused message is
   * not in `received`.
   */
  refuse(what: boolean | Iterable<string>): void;
  /** Forgets what was received and accepts every message again. */
  reset(): void;
  close(): Promise<void>;
}

/** The error smtp-server answers with 550: the mailbox refuses the message. */
function mailboxUnavailable(): Error {
  return Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
}

/** Starts the SMTP server on `port` (0: any free port). Rejects when it cannot listen. */
export async function openTestMailbox(port = 0): Promise<TestMailbox> {
  const received: ParsedMail[] = [];
  /** true: refuse all; a set: refuse the messages to any of these addresses. */
  let refusing: boolean | Set<string> = false;
  const refused = (recipients: readonly { address: string }[]): boolean => {
    const rule = refusing;
    return rule === true || (rule instanceof Set && recipients.some((r) => rule.has(r.address)));
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (refused(session.envelope.rcptTo)) return callback(mailboxUnavailable());
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
    refuse(what) {
      refusing = typeof what === 'boolean' ? what : new Set(what);
    },
    reset() {
      received.length = 0;
      refusing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

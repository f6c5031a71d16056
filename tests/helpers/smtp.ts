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

/**
 * Waits until `mailbox` holds at least `count` messages (mails leave from the job queue after the
 * request answered); throws after `timeoutMs`. Polls every 50 ms.
 */
export async function waitForMail(mailbox: Pick<TestMailbox, 'received'>, count: number, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (mailbox.received.length < count) {
    if (Date.now() > end) throw new Error(`waited for ${count} mails, got ${mailbox.received.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until the job queue of the database `pool` holds no mail still to try (no `mail.send` run
 * queued or running): after it, a test may assert that no further mail arrives.
 */
export async function waitForMailQueue(pool: { query: (text: string) => Promise<{ rows: unknown[] }> }) {
  const end = Date.now() + 15_000;
  for (;;) {
    const { rows } = await pool.query(
      `SELECT 1 FROM job_runs WHERE kind = 'mail.send' AND status IN ('queued', 'running') LIMIT 1`,
    );
    if (rows.length === 0) return;
    if (Date.now() > end) throw new Error('mails still queued');
    await new Promise((r) => setTimeout(r, 50));
  }
}

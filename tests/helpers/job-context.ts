import os from 'node:os';
/**
 * A job context (src/server/jobs/contract.ts) for tests of jobs before the queue runs them: its
 * `queueMail` sends at once through the app's real mailer (mail/transport.ts createMailer) to the
 * test SMTP server (tests/helpers/smtp.ts), at most once per key and recipients, as the queue
 * promises; the keys and recorded files are kept for the test to read.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { JobContext } from '../../src/server/jobs/contract.ts';
import { createMailer } from '../../src/server/mail/transport.ts';
import type { TestMailbox } from './smtp.ts';

/** The context, the keys of the mails it queued and the files the run recorded. */
export type TestJobContext = JobContext & {
  keys: Set<string>;
  files: { name: string; bytes: number; path?: string }[];
  close(): void;
};

/** A context for a run planned at `plannedAt` whose clock reads `now` (default `plannedAt`). */
export function testJobContext(
  pool: pg.Pool,
  mailbox: TestMailbox,
  plannedAt: Date,
  now = plannedAt,
): TestJobContext {
  const mailer = createMailer({
    smtpUrl: mailbox.url,
    from: 'Comptoir <comptoir@test.invalid>',
    dataDir: os.tmpdir(),
  });
  const keys = new Set<string>();
  const files: TestJobContext['files'] = [];
  return {
    pool,
    runId: randomUUID(),
    plannedAt,
    attempt: 1,
    keys,
    files,
    async queueMail(message, key) {
      const once = `${key}|${[...message.to].sort().join(',')}`;
      if (keys.has(once)) return;
      await mailer.send(message);
      keys.add(once);
    },
    async recordFile(file) {
      files.push(file);
    },
    now: () => now,
    close: () => mailer.close(),
  };
}

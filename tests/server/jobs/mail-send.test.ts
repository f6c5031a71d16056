/**
 * The `mail.send` job (issue #28): a mail leaves at most once per key and recipients, even when
 * the instance sending it is killed (SIGKILL) after recording the send and before the SMTP server
 * answered; and a refused mail retries until the server takes it.
 */
import { fork } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../../src/server/jobs/queue.ts';
import { getRun, listRuns } from '../../../src/server/jobs/run-records.ts';
import { InterruptedSend, mailSendJob } from '../../../src/server/mail/mail-job.ts';
import { createMailer } from '../../../src/server/mail/transport.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/db.ts';
import { openTestMailbox, type TestMailbox } from '../../helpers/smtp.ts';
import { startQueue, waitUntil } from './queue-helpers.ts';

let database: TestDatabase;
let mailbox: TestMailbox;
let queue: JobQueue;
let mailer: ReturnType<typeof createMailer>;
/** An SMTP "server" that accepts connections and never says a word. */
let silent: net.Server;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  mailbox = await openTestMailbox();
  silent = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  mailer = createMailer({ smtpUrl: mailbox.url, from: 'Comptoir <c@example.com>', dataDir: '/nonexistent' });
  // Retries a second apart (doubling): the test lets the server take mail again between two tries.
  queue = await startQueue(database.pool, [{ ...mailSendJob(mailer), retryDelaySeconds: 1 }]);
}, 60_000);
afterAll(async () => {
  await queue?.stop();
  mailer?.close();
  for (const s of sockets) s.destroy();
  silent?.close();
  await mailbox?.close();
  await database?.close();
});

describe('the mail job', () => {
  it('a mail queued twice under one key leaves once', async () => {
    const message = { to: ['twice@example.com'], subject: 'Hello', text: 'Hello.' };
    expect(await queue.queueMail(message, 'hello-key')).toBe(true);
    expect(await queue.queueMail(message, 'hello-key')).toBe(false);
    await waitUntil(async () => mailbox.received.length === 1);
    const [run] = await listRuns(database.pool, { kind: 'mail.send', data: { key: 'hello-key' } });
    await waitUntil(async () => (await getRun(database.pool, run!.id))?.status === 'succeeded');
    expect(mailbox.received).toHaveLength(1);
    expect(mailbox.received[0]!.messageId).toMatch(/@comptoir\.idempotent>?$/);
    mailbox.reset();
  });

  it('a refused mail retries and leaves once the server takes it', async () => {
    mailbox.refuse(true);
    await queue.queueMail({ to: ['later@example.com'], subject: 'Later', text: 'Later.' }, 'refused-key');
    const [run] = await listRuns(database.pool, { kind: 'mail.send', data: { key: 'refused-key' } });
    await waitUntil(async () => (await getRun(database.pool, run!.id))?.status === 'retrying');
    mailbox.refuse(false);
    await waitUntil(async () => mailbox.received.length === 1);
    await waitUntil(async () => (await getRun(database.pool, run!.id))?.status === 'succeeded');
    expect((await getRun(database.pool, run!.id))!.attempts).toBeGreaterThanOrEqual(2);
    mailbox.reset();
  });

  it('a mail.send killed (SIGKILL) after recording the send is not sent again by the retry', async () => {
    const address = silent.address() as net.AddressInfo;
    const child = fork(
      path.join(path.dirname(fileURLToPath(import.meta.url)), 'mail-child.ts'),
      [JSON.stringify(database.connection), `smtp://127.0.0.1:${address.port}`],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await waitUntil(async () => {
      const { rows } = await database.pool.query(
        `SELECT 1 FROM job_mails WHERE key = 'kill-test' AND sending_at IS NOT NULL`,
      );
      return rows.length === 1;
    });
    child.kill('SIGKILL');
    await exited;
    // The retry pg-boss would start once the killed try expires, run here and now.
    const [run] = await listRuns(database.pool, { kind: 'mail.send', data: { key: 'kill-test' } });
    expect(run).toMatchObject({ status: 'running', attempts: 1 });
    await expect(queue.runNow(run!.id, 2, false)).rejects.toBeInstanceOf(InterruptedSend);
    expect(mailbox.received).toEqual([]);
    expect(await getRun(database.pool, run!.id)).toMatchObject({
      status: 'retrying',
      attempts: 2,
      error: expect.stringContaining('not sent again'),
    });
  }, 60_000);
});

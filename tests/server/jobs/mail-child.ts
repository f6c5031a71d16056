/**
 * Child process of mail-send.test.ts: a server instance's job queue that queues one mail and
 * sends it through `SMTP_URL` (a server that never answers, so the send hangs until the parent
 * kills this process with SIGKILL). Arguments: the pg connection (JSON), the SMTP URL.
 */
import pg from 'pg';
import { JobQueue } from '../../../src/server/jobs/queue.ts';
import { mailSendJob } from '../../../src/server/mail/mail-job.ts';
import { createMailer } from '../../../src/server/mail/transport.ts';

const [connection, smtpUrl] = process.argv.slice(2);
const pool = new pg.Pool({ ...JSON.parse(connection!), max: 4 });
const log = { info() {}, warn() {}, error() {} };
const queue = new JobQueue({ pool, work: true, log, pollSeconds: 0.5 });
queue.registerJob(
  mailSendJob(createMailer({ smtpUrl, from: 'Comptoir <c@example.com>', dataDir: '/nonexistent' })),
);
await queue.start();
await queue.queueMail({ to: ['once@example.com'], subject: 'Once', text: 'Only once.' }, 'kill-test');
process.send?.('queued');

/**
 * Child process of subscription-exactly-once.test.ts: a second server instance's job queue that
 * runs only `subscription.run` (its mails are queued for the parent's `mail.send` worker), until
 * the parent kills it with SIGKILL mid-run. Arguments: the database URL, the SMTP URL. Says
 * `ready` once its workers are polling.
 */
import { openDatabase } from '../../../src/server/db/connect.ts';
import { appJobs } from '../../../src/server/jobs/kinds.ts';
import { JobQueue } from '../../../src/server/jobs/queue.ts';
import { createMailer } from '../../../src/server/mail/transport.ts';

const [databaseUrl, smtpUrl] = process.argv.slice(2);
const database = await openDatabase({ databaseUrl, dataDir: '/nonexistent', poolSize: 4 });
const log = { info() {}, warn() {}, error() {} };
const queue = new JobQueue({
  pool: database.pool,
  work: true,
  log,
  pollSeconds: 0.5,
  workKinds: ['subscription.run'],
});
const kinds = appJobs(database.pool, {
  mailer: createMailer({ smtpUrl, from: 'Comptoir <c@example.com>', dataDir: '/nonexistent' }),
  editionsDays: 400,
  subscriptions: {
    database,
    distribution: 'Chaîne Test',
    linkBase: 'https://bo.example.test/api/recurrences',
  },
  log,
});
for (const job of kinds.jobs) queue.registerJob(job);
await queue.start();
process.send?.('ready');

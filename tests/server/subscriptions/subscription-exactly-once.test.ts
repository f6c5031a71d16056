/**
 * Report subscriptions are sent exactly once (issue #28): two instances of the job queue on one
 * database, 100 subscriptions due at the same minute (the clock driven with a given `now`, never
 * a real minute), each mailing a shared address and one of its own through the real SMTP server
 * of the tests: every list gets its 100 mails (one each for the own addresses), none twice, and
 * each run is queued once. Then an instance running the subscriptions (a forked child process)
 * is killed with SIGKILL while runs are in flight; the restarted instance finishes them (the
 * retries pg-boss starts when the killed tries expire, run here at once): 0 lost, 0 duplicated.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appJobs } from '../../../src/server/jobs/kinds.ts';
import { JobQueue } from '../../../src/server/jobs/queue.ts';
import { getRun } from '../../../src/server/jobs/run-records.ts';
import { createMailer, type Mailer } from '../../../src/server/mail/transport.ts';
import { dueSubscriptions } from '../../../src/server/subscriptions/due.ts';
import { SUBSCRIPTION_RUN } from '../../../src/server/subscriptions/run.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { openTestMailbox, type TestMailbox, waitForMail, waitForMailQueue } from '../../helpers/smtp.ts';
import { type Chain, seedChain } from '../fixtures.ts';
import { quietLog, waitUntil } from '../jobs/queue-helpers.ts';

const PUBLIC_URL = 'https://bo.example.test';
const PASSWORD = 'Secret-Password-1';
const SHARED = 'direction@example.com';
const COUNT = 100;
/** 06:00 in Paris on 3 March 2026 (yesterday, 2 March, has sales), and the next day. */
const FIRST = new Date('2026-03-03T05:00:00Z');
const SECOND = new Date('2026-03-04T05:00:00Z');

let t: TestApp;
let mailbox: TestMailbox;
let chain: Chain;
let mailer: Mailer;
const queues: JobQueue[] = [];
let child: ChildProcess | null = null;

/** A queue as another server instance starts it: the app's kinds and sources, working `workKinds`. */
async function instance(workKinds?: string[]): Promise<JobQueue> {
  const queue = new JobQueue({
    pool: t.database.pool,
    work: true,
    log: quietLog,
    pollSeconds: 0.5,
    ...(workKinds ? { workKinds } : {}),
  });
  const kinds = appJobs(t.database.pool, {
    mailer,
    editionsDays: 400,
    subscriptions: {
      database: t.database,
      distribution: 'Chaîne Test',
      linkBase: `${PUBLIC_URL}/api/recurrences`,
    },
    log: quietLog,
  });
  for (const job of kinds.jobs) queue.registerJob(job);
  for (const source of kinds.sources) queue.registerDueSource(source);
  await queue.start();
  queues.push(queue);
  return queue;
}

beforeAll(async () => {
  mailbox = await openTestMailbox();
  // The app serves HTTP and queues, and runs no job: the instances below do.
  t = await createTestApp({ config: { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL, jobs: false } });
  mailer = createMailer({ smtpUrl: mailbox.url, from: 'Comptoir <c@example.com>', dataDir: '/nonexistent' });
  chain = await seedChain(t.database.pool);
  const owner = await t.createUser({
    login: 'responsable',
    password: PASSWORD,
    droits: ['RAPPORTS'],
    restaurantIds: [chain.sites.paris, chain.sites.lyon, chain.sites.nantes],
  });
  const auth = await t.signIn('responsable', PASSWORD);
  const post = async (what: string, payload: object) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bo/recurrences/${what}/save?id=${owner}`,
      headers: auth,
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: number }>().id;
  };
  const regleId = await post('regles', {
    libelle: 'Tous les jours à 6 h',
    type: 'DAILY',
    heure: 6,
    minute: 0,
  });
  const shared = await post('destinataires', { email: SHARED, langue: 'fr' });
  const first = await post('abonnements', {
    libelle: 'Ventes 1',
    rapport: { lSites: [chain.sites.paris, chain.sites.lyon, chain.sites.nantes], periode: 'D-1' },
    formats: ['CSV'],
    regleId,
    destinataires: [shared],
    siDonnees: false,
  });
  // 99 more like it, then each subscription's own recipient.
  const { pool } = t.database;
  await pool.query(
    `INSERT INTO report_subscriptions (owner_id, libelle, rule_id, report, formats, only_with_data)
     SELECT owner_id, 'Ventes ' || g, rule_id, report, formats, only_with_data
       FROM report_subscriptions, generate_series(2, $2::int) g WHERE id = $1`,
    [first, COUNT],
  );
  await pool.query(
    `INSERT INTO report_subscription_recipients (subscription_id, recipient_id)
     SELECT id, $1 FROM report_subscriptions WHERE id <> $2`,
    [shared, first],
  );
  await pool.query(
    `WITH r AS (INSERT INTO report_recipients (owner_id, email, language)
                SELECT owner_id, 'abonnement' || id || '@example.com', 'fr' FROM report_subscriptions
                RETURNING id, email)
     INSERT INTO report_subscription_recipients (subscription_id, recipient_id)
     SELECT substring(r.email from 'abonnement(\\d+)@')::int, r.id FROM r`,
  );
}, 60_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  for (const q of queues) await q.stop();
  mailer?.close();
  await t?.close();
  await mailbox?.close();
});

/** How many `subscription.run` runs planned at `at` there are (with `status`, when given). */
async function runsAt(at: Date, status?: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM job_runs
      WHERE kind = $1 AND planned_at = $2 AND ($3::text IS NULL OR status = $3)`,
    [SUBSCRIPTION_RUN, at, status ?? null],
  );
  return rows[0]!.n;
}

/** The mails received for the run of `day` (the subject's date), by recipient address. */
function mailsOf(day: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of mailbox.received.filter((m) => m.subject?.endsWith(day))) {
    const to = (mail.to as { text: string }).text;
    counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

/** Every list got its mails once: 100 for the shared address, one for each own address. */
function expectOnceEach(day: string) {
  const counts = mailsOf(day);
  expect(counts.get(SHARED)).toBe(COUNT);
  const own = [...counts].filter(([to]) => to !== SHARED);
  expect(own).toHaveLength(COUNT);
  expect(own.filter(([, n]) => n !== 1)).toEqual([]);
  const ids = mailbox.received.filter((m) => m.subject?.endsWith(day)).map((m) => m.messageId);
  expect(new Set(ids).size).toBe(2 * COUNT);
}

describe('report subscriptions on two instances', () => {
  it('100 subscriptions due at one minute: each run queued once, each mail sent once', async () => {
    const [a, b] = [await instance(), await instance()];
    // Both clocks tick the same minute at once, and again a little later.
    const now = new Date(FIRST.getTime() + 20_000);
    await Promise.all([a!.tick(now), b!.tick(now)]);
    expect(await runsAt(FIRST)).toBe(COUNT);
    expect(await Promise.all([a!.tick(now), b!.tick(new Date(now.getTime() + 5_000))])).toEqual([0, 0]);
    // The due items asked again and queued by hand: the singleton keys queue nothing twice.
    const due = await dueSubscriptions(t.database.pool, new Date(FIRST.getTime() - 60_000), FIRST);
    expect(due).toHaveLength(COUNT);
    for (const item of due) {
      expect(
        await b!.enqueue(item.kind, item.data, {
          singletonKey: item.singletonKey,
          plannedAt: item.plannedAt,
        }),
      ).toBeNull();
    }
    await waitUntil(async () => (await runsAt(FIRST, 'succeeded')) === COUNT, 120_000);
    await waitForMail(mailbox, 2 * COUNT, 60_000);
    await waitForMailQueue(t.database.pool);
    expect(await runsAt(FIRST, 'succeeded')).toBe(COUNT);
    expectOnceEach('02/03/2026');
    expect(mailbox.received).toHaveLength(2 * COUNT);
    for (const q of queues.splice(0)) await q.stop();
  }, 180_000);

  it('an instance killed (SIGKILL) mid-run: the restarted one finishes, 0 lost, 0 duplicated', async () => {
    mailbox.reset();
    // This instance sends the mails; the child runs the subscriptions.
    await instance(['mail.send']);
    child = fork(
      path.join(path.dirname(fileURLToPath(import.meta.url)), 'subscription-child.ts'),
      [t.database.url, mailbox.url],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child!.on('exit', resolve));
    await new Promise((resolve) => child!.once('message', resolve));
    await t.app.jobs.tick(new Date(SECOND.getTime() + 10_000));
    expect(await runsAt(SECOND)).toBe(COUNT);
    await waitUntil(
      async () => (await runsAt(SECOND, 'succeeded')) >= 10 && (await runsAt(SECOND, 'running')) >= 1,
      60_000,
    );
    child.kill('SIGKILL');
    await exited;
    child = null;
    // The tries the dead instance held: pg-boss retries them once they expire; here, at once.
    const { rows: held } = await t.database.pool.query<{ runId: string }>(
      `SELECT data->>'runId' AS "runId" FROM pgboss.job WHERE name = $1 AND state = 'active'`,
      [SUBSCRIPTION_RUN],
    );
    const done = await runsAt(SECOND, 'succeeded');
    expect(held.length).toBeGreaterThanOrEqual(1);
    expect(done).toBeLessThan(COUNT);
    const restarted = await instance(['subscription.run']);
    for (const { runId } of held) {
      const run = (await getRun(t.database.pool, runId))!;
      await restarted.runNow(runId, run.attempts + 1, false);
    }
    await waitUntil(async () => (await runsAt(SECOND, 'succeeded')) === COUNT, 120_000);
    await waitForMail(mailbox, 2 * COUNT, 60_000);
    await waitForMailQueue(t.database.pool);
    expectOnceEach('03/03/2026');
    expect(mailbox.received).toHaveLength(2 * COUNT);
  }, 180_000);
});

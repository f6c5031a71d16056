/**
 * The app's own recurring jobs on the queue (jobs/kinds.ts, issue #28): the report-history
 * clean-up is due once a day for the whole chain, whichever instance's clock asks; the forecast
 * warm-up once a minute. Time is driven by calling the clock with chosen instants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../../../src/contract/api.ts';
import { listRuns } from '../../../src/server/jobs/run-records.ts';
import { JobQueue } from '../../../src/server/jobs/queue.ts';
import { appJobs } from '../../../src/server/jobs/kinds.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { quietLog, runsWith, waitUntil } from './queue-helpers.ts';

let t: TestApp;
/** A second instance's queue on the same database (as a second server would start it). */
let other: JobQueue;

beforeAll(async () => {
  t = await createTestApp({ config: { editionsDays: 400 } });
  other = new JobQueue({ pool: t.database.pool, work: false, log: quietLog });
  const kinds = appJobs(t.database.pool, {
    mailer: t.app.mailer,
    editionsDays: 400,
    subscriptions: {
      database: t.database,
      distribution: 'Test',
      linkBase: 'https://bo.example.test/api/recurrences',
    },
    log: quietLog,
  });
  for (const job of kinds.jobs) other.registerJob(job);
  for (const source of kinds.sources) other.registerDueSource(source);
  await other.start();
}, 60_000);
afterAll(async () => {
  await other?.stop();
  await t?.close();
});

/** `hour`:`minute` (server time) on 7 December 2026. */
function at(hour: number, minute: number): Date {
  return new Date(2026, 11, 7, hour, minute, 20);
}

describe("the app's recurring jobs", () => {
  it('deletes old report editions once a day for the chain, however many instances tick', async () => {
    const { pool } = t.database;
    const userId = await t.createUser({ login: 'gerant', password: 'Comptoir-2026!', droits: ['RAPPORTS'] });
    await pool.query(
      `INSERT INTO report_editions (user_id, login, class_name, variant, format, language, date_debut, date_fin,
                                    site_ids, request, status, generated_at)
       SELECT $1, 'gerant', 'RapportTickets', 'Daily', 'JSON', 'fr', '2025-01-01', '2025-01-01', '{1}', '{}', 'OK',
              now() - make_interval(days => 400 + g)
         FROM generate_series(1, 3) g`,
      [userId],
    );
    await t.app.jobs.tick(at(3, 10));
    // Two instances at 03:17, then again a minute later: one clean-up.
    await Promise.all([t.app.jobs.tick(at(3, 17)), other.tick(at(3, 17))]);
    await other.tick(at(3, 18));
    const runs = await listRuns(pool, { kind: 'report.editions.clean' });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.plannedAt.getTime()).toBe(new Date(2026, 11, 7, 3, 17).getTime());
    await waitUntil(async () => (await runsWith(pool, 'report.editions.clean', 'succeeded')) === 1);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM report_editions');
    expect(rows[0].n).toBe(0);
    // The next day at 03:17, once more.
    await t.app.jobs.tick(new Date(2026, 11, 8, 3, 17, 5));
    expect(await listRuns(pool, { kind: 'report.editions.clean' })).toHaveLength(2);
  });

  it('queues the forecast warm-up once a minute, and once only after a stop', async () => {
    const before = (await listRuns(t.database.pool, { kind: 'forecast.warm', limit: 500 })).length;
    await t.app.jobs.tick(new Date(2026, 11, 8, 9, 0, 0));
    await other.tick(new Date(2026, 11, 8, 9, 0, 30));
    await t.app.jobs.tick(new Date(2026, 11, 8, 9, 1, 0));
    const after = await listRuns(t.database.pool, { kind: 'forecast.warm', limit: 500 });
    expect(after.length - before).toBe(2);
  });
});

describe('an instance with COMPTOIR_JOBS=0', () => {
  it('answers a request that mails and queues the mail, but runs no job', async () => {
    const httpOnly = await createTestApp({ config: { jobs: false } });
    try {
      const id = await httpOnly.createUser({
        login: 'marie',
        password: 'Comptoir-2026!',
        droits: ['RAPPORTS'],
      });
      await httpOnly.database.pool.query(`UPDATE users SET email = 'marie@example.com' WHERE id = $1`, [id]);
      const res = await httpOnly.app.inject({
        url: '/api/reinit/sendReinitMail?user=marie',
        headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      });
      expect(res.statusCode).toBe(200);
      const [run] = await listRuns(httpOnly.database.pool, { kind: 'mail.send' });
      expect(run).toMatchObject({ status: 'queued', attempts: 0 });
      // Still queued a moment later: nobody here runs it (a worker would have within a poll).
      await new Promise((r) => setTimeout(r, 2500));
      expect((await listRuns(httpOnly.database.pool, { kind: 'mail.send' }))[0]).toMatchObject({
        status: 'queued',
      });
    } finally {
      await httpOnly.close();
    }
  }, 60_000);
});

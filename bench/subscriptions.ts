/**
 * Report subscriptions on the job queue (issue #28): 1,000 subscriptions due at one minute on the
 * demo chain, sent through the `.eml` outbox (no SMTP_URL), by the app as `npm start` builds it
 * (its queue working, listening on HTTP). Measured, per run:
 * - `queueMs`: from queueing the 1,000 due runs (as the clock's tick queues them) to the last
 *   `.eml` written (its mtime), nothing else running, against `loopMs`: the same subscriptions
 *   run one after the other in this process without the queue (rendered, mail written to another
 *   outbox at once): the `ratio` (target ≤ 1.3);
 * - `peakRssMb`: the peak RSS of the process running the app during the burst, sampled every
 *   100 ms (target ≤ 500 MB; the app runs in the bench's process, so the bench's own small
 *   client is in it too);
 * - `httpP95Ms` of a month of sales (RapportVentes, JSON, every site) asked by 4 clients in a loop
 *   during a second burst (the next day's runs; `queueUnderHttpMs` its time to the last mail),
 *   against `idleP95Ms`, the same for 10 s without a burst.
 * Runs COMPTOIR_BENCH_SUBS_RUNS times (default 2), each on its own planned minute;
 * COMPTOIR_BENCH_SUBSCRIPTIONS (default 1000) and COMPTOIR_BENCH_SUBS_FORMAT (default CSV, or PDF
 * / XLSX) change the load. Each subscription: yesterday's sales of the area manager's three
 * brasseries, one recipient of its own. Never an assertion: the figures are reported.
 * `npm run bench` calls {@link benchSubscriptions} on its demo chain; alone: `node bench/subscriptions.ts`.
 */
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { quantileSorted } from 'simple-statistics';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../src/contract/api.ts';
import { buildApp } from '../src/server/app.ts';
import { hashPassword } from '../src/server/auth/users.ts';
import type { Database } from '../src/server/db/connect.ts';
import * as schema from '../src/server/db/schema.ts';
import { createMailer } from '../src/server/mail/transport.ts';
import { dueSubscriptions } from '../src/server/subscriptions/due.ts';
import { runSubscription, type SubscriptionRunOptions } from '../src/server/subscriptions/run.ts';
import { benchConfig } from './start-settings.ts';

const LOGIN = 'bench.abonnements';
const PASSWORD = 'Bench-Abonnements-2026!';
const OWNER = 'responsable.brasseries';
const MINUTE_MS = 60_000;

/** One run's figures (milliseconds, MB). */
export interface SubscriptionBenchRun {
  subscriptions: number;
  mails: number;
  queueMs: number;
  loopMs: number;
  ratio: number;
  peakRssMb: number;
  idleP95Ms: number;
  httpP95Ms: number;
  httpRequestsDuringBurst: number;
  /** The time to the last mail of the burst the HTTP clients ran during. */
  queueUnderHttpMs: number;
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

/** Polls `check` every 100 ms until true; throws after `timeoutMs`. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('bench/subscriptions: timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The `.eml` files of `dir` and the latest mtime among them (ms since the epoch). */
async function outbox(dir: string): Promise<{ count: number; lastMs: number }> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
  let lastMs = 0;
  for (const n of names) lastMs = Math.max(lastMs, (await fs.stat(path.join(dir, n))).mtimeMs);
  return { count: names.length, lastMs };
}

/** `clients` loops asking `url` until `stop()` answers true: the latencies (ms) of the 2xx answers. */
async function load(url: string, headers: Record<string, string>, clients: number, stop: () => boolean) {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stop()) {
        const t0 = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { p95: latencies.length ? quantileSorted(latencies, 0.95) : Number.NaN, count: latencies.length };
}

/** Creates the bench's user (RAPPORTS, every site) and `count` subscriptions of {@link OWNER}; their ids. */
async function seed(pool: pg.Pool, count: number, format: string): Promise<number[]> {
  const { rows: owner } = await pool.query<{ id: number }>('SELECT id FROM users WHERE login = $1', [OWNER]);
  if (!owner[0]) throw new Error(`bench/subscriptions: the demo chain has no ${OWNER}`);
  const ownerId = owner[0].id;
  const { rows: profile } = await pool.query<{ id: number }>(
    `INSERT INTO profiles (titre, droits, all_sites) VALUES ('Bench abonnements', '{RAPPORTS}', true)
     ON CONFLICT (titre) DO UPDATE SET titre = excluded.titre RETURNING id`,
  );
  await pool.query(
    `INSERT INTO users (login, password_hash, profile_id, language, currency) VALUES ($1, $2, $3, 'fr', 'EUR')
     ON CONFLICT (login) DO NOTHING`,
    [LOGIN, await hashPassword(PASSWORD), profile[0]!.id],
  );
  const { rows: rule } = await pool.query<{ id: number }>(
    `INSERT INTO report_rules (owner_id, libelle, type, hour, minute) VALUES ($1, 'Bench 06:00', 'DAILY', 6, 0) RETURNING id`,
    [ownerId],
  );
  const report = JSON.stringify({ rapportClassName: 'RapportVentes', periode: 'D-1' });
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO report_subscriptions (owner_id, libelle, rule_id, report, formats, only_with_data)
     SELECT $1, 'Bench ' || g, $2, $3::jsonb, ARRAY[$4], false FROM generate_series(1, $5::int) g RETURNING id`,
    [ownerId, rule[0]!.id, report, format, count],
  );
  await pool.query(
    `WITH r AS (INSERT INTO report_recipients (owner_id, email, language)
                SELECT $1, 'bench' || s || '@example.com', 'fr' FROM unnest($2::int[]) s RETURNING id, email)
     INSERT INTO report_subscription_recipients (subscription_id, recipient_id)
     SELECT substring(r.email from 'bench(\\d+)@')::int, r.id FROM r`,
    [ownerId, rows.map((r) => r.id)],
  );
  return rows.map((r) => r.id);
}

/**
 * Runs the bench on the demo chain of `demoPool` (see the module comment); the demo's own
 * subscriptions are paused meanwhile, and everything the bench adds is removed after.
 * @throws the app's or the database's error.
 */
export async function benchSubscriptions(
  demoPool: pg.Pool,
): Promise<{ name: string; runs: SubscriptionBenchRun[] }> {
  const count = Number(process.env.COMPTOIR_BENCH_SUBSCRIPTIONS ?? 1000);
  const format = process.env.COMPTOIR_BENCH_SUBS_FORMAT ?? 'CSV';
  const runCount = Number(process.env.COMPTOIR_BENCH_SUBS_RUNS ?? 2);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-subs-'));
  const pool = new pg.Pool({ ...demoPool.options, password: demoPool.options.password, max: 10 });
  pool.on('error', () => {});
  const database: Database = { pool, db: drizzle(pool, { schema }), close: async () => {} };
  const paused = await pool.query<{ id: number }>(
    'UPDATE report_subscriptions SET active = false WHERE active RETURNING id',
  );
  const ids = await seed(pool, count, format);
  const app = await buildApp({ config: { ...benchConfig(dir), jobs: true }, database });
  const runs: SubscriptionBenchRun[] = [];
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
    const basic = (secret: string) => `Basic ${Buffer.from(`${LOGIN}:${secret}`).toString('base64')}`;
    const signIn = await fetch(`${base}/bo/connexion?username=${LOGIN}`, {
      headers: { authorization: basic(PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
    });
    if (!signIn.ok) throw new Error(`sign-in refused: ${signIn.status} ${await signIn.text()}`);
    const { id: userId, token } = (await signIn.json()) as { id: number; token: string };
    const headers = { authorization: basic(token), [CLIENT_HEADER]: CLIENT_HEADER_VALUE };
    const { rows: last } = await pool.query<{ d: string }>(
      `SELECT to_char(max(fiscal_date), 'YYYY-MM-DD') AS d FROM daily_sales`,
    );
    const { rows: sites } = await pool.query<{ id: number }>('SELECT id FROM sites ORDER BY id');
    const end = new Date(`${last[0]!.d}T00:00:00Z`);
    const start = new Date(end.getTime() - 29 * 86_400_000);
    const url =
      `${base}/bo/getReport?id=${userId}&rapportClassName=RapportVentes&format=JSON&language=fr` +
      `&dateDebut=${start.toISOString().slice(0, 10)}&dateFin=${last[0]!.d}&${sites.map((s) => `sites[]=${s.id}`).join('&')}`;
    const options: SubscriptionRunOptions = {
      database,
      distribution: 'Comptoir',
      linkBase: 'http://127.0.0.1/api/recurrences',
    };
    const mailDir = path.join(dir, 'mail-outbox');
    /**
     * Queues the runs due at `planned` and waits for their last `.eml`; with `httpUrl`, 4 clients
     * ask it meanwhile. Answers the time to the last mail (from its mtime), the peak RSS, the HTTP figures.
     */
    const burst = async (planned: Date, httpUrl: string | null) => {
      const before = (await outbox(mailDir)).count;
      const due = (await dueSubscriptions(pool, new Date(planned.getTime() - MINUTE_MS), planned)).filter(
        (d) => ids.includes(d.data.subscriptionId),
      );
      let peakRss = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 100);
      let over = false;
      const during = httpUrl ? load(httpUrl, headers, 4, () => over) : null;
      const startedAt = Date.now();
      for (const item of due) {
        await app.jobs.enqueue(item.kind, item.data, {
          singletonKey: item.singletonKey,
          plannedAt: item.plannedAt,
        });
      }
      await until(async () => (await outbox(mailDir)).count >= before + due.length, 30 * 60_000);
      const { lastMs } = await outbox(mailDir);
      over = true;
      clearInterval(sampler);
      return { count: due.length, ms: lastMs - startedAt, peakRss, http: during ? await during : null };
    };
    for (let run = 0; run < runCount; run++) {
      // 06:00 in Paris on days ahead, two days apart per run: never the real clock's minute.
      const planned = new Date(Date.UTC(2030, 0, 7 + 2 * run, 5, 0));
      // Without the queue: the same runs one after the other, mails written at once.
      const loopDir = path.join(dir, `loop-${run}`);
      const mailer = createMailer({
        smtpUrl: undefined,
        from: 'Comptoir <bench@localhost>',
        dataDir: loopDir,
      });
      const t0 = performance.now();
      for (const subscriptionId of ids) {
        await runSubscription(
          options,
          { subscriptionId, plannedAt: planned.toISOString() },
          {
            pool,
            runId: `loop-${subscriptionId}`,
            plannedAt: planned,
            attempt: 1,
            queueMail: async (message) => {
              await mailer.send(message);
            },
            recordFile: async () => {},
            now: () => new Date(),
          },
        );
      }
      const loopMs = performance.now() - t0;
      mailer.close();
      // The burst alone: the due runs queued as the clock's tick queues them, through the app's queue.
      const quiet = await burst(planned, null);
      // HTTP without a burst, then during a second burst (a day later), as a user sees it.
      let stopIdle = false;
      const idle = load(url, headers, 4, () => stopIdle);
      await new Promise((r) => setTimeout(r, 10_000));
      stopIdle = true;
      const idleP95 = (await idle).p95;
      const loaded = await burst(new Date(planned.getTime() + 86_400_000), url);
      const result: SubscriptionBenchRun = {
        subscriptions: quiet.count,
        mails: quiet.count,
        queueMs: Math.round(quiet.ms),
        loopMs: Math.round(loopMs),
        ratio: Math.round((quiet.ms / loopMs) * 100) / 100,
        peakRssMb: mb(Math.max(quiet.peakRss, loaded.peakRss)),
        idleP95Ms: Math.round(idleP95),
        httpP95Ms: Math.round(loaded.http!.p95),
        httpRequestsDuringBurst: loaded.http!.count,
        queueUnderHttpMs: Math.round(loaded.ms),
      };
      console.log(`  run ${run + 1}: ${JSON.stringify(result)}`);
      runs.push(result);
    }
  } finally {
    await app.close();
    await pool.query('DELETE FROM report_subscriptions WHERE id = ANY($1)', [ids]);
    await pool.query(`DELETE FROM report_recipients WHERE email LIKE 'bench%@example.com'`);
    await pool.query(`DELETE FROM report_rules WHERE libelle = 'Bench 06:00'`);
    await pool.query('UPDATE report_subscriptions SET active = true WHERE id = ANY($1)', [
      paused.rows.map((r) => r.id),
    ]);
    await pool.end();
    await fs.rm(dir, { recursive: true, force: true });
  }
  return { name: `subscriptions: ${count} due at once (${format}) through the queue vs a loop`, runs };
}

/** Standalone: its own PostgreSQL and demo chain. */
async function main(): Promise<void> {
  const { migrateDatabase } = await import('../src/server/db/connect.ts');
  const { startEmbeddedPostgres } = await import('../src/server/db/embedded.ts');
  const { generateDemoChain } = await import('../src/server/demo/generate.ts');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-subs-pg-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(dir);
  try {
    const pool = new pg.Pool({ ...server.connection, max: 4 });
    pool.on('error', () => {});
    await migrateDatabase(pool);
    const demo = await generateDemoChain(pool, { seed: 20261122, now: new Date() });
    console.log(`demo chain: ${demo.sites} sites, ${demo.tickets} tickets`);
    await pool.query('VACUUM (ANALYZE)');
    console.log('• report subscriptions due at once through the queue vs a loop');
    console.log(JSON.stringify(await benchSubscriptions(pool)));
    await pool.end();
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await main();

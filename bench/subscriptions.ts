/**
 * Report subscriptions on the job queue (issue #28): 1,000 subscriptions due at one minute on the
 * demo chain, sent through the `.eml` outbox (no SMTP_URL), by the app as `npm start` builds it
 * (its queue working, listening on HTTP) in a process of its own, under `npm start`'s Node flags
 * (bench/start-settings.ts), as bench/load.ts measures the server. Measured, per run:
 * - `queueMs`: from queueing the 1,000 due runs in the server (as the clock's tick queues them) to
 *   the last `.eml` written (its mtime), nothing else running, against `loopMs`: the same
 *   subscriptions run one after the other without the queue (rendered, mail written to another
 *   outbox at once) in another process of the same flags, with the same report-site cache the
 *   server's runs have: the `ratio` (target ≤ 1.3);
 * - `peakRssMb`: the server process's peak RSS during the bursts (VmHWM of /proc/PID/status,
 *   reset by writing 5 to /proc/PID/clear_refs as the burst starts: its start-up is not counted;
 *   target ≤ 500 MB);
 * - where a run's time goes, from `job_runs` (decision record 0047): `runMs` and `mailMs`, the
 *   mean time a `subscription.run` and a `mail.send` ran (ended − started), and `mailWaitMs`, the
 *   mean time a mail waited between being queued and a worker taking it;
 * - `httpP95Ms` of a month of sales (RapportVentes, JSON, every site) asked by 4 clients of this
 *   process in a loop during a second burst (the next day's runs; `queueUnderHttpMs` its time to
 *   the last mail), against `idleP95Ms`, the same for 10 s without a burst.
 * Runs COMPTOIR_BENCH_SUBS_RUNS times (default 2), each on its own planned minute;
 * COMPTOIR_BENCH_SUBSCRIPTIONS (default 1000) and COMPTOIR_BENCH_SUBS_FORMAT (default CSV, or PDF
 * / XLSX) change the load. Each subscription: yesterday's sales of the area manager's three
 * brasseries, one recipient of its own. Never an assertion: the figures are reported.
 * `npm run bench` calls {@link benchSubscriptions} on its demo chain; alone: `node bench/subscriptions.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { quantileSorted } from 'simple-statistics';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../src/contract/api.ts';
import { buildApp } from '../src/server/app.ts';
import { hashPassword } from '../src/server/auth/users.ts';
import { ChangeFeed } from '../src/server/db/changes.ts';
import { openDatabase } from '../src/server/db/connect.ts';
import { createMailer } from '../src/server/mail/transport.ts';
import { releaseStartupMemory } from '../src/server/memory.ts';
import { API_PREFIX } from '../src/server/plugins/rights-guard.ts';
import { reportSiteCache } from '../src/server/reports/request.ts';
import { dueSubscriptions } from '../src/server/subscriptions/due.ts';
import { runSubscription, type SubscriptionRunOptions } from '../src/server/subscriptions/run.ts';
import { benchConfig, startSettings } from './start-settings.ts';

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
  /** The server process's peak RSS during the two bursts of the run (VmHWM since each burst began). */
  peakRssMb: number;
  /** Mean time (ended − started) of a `subscription.run`, of a `mail.send`, in the quiet burst. */
  runMs: number;
  mailMs: number;
  /** Mean time a mail of the quiet burst waited from queued to started. */
  mailWaitMs: number;
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

/** The `subscription.run` options a server built on `config` gives its runs (app.ts). */
function runOptions(
  database: Awaited<ReturnType<typeof openDatabase>>,
  dir: string,
): Omit<SubscriptionRunOptions, 'reportSites'> {
  const config = benchConfig(dir);
  return {
    database,
    distribution: config.distribution,
    linkBase: `${config.publicUrl}${API_PREFIX}/recurrences`,
  };
}

/** Peak resident memory of this process (VmHWM), in MB. */
async function peakRssMbOfSelf(): Promise<number> {
  const status = await fs.readFile('/proc/self/status', 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024);
}

/**
 * Server child (`--server URL DIR IDS`): the app as `npm start` builds it (queue working),
 * listening on a loopback port, which it prints as JSON. Then, per line on stdin:
 * `{"burst": ISO}` resets the peak RSS, queues the runs of subscriptions IDS due at that minute
 * as the clock's tick does, and prints `{ count, startedAt }`; `{"memory": true}` prints
 * `{ peakRssMb, rssMb }`. Exits when stdin ends.
 */
async function serverChild(databaseUrl: string, dir: string, ids: number[]): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir: dir });
  const app = await buildApp({ config: { ...benchConfig(dir), jobs: true }, database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  releaseStartupMemory();
  console.log(JSON.stringify({ port: (app.server.address() as AddressInfo).port }));
  const wanted = new Set(ids);
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as { burst?: string; memory?: boolean };
    if (command.burst) {
      await fs.writeFile('/proc/self/clear_refs', '5');
      const planned = new Date(command.burst);
      const startedAt = Date.now();
      const due = (
        await dueSubscriptions(database.pool, new Date(planned.getTime() - MINUTE_MS), planned)
      ).filter((d) => wanted.has(d.data.subscriptionId));
      for (const item of due)
        await app.jobs.enqueue(item.kind, item.data, {
          singletonKey: item.singletonKey,
          plannedAt: item.plannedAt,
        });
      console.log(JSON.stringify({ count: due.length, startedAt }));
    } else if (command.memory) {
      console.log(
        JSON.stringify({ peakRssMb: await peakRssMbOfSelf(), rssMb: mb(process.memoryUsage().rss) }),
      );
    }
  }
  await app.close();
  await database.close();
}

/**
 * Loop child (`--loop URL DIR IDS PLANNED`): the runs of subscriptions IDS planned at PLANNED one
 * after the other, without the queue, each mail written at once to the outbox under DIR; prints
 * `{ ms }`. The same report-site cache as the server's runs (app.ts gives its runs one).
 */
async function loopChild(databaseUrl: string, dir: string, ids: number[], plannedIso: string): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir: dir });
  const feed = new ChangeFeed(database.pool.options);
  await feed.start();
  const options: SubscriptionRunOptions = {
    ...runOptions(database, dir),
    reportSites: reportSiteCache(feed),
  };
  const mailer = createMailer({ smtpUrl: undefined, from: 'Comptoir <bench@localhost>', dataDir: dir });
  const planned = new Date(plannedIso);
  const t0 = performance.now();
  for (const subscriptionId of ids) {
    await runSubscription(
      options,
      { subscriptionId, plannedAt: planned.toISOString() },
      {
        pool: database.pool,
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
  console.log(JSON.stringify({ ms: performance.now() - t0 }));
  mailer.close();
  await feed.close();
  await database.close();
}

/** A child of this file in `mode`, under `npm start`'s Node flags and environment; its stdout lines as JSON. */
async function spawnChild(mode: string, args: string[]) {
  const start = await startSettings();
  const child: ChildProcess = spawn(process.execPath, [...start.flags, import.meta.filename, mode, ...args], {
    env: { ...start.env, ...process.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    child,
    async next<T>(): Promise<T> {
      const line = await lines.next();
      if (line.done) throw new Error(`bench/subscriptions: the ${mode} child ended early`);
      return JSON.parse(line.value) as T;
    },
    send(command: unknown) {
      child.stdin!.write(`${JSON.stringify(command)}\n`);
    },
    async end() {
      child.stdin!.end();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      child.kill();
    },
  };
}

/**
 * Mean of the `job_runs` durations of the runs of subscriptions `ids` planned at `planned` and of
 * their mails (see {@link SubscriptionBenchRun}).
 */
async function runTimes(pool: pg.Pool, planned: Date, ids: number[]) {
  const { rows } = await pool.query<{ runMs: number; mailMs: number; mailWaitMs: number }>(
    `WITH runs AS (SELECT * FROM job_runs WHERE kind = 'subscription.run' AND data->>'plannedAt' = $1
                      AND (data->>'subscriptionId')::int = ANY($2)),
          mails AS (SELECT * FROM job_runs WHERE kind = 'mail.send' AND data->>'key' LIKE $3
                      AND split_part(data->>'key', ':', 2)::int = ANY($2))
     SELECT (SELECT avg(extract(epoch FROM ended_at - started_at)) * 1000 FROM runs) AS "runMs",
            (SELECT avg(extract(epoch FROM ended_at - started_at)) * 1000 FROM mails) AS "mailMs",
            (SELECT avg(extract(epoch FROM started_at - queued_at)) * 1000 FROM mails) AS "mailWaitMs"`,
    [planned.toISOString(), ids, `subscription:%:${planned.toISOString()}:%`],
  );
  const r = rows[0]!;
  return {
    runMs: Math.round(Number(r.runMs)),
    mailMs: Math.round(Number(r.mailMs)),
    mailWaitMs: Math.round(Number(r.mailWaitMs)),
  };
}

/** The URL of `pool`'s database (embedded.ts's form: a socket folder percent-encoded as the host). */
function urlOf(options: pg.PoolConfig): string {
  const user = encodeURIComponent(options.user ?? 'postgres');
  const password = encodeURIComponent(String(options.password ?? ''));
  const host = encodeURIComponent(String(options.host ?? '127.0.0.1'));
  return `postgresql://${user}:${password}@${host}:${options.port ?? 5432}/${options.database ?? 'postgres'}`;
}

/**
 * Runs the bench on the demo chain of `demoPool` (see the module comment); the demo's own
 * subscriptions are paused meanwhile, and everything the bench adds is removed after.
 * @throws the app's or the database's error, or Error when a child process ends early.
 */
export async function benchSubscriptions(
  demoPool: pg.Pool,
): Promise<{ name: string; runs: SubscriptionBenchRun[] }> {
  const count = Number(process.env.COMPTOIR_BENCH_SUBSCRIPTIONS ?? 1000);
  const format = process.env.COMPTOIR_BENCH_SUBS_FORMAT ?? 'CSV';
  const runCount = Number(process.env.COMPTOIR_BENCH_SUBS_RUNS ?? 2);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-subs-'));
  const pool = new pg.Pool({ ...demoPool.options, password: demoPool.options.password, max: 4 });
  pool.on('error', () => {});
  const databaseUrl = urlOf({ ...demoPool.options, password: demoPool.options.password });
  const paused = await pool.query<{ id: number }>(
    'UPDATE report_subscriptions SET active = false WHERE active RETURNING id',
  );
  const ids = await seed(pool, count, format);
  const server = await spawnChild('--server', [databaseUrl, dir, ids.join(',')]);
  const runs: SubscriptionBenchRun[] = [];
  try {
    const { port } = await server.next<{ port: number }>();
    const base = `http://127.0.0.1:${port}/api`;
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
    const mailDir = path.join(dir, 'mail-outbox');
    /**
     * Queues the runs due at `planned` in the server and waits (polling the database from this
     * process) until their mails are sent; with `httpUrl`, 4 clients ask it meanwhile. Answers
     * the time to the last mail (from the last `.eml`'s mtime), the server's peak RSS, the HTTP figures.
     */
    const burst = async (planned: Date, httpUrl: string | null) => {
      let over = false;
      const during = httpUrl ? load(httpUrl, headers, 4, () => over) : null;
      server.send({ burst: planned.toISOString() });
      const queued = await server.next<{ count: number; startedAt: number }>();
      const pattern = `subscription:%:${planned.toISOString()}:%`;
      await until(async () => {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM job_mails
            WHERE key LIKE $1 AND split_part(key, ':', 2)::int = ANY($2) AND sent_at IS NOT NULL`,
          [pattern, ids],
        );
        return rows[0]!.n >= queued.count;
      }, 30 * 60_000);
      over = true;
      const { lastMs } = await outbox(mailDir);
      server.send({ memory: true });
      const memory = await server.next<{ peakRssMb: number; rssMb: number }>();
      return {
        count: queued.count,
        ms: lastMs - queued.startedAt,
        peakRssMb: memory.peakRssMb,
        http: during ? await during : null,
      };
    };
    for (let run = 0; run < runCount; run++) {
      // 06:00 in Paris on days ahead, two days apart per run: never the real clock's minute.
      const planned = new Date(Date.UTC(2030, 0, 7 + 2 * run, 5, 0));
      // Without the queue: the same runs one after the other, mails written at once, in a process of its own.
      const looper = await spawnChild('--loop', [
        databaseUrl,
        path.join(dir, `loop-${run}`),
        ids.join(','),
        planned.toISOString(),
      ]);
      const { ms: loopMs } = await looper.next<{ ms: number }>();
      await looper.end();
      // The burst alone: the due runs queued as the clock's tick queues them, through the server's queue.
      const quiet = await burst(planned, null);
      const times = await runTimes(pool, planned, ids);
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
        peakRssMb: Math.max(quiet.peakRssMb, loaded.peakRssMb),
        ...times,
        idleP95Ms: Math.round(idleP95),
        httpP95Ms: Math.round(loaded.http!.p95),
        httpRequestsDuringBurst: loaded.http!.count,
        queueUnderHttpMs: Math.round(loaded.ms),
      };
      console.log(`  run ${run + 1}: ${JSON.stringify(result)}`);
      runs.push(result);
    }
  } finally {
    await server.end();
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

if (process.argv[1] === import.meta.filename) {
  const [mode, url, dir, ids, planned] = process.argv.slice(2);
  const idList = (ids ?? '').split(',').map(Number);
  if (mode === '--server') await serverChild(url!, dir!, idList);
  else if (mode === '--loop') await loopChild(url!, dir!, idList, planned!);
  else await main();
}

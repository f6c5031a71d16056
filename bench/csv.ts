/**
 * Benchmark of issue #4 point 8 (CSV): a CSV of 1,000,000 lines streamed through the real app
 * with a peak memory under 200 MB "whatever the size" — measured as the peak resident memory
 * (VmHWM) of a child process running the app alone while this process downloads the CSV over
 * loopback HTTP, for a 100,000-line and a 1,000,000-line tickets report of the same database, in
 * the same run, under V8's defaults and under `npm start`'s flags and environment (decision
 * records 0006, 0048). The ratio of the two peaks says whether memory grows with the size (a
 * dataset held in memory would make it ~10×; streaming keeps it near 1×). Never a timed assertion.
 *
 * Data: a database of its own with two sites of one company, 100,000 tickets on site 1 and
 * 1,000,000 on site 2 over one month (RapportTickets' 31-day maximum), each with one payment,
 * made by INSERT … generate_series. Each child starts the app on that database (no demo); this
 * process signs in, GETs bo/getReport?rapportClassName=RapportTickets&format=CSV for one site
 * (accepting compression, as a browser does), reads the body as it comes (counting lines,
 * keeping nothing) and checks the line count; then the child reports its peak memory while it
 * answered (VmHWM of /proc/self/status, reset once the app is up by writing 5 to
 * /proc/self/clear_refs, so the modules' loading is not counted: it is reported apart, as the
 * peak while starting, and with it process.resourceUsage().maxRSS, the peak over the whole life).
 *
 * Run alone with `npx node bench/csv.ts` (own embedded PostgreSQL in a temporary folder);
 * `npm run bench` calls {@link benchCsv} with its server.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '../src/contract/api.ts';
import { buildApp } from '../src/server/app.ts';
import { createUser } from '../src/server/auth/users.ts';
import { migrateDatabase, openDatabase } from '../src/server/db/connect.ts';
import { drizzle } from 'drizzle-orm/node-postgres';
import * as schema from '../src/server/db/schema.ts';
import { startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { releaseStartupMemory } from '../src/server/memory.ts';
import { benchConfig, startSettings } from './start-settings.ts';

const LOGIN = 'bench-csv';
const PASSWORD = 'Bench-Csv-Stream-2026!';
const DATABASE = 'bench_csv';
const FIRST = '2026-10-01';
const LAST = '2026-10-31';
/** Tickets (= CSV data lines) of the small and the large report. */
const SMALL = 100_000;
const LARGE = 1_000_000;
/** The issue's ceiling for the large CSV. */
const LIMIT_MB = 200;

/** One child's figures. */
export interface CsvChildResult {
  lines: number;
  bytes: number;
  seconds: number;
  /** Resident memory of the child once the app is up, before the request (MB). */
  startRssMb: number;
  /** Peak resident memory of the child while it started (loading modules, building the app), MB. */
  startPeakRssMb: number;
  /** Peak resident memory of the child from just before the request to its end (VmHWM, MB). */
  peakRssMb: number;
  /** process.resourceUsage().maxRSS, MB: the peak over the child's whole life, start-up included. */
  maxRssMb: number;
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

async function procStatusKb(field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const status = await fs.readFile('/proc/self/status', 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
}

/** Fills `pool`'s database: one company, sites 1 and 2, SMALL and LARGE tickets with a payment each. */
async function fill(pool: pg.Pool): Promise<void> {
  await pool.query(
    `INSERT INTO companies (id, raison_sociale, enseigne) VALUES (1, 'Bench SAS', 'Le Comptoir')`,
  );
  await pool.query(`INSERT INTO sites (id, libelle, company_id, time_zone, currency) VALUES
    (1, 'Comptoir Bastille', 1, 'Europe/Paris', 'EUR'), (2, 'Comptoir Part-Dieu', 1, 'Europe/Paris', 'EUR')`);
  for (const [site, count] of [
    [1, SMALL],
    [2, LARGE],
  ] as const) {
    // Spread evenly over the month, opened between 08:00 and 23:59 Paris time.
    await pool.query(
      `INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind, employee_meal,
                            training_mode, covers, total_cents, total_excl_cents, tax_cents, source, source_ref)
       SELECT $1::int, g, d, (d + time '08:00' + ((g * 7) % 960) * interval '1 minute') AT TIME ZONE 'Europe/Paris',
              1 + g % 4, 'V' || lpad((1 + g % 8)::text, 3, '0'),
              CASE WHEN g % 40 = 0 THEN 'CANCELLATION' WHEN g % 97 = 0 THEN 'RETURN' ELSE 'SALE' END,
              false, false, NULL, 350 + (g * 7919) % 9000, 300 + (g * 7919) % 8000, 50 + g % 900, 'bench', g::text
         FROM generate_series(1::bigint, $2::bigint) g,
              LATERAL (SELECT $3::date + ((g - 1) * 31 / $2::bigint)::int AS d) x`,
      [site, count, FIRST],
    );
    await pool.query(
      `INSERT INTO payments (site_id, ticket_id, payment_no, method, amount_cents)
       SELECT site_id, ticket_id, 1, (ARRAY['CARD', 'CASH', 'MEAL_VOUCHER', 'CARD'])[1 + ticket_id % 4], total_cents
         FROM tickets WHERE site_id = $1`,
      [site],
    );
  }
  await pool.query('ANALYZE tickets; ANALYZE payments; ANALYZE sites');
}

/** What the app's child process prints once it listens. */
interface ChildReady {
  port: number;
  /** Resident memory once the app is up, before any request (MB). */
  startRssMb: number;
  /** Peak resident memory while starting (MB). */
  startPeakRssMb: number;
}

/** What the app's child process prints when asked for its memory after the download. */
interface ChildMemory {
  /** Peak resident memory since the reset before the request (VmHWM, MB). */
  peakRssMb: number;
  /** process.resourceUsage().maxRSS, MB: the peak over the whole life, start-up included. */
  maxRssMb: number;
}

/**
 * Child process: the app alone on `databaseUrl` (the download client runs in the parent, so the
 * peak is the server's), started as src/server/main.ts starts it, release of the start-up
 * memory included (memory.ts: it runs only under flags that expose gc, as `npm start`'s do).
 * Prints {@link ChildReady} once it listens, then {@link ChildMemory} when a line comes on
 * stdin, then exits.
 */
async function child(databaseUrl: string): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-csv-child-'));
  const database = await openDatabase({ databaseUrl, dataDir: dir });
  const config = benchConfig(dir);
  const app = await buildApp({ config, database });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // As startServer does after listening (a no-op unless the setting's flags expose gc).
  releaseStartupMemory();
  const startPeakRssMb = mb(await procStatusKb('VmHWM'));
  // The peak to measure is the request's: Linux resets VmHWM to the current RSS on writing 5 to
  // clear_refs (proc(5)), so start-up's own peak (modules loaded, their garbage) is not counted.
  await fs.writeFile('/proc/self/clear_refs', '5');
  const startRssMb = mb(await procStatusKb('VmRSS'));
  console.log(JSON.stringify({ port, startRssMb, startPeakRssMb } satisfies ChildReady));
  for await (const _ of readline.createInterface({ input: process.stdin })) break;
  const memory: ChildMemory = {
    peakRssMb: mb(await procStatusKb('VmHWM')),
    maxRssMb: mb(process.resourceUsage().maxRSS),
  };
  console.log(JSON.stringify(memory));
  await app.close();
  await database.close();
  await fs.rm(dir, { recursive: true, force: true });
}

/** Signs in on the app at `port`, downloads the tickets CSV of `site` and counts its lines. */
async function download(port: number, databaseUrl: string, site: number, expectedLines: number) {
  const api = `http://127.0.0.1:${port}/api/`;
  const basic = (secret: string) => `Basic ${Buffer.from(`${LOGIN}:${secret}`).toString('base64')}`;
  const signIn = await fetch(`${api}bo/connexion?username=${LOGIN}`, {
    headers: { authorization: basic(PASSWORD), [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
  });
  if (!signIn.ok) throw new Error(`sign-in refused: ${signIn.status} ${await signIn.text()}`);
  const { token } = (await signIn.json()) as { token: string };
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const { rows } = await c.query<{ id: number }>('SELECT id FROM users WHERE login = $1', [LOGIN]);
  await c.end();
  const t0 = performance.now();
  const res = await fetch(
    `${api}bo/getReport?id=${rows[0]!.id}&rapportClassName=RapportTickets&format=CSV&language=fr` +
      `&dateDebut=${FIRST}&dateFin=${LAST}&sites[]=${site}`,
    { headers: { authorization: basic(token), [CLIENT_HEADER]: CLIENT_HEADER_VALUE } },
  );
  if (!res.ok || !res.body) throw new Error(`CSV refused: ${res.status} ${await res.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  // Header + one line per ticket + totals.
  if (lines !== expectedLines + 2)
    throw new Error(`CSV of site ${site}: ${lines} lines, expected ${expectedLines + 2}`);
  return { lines, bytes, seconds: Math.round(seconds * 10) / 10 };
}

/**
 * Starts the app in a child process under `nodeFlags`, with `env` added to this process's
 * environment, downloads the CSV of `site` from this process, and returns the download's and the
 * child's figures.
 * @throws Error when the child ends early or the download fails.
 */
export async function inChild(
  databaseUrl: string,
  site: number,
  expectedLines: number,
  nodeFlags: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<CsvChildResult> {
  const proc = spawn(process.execPath, [...nodeFlags, import.meta.filename, '--child', databaseUrl], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = once(proc, 'exit');
  try {
    const lines = readline.createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
    const next = async <T>(): Promise<T> => {
      const line = await lines.next();
      if (line.done) throw new Error('the app child process ended early');
      return JSON.parse(line.value) as T;
    };
    const ready = await next<ChildReady>();
    const got = await download(ready.port, databaseUrl, site, expectedLines);
    proc.stdin.write('memory\n');
    const memory = await next<ChildMemory>();
    return { ...got, startRssMb: ready.startRssMb, startPeakRssMb: ready.startPeakRssMb, ...memory };
  } finally {
    proc.stdin.end();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    proc.kill();
  }
}

/**
 * The settings each size is measured under: V8's defaults (on a machine with this much memory the
 * young generation alone may hold ~100 MB of garbage, and the old generation grows lazily, so the
 * peak says more about V8 than about the stream), `npm start`'s flags and environment (package.json's
 * `start` script, read by start-settings.ts: the server as it runs for a user), and any flags given
 * in COMPTOIR_BENCH_CSV_FLAGS (to try others; the environment of this process applies to all).
 */
async function settings(): Promise<{ name: string; flags: string[]; env: Record<string, string> }[]> {
  const start = await startSettings();
  const words = [...Object.entries(start.env).map(([k, v]) => `${k}=${v}`), ...start.flags];
  const extra = process.env.COMPTOIR_BENCH_CSV_FLAGS?.split(/\s+/).filter(Boolean);
  return [
    { name: 'node defaults', flags: [], env: {} },
    { name: `npm start (${words.join(' ') || 'no flags'})`, flags: start.flags, env: start.env },
    ...(extra ? [{ name: extra.join(' '), flags: extra, env: {} }] : []),
  ];
}

/**
 * Creates and fills the `bench_csv` database on `admin`'s server, then downloads the 100,000-
 * and the 1,000,000-line CSV, each in a child process of its own.
 * Both sizes run under each of {@link settings}.
 * @returns per setting both children's figures, `ratio` = large peak ÷ small peak, and whether
 *   the large peak is under 200 MB.
 * @throws Error when a download fails or is not complete.
 */
export async function benchCsv(admin: pg.PoolConfig) {
  const c = new pg.Client(admin);
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await c.query(`CREATE DATABASE ${DATABASE}`);
  await c.end();
  const pool = new pg.Pool({ ...admin, database: DATABASE, max: 2 });
  pool.on('error', () => {}); // an idle connection closed at shutdown is not this bench's failure
  try {
    await migrateDatabase(pool);
    const t0 = performance.now();
    await fill(pool);
    const [profile] = await drizzle(pool, { schema })
      .insert(schema.profiles)
      .values({ titre: 'bench-csv', droits: ['RAPPORTS'], allSites: true, restaurantIds: [] })
      .returning({ id: schema.profiles.id });
    await createUser(drizzle(pool, { schema }), {
      login: LOGIN,
      password: PASSWORD,
      profileId: profile!.id,
      societesPlus: [],
      societesMoins: [],
      language: null,
      codeExploitant: null,
    });
    console.log(`  ${SMALL + LARGE} tickets generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await pool.end();
  }
  // Same form as embedded.ts's URL (a socket folder percent-encoded in the host position).
  const url = `postgresql://${admin.user ?? 'postgres'}:${encodeURIComponent(String(admin.password ?? ''))}@${encodeURIComponent(
    String(admin.host ?? '127.0.0.1'),
  )}:${admin.port ?? 5432}/${DATABASE}`;
  const runs = [];
  for (const setting of await settings()) {
    const small = await inChild(url, 1, SMALL, setting.flags, setting.env);
    console.log(
      `  [${setting.name}] ${SMALL} lines: ${small.bytes} bytes in ${small.seconds} s, peak RSS ${small.peakRssMb} MB (at start ${small.startRssMb} MB, peak while starting ${small.startPeakRssMb} MB)`,
    );
    const large = await inChild(url, 2, LARGE, setting.flags, setting.env);
    console.log(
      `  [${setting.name}] ${LARGE} lines: ${large.bytes} bytes in ${large.seconds} s, peak RSS ${large.peakRssMb} MB (at start ${large.startRssMb} MB, peak while starting ${large.startPeakRssMb} MB)`,
    );
    const ratio = Math.round((large.peakRssMb / small.peakRssMb) * 100) / 100;
    console.log(
      `  [${setting.name}] peak RSS 1M ÷ 100k: ${ratio}; 1M under ${LIMIT_MB} MB: ${large.peakRssMb < LIMIT_MB}`,
    );
    runs.push({
      node: setting.name,
      small: { tickets: SMALL, ...small },
      large: { tickets: LARGE, ...large },
      ratio,
      underLimit: large.peakRssMb < LIMIT_MB,
    });
  }
  return {
    name: 'CSV streamed through bo/getReport: peak RSS of the app process, 100,000 vs 1,000,000 lines',
    limitMb: LIMIT_MB,
    runs,
  };
}

if (import.meta.main) {
  if (process.argv[2] === '--child') {
    await child(process.argv[3]!);
    process.exit(0);
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-bench-csv-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(dir);
  try {
    console.log('• CSV of 1,000,000 lines streamed: peak memory vs 100,000 lines');
    console.log(JSON.stringify(await benchCsv(server.connection)));
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

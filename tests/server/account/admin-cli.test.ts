/**
 * `npm run admin -- reset-password LOGIN` (issue #18), run for real as a child process: on the
 * test database given by DATABASE_URL, then on an embedded PostgreSQL in a DATA_DIR — the one
 * `npm start` would keep running, then none (the command starts it and stops it after).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordProblems } from '../../../src/contract/password.ts';
import { createUser } from '../../../src/server/auth/users.ts';
import { migrateDatabase } from '../../../src/server/db/connect.ts';
import { startEmbeddedPostgres } from '../../../src/server/db/embedded.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

const CLI = path.resolve(import.meta.dirname, '../../../src/server/cli/admin.ts');
const PASSWORD = 'Perdu-depuis-2025!';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command with `args` and `env` (DATABASE_URL, DATA_DIR…) on top of a clean environment. */
function runAdmin(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  if (!('DATABASE_URL' in env)) delete base.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: base });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The password the command printed. */
function printedPassword(run: Run, login: string): string {
  const match = new RegExp(`New password of "${login}": (\\S+)`).exec(run.stdout);
  expect(match, run.stdout + run.stderr).not.toBeNull();
  return match![1]!;
}

describe('on the database of DATABASE_URL', () => {
  let t: TestApp;
  let adminId: number;

  beforeAll(async () => {
    t = await createTestApp();
    adminId = await t.createUser({
      login: 'admin',
      password: PASSWORD,
      droits: ['CONFIGURATION'],
      allSites: true,
    });
  });
  afterAll(() => t.close());

  it('sets a generated password, prints it once, signs the user out everywhere and writes the audit log', async () => {
    const session = await t.signIn('admin', PASSWORD);
    const run = await runAdmin(['reset-password', 'admin'], { DATABASE_URL: t.database.url });
    expect(run.status, run.stderr).toBe(0);
    const password = printedPassword(run, 'admin');
    expect(passwordProblems(password)).toEqual([]);
    expect(run.stdout.split(password)).toHaveLength(2); // printed once
    expect(run.stdout).toContain('1 session(s) signed out');

    await t.app.changes.settled();
    expect((await t.app.inject({ url: '/api/bo/getSites', headers: session })).statusCode).toBe(401);
    await expect(t.signIn('admin', PASSWORD)).rejects.toThrow(/401/);
    await t.signIn('admin', password);

    const { rows } = await t.database.pool.query(
      `SELECT user_id, action, target_id, before, after, address FROM audit_log WHERE action = 'user.passwordReset'`,
    );
    expect(rows).toEqual([
      {
        user_id: null,
        action: 'user.passwordReset',
        target_id: String(adminId),
        before: null,
        after: { via: 'cli', sessionsRevoked: 1 },
        address: null,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(password);
  });

  it('exits 1 with a clear message for an unknown login and changes nothing', async () => {
    const before = await t.database.pool.query('SELECT count(*)::int AS n FROM audit_log');
    const run = await runAdmin(['reset-password', 'Admin'], { DATABASE_URL: t.database.url });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('No user has the login "Admin": nothing was changed.');
    expect(run.stdout).toBe('');
    const after = await t.database.pool.query('SELECT count(*)::int AS n FROM audit_log');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('exits 2 with the usage on other arguments', async () => {
    for (const args of [[], ['reset-password'], ['reset', 'admin'], ['reset-password', 'a', 'b']]) {
      const run = await runAdmin(args, { DATABASE_URL: t.database.url });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('Usage: npm run admin -- reset-password LOGIN');
    }
  });
});

describe('on the embedded PostgreSQL of DATA_DIR', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-adm-'));
    await fs.chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('uses the server npm start keeps running, and starts and stops one itself when none runs', async () => {
    const server = await startEmbeddedPostgres(dataDir);
    let pool: pg.Pool | undefined;
    try {
      const admin = new pg.Client(server.connection);
      await admin.connect();
      await admin.query('CREATE DATABASE comptoir');
      await admin.end();
      pool = new pg.Pool({ ...server.connection, database: 'comptoir', max: 2 });
      // server.stop() below ends what is still connected (57P01): expected here, not a failure.
      pool.on('error', () => {});
      await migrateDatabase(pool);
      const { rows } = await pool.query<{ id: number }>(
        `INSERT INTO profiles (titre, droits, all_sites) VALUES ('Administrateur', '{CONFIGURATION}', true) RETURNING id`,
      );
      const { drizzle } = await import('drizzle-orm/node-postgres');
      await createUser(drizzle(pool), { login: 'chef', password: PASSWORD, profileId: rows[0]!.id });

      const whileRunning = await runAdmin(['reset-password', 'chef'], { DATA_DIR: dataDir });
      expect(whileRunning.status, whileRunning.stderr).toBe(0);
      expect(whileRunning.stderr).toContain('Using the PostgreSQL server already running');
      printedPassword(whileRunning, 'chef');
      // Our connection still works: the command left the server running.
      expect((await pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(1);
    } finally {
      await pool?.end();
      await server.stop();
    }

    const alone = await runAdmin(['reset-password', 'chef'], { DATA_DIR: dataDir });
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stderr).not.toContain('already running');
    printedPassword(alone, 'chef');
    // Stopped after the command: no postmaster left behind.
    await expect(fs.access(path.join(dataDir, 'pg', 'postmaster.pid'))).rejects.toThrow();
  });
});

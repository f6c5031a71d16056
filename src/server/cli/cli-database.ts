/**
 * The database of a command-line tool, found as `npm start` finds it (DESIGN.md §5):
 * DATABASE_URL when set; else the embedded PostgreSQL of DATA_DIR — the one `npm start` keeps
 * running when it does (reached through the socket its `postmaster.pid` names, and left running),
 * otherwise started for the command and stopped after it. Migrations are applied either way.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { migrateDatabase, openDatabase } from '../db/connect.ts';
import { processAlive } from '../db/embedded.ts';

/**
 * Connection settings of the embedded PostgreSQL already running on `dataDir`, read from its
 * `postmaster.pid` (line 1 pid, 4 port, 5 socket folder, 6 listen address), or null when none runs.
 */
export function runningEmbeddedServer(dataDir: string): pg.PoolConfig | null {
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  const passwordFile = path.join(dataDir, 'pg-password');
  if (!existsSync(pidFile) || !existsSync(passwordFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return null;
  const port = Number(lines[3]);
  const socketDir = (lines[4] ?? '').trim();
  const address = (lines[5] ?? '').trim();
  const host = socketDir !== '' ? socketDir : address === '' || address === '*' ? '127.0.0.1' : address;
  return {
    host,
    port,
    user: 'postgres',
    password: readFileSync(passwordFile, 'utf8').trim(),
    database: 'comptoir',
  };
}

/** A pool on the database of `config`, and how to let it go (stopping an embedded server started for it). */
export async function openCliDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  log: (message: string) => void,
): Promise<{ pool: pg.Pool; close: () => Promise<void> }> {
  const running = config.databaseUrl ? null : runningEmbeddedServer(config.dataDir);
  if (config.databaseUrl || running) {
    if (running) log(`Using the PostgreSQL server already running on ${config.dataDir}.`);
    const pool = new pg.Pool({ ...(running ?? { connectionString: config.databaseUrl }), max: 2 });
    // An idle connection cut when the server stops must not crash the command after its work.
    pool.on('error', () => {});
    await migrateDatabase(pool);
    return { pool, close: () => pool.end() };
  }
  const db = await openDatabase({ dataDir: config.dataDir, log, poolSize: 2 });
  return { pool: db.pool, close: () => db.close() };
}

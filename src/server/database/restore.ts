/**
 * Restore (issue #30, SPEC.md §7 `bo/restoreDataBase`, decision 0039). In order, stopping at the
 * first failure with the running database untouched:
 *
 * 1. the manifest is read and the file checked against it (size, SHA-256): a truncated or
 *    corrupted file, or a wrong checksum, is refused;
 * 2. a backup of a newer schema than this build knows is refused;
 * 3. `pg_restore` fills a new database `<name>_restore_<stamp>`;
 * 4. every table's row count and checksum there is compared with the manifest;
 * 5. the restored database is migrated to this build's schema, and its sessions are emptied
 *    (everyone signs in again: a session revoked since the backup never comes back);
 * 6. the switch: the gate closes (no request served), the running database is renamed
 *    `<name>_prev_<stamp>` and the restored one takes its name, the old connections are ended,
 *    the gate opens. The previous database is kept until dropped ({@link dropPrevious}).
 */
import { stat } from 'node:fs/promises';
import pg from 'pg';
import { migrateDatabase } from '../db/connect.ts';
import { runTool, sha256Of } from './backup.ts';
import { type ConnectionSettings, clientOn, ident, settingsOf, toolEnv } from './connection.ts';
import type { SwitchGate } from './gate.ts';
import { differingTables, knownSchemaVersion, readManifest, tableStats } from './manifest.ts';
import { sourcePath } from './paths.ts';
import type { PgTools } from './tools.ts';

/** Why a restore is refused (sent as `details.reason` of the 400 RestoreRefused). */
export type RestoreRefusal =
  | 'noManifest'
  | 'truncated'
  | 'checksum'
  | 'newerSchema'
  | 'unreadable'
  | 'verification';

/** A refused restore: its {@link RestoreRefusal} and details (e.g. the differing tables). */
export class RestoreRefusedError extends Error {
  readonly reason: RestoreRefusal;
  readonly details: Record<string, unknown>;
  constructor(reason: RestoreRefusal, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'RestoreRefusedError';
    this.reason = reason;
    this.details = details;
  }
}

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 17);
}

async function dropDatabase(settings: ConnectionSettings, name: string): Promise<void> {
  const admin = clientOn(settings);
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The renaming itself, on an administration connection (see the module's step 6). */
async function switchTo(settings: ConnectionSettings, restored: string, previous: string): Promise<void> {
  const current = settings.database;
  const admin = clientOn(settings);
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE ${ident(current)} WITH ALLOW_CONNECTIONS false`);
    try {
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [current],
      );
      await admin.query(`ALTER DATABASE ${ident(current)} RENAME TO ${ident(previous)}`);
    } catch (e) {
      await admin.query(`ALTER DATABASE ${ident(current)} WITH ALLOW_CONNECTIONS true`).catch(() => {});
      throw e;
    }
    await admin.query(`ALTER DATABASE ${ident(restored)} RENAME TO ${ident(current)}`);
    await admin.query(`ALTER DATABASE ${ident(previous)} WITH ALLOW_CONNECTIONS true`);
  } finally {
    await admin.end();
  }
}

/** What a restore did: the backup's manifest time, and the kept `previous` database's name. */
export interface RestoreResult {
  previous: string;
  backupCreatedAt: string;
  tables: number;
}

/**
 * Restores backup `src` (relative to `folder`) over the database of `pool` (module comment).
 * @param progress called with each step (`check`, `restore`, `verify`, `migrate`, `switch`).
 * @throws BackupPathError for a refused `src`; RestoreRefusedError for a refused file.
 */
export async function restoreDatabase(
  pool: pg.Pool,
  options: {
    folder: string;
    src: string;
    tools: PgTools;
    gate: SwitchGate;
    now?: Date;
    progress?: (step: string) => void;
  },
): Promise<RestoreResult> {
  const progress = options.progress ?? (() => {});
  const file = await sourcePath(options.folder, options.src);
  progress('check');
  const manifest = await readManifest(file);
  if (!manifest) throw new RestoreRefusedError('noManifest', 'the backup has no valid manifest beside it');
  const bytes = (await stat(file)).size;
  if (bytes < manifest.bytes) {
    throw new RestoreRefusedError('truncated', 'the file is shorter than its manifest says', {
      bytes,
      expected: manifest.bytes,
    });
  }
  if ((await sha256Of(file)) !== manifest.sha256) {
    throw new RestoreRefusedError('checksum', "the file's SHA-256 differs from its manifest");
  }
  const known = await knownSchemaVersion();
  if (manifest.schemaVersion > known) {
    throw new RestoreRefusedError('newerSchema', 'the backup comes from a newer schema', {
      schemaVersion: manifest.schemaVersion,
      known,
    });
  }
  const settings = settingsOf(pool);
  const suffix = stamp(options.now ?? new Date());
  const restored = `${settings.database}_restore_${suffix}`.slice(0, 63);
  const previous = `${settings.database}_prev_${suffix}`.slice(0, 63);
  const admin = clientOn(settings);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${ident(restored)} TEMPLATE template0`);
  } finally {
    await admin.end();
  }
  try {
    progress('restore');
    try {
      await runTool(
        options.tools.pgRestore,
        ['--exit-on-error', '--no-owner', '--no-privileges', '--no-password', `--dbname=${restored}`, file],
        toolEnv(settings, restored),
      );
    } catch (e) {
      throw new RestoreRefusedError('unreadable', `pg_restore failed: ${(e as Error).message}`);
    }
    progress('verify');
    const check = new pg.Client({ ...clientSettings(settings), database: restored });
    await check.connect();
    try {
      const differing = differingTables(manifest.tables, await tableStats(check));
      if (differing.length > 0) {
        throw new RestoreRefusedError('verification', 'the restored tables differ from the manifest', {
          tables: differing,
        });
      }
    } finally {
      await check.end();
    }
    progress('migrate');
    const restoredPool = new pg.Pool({ ...clientSettings(settings), database: restored, max: 1 });
    try {
      await migrateDatabase(restoredPool);
      await restoredPool.query('DELETE FROM sessions');
    } finally {
      await restoredPool.end();
    }
    progress('switch');
    await options.gate.close();
    try {
      await switchTo(settings, restored, previous);
    } finally {
      options.gate.open();
    }
  } catch (e) {
    await dropDatabase(settings, restored).catch(() => {});
    throw e;
  }
  return { previous, backupCreatedAt: manifest.createdAt, tables: Object.keys(manifest.tables).length };
}

function clientSettings(settings: ConnectionSettings): pg.ClientConfig {
  return {
    host: settings.host,
    port: settings.port,
    user: settings.user,
    ...(settings.password === undefined ? {} : { password: settings.password }),
  };
}

/** The previous databases kept by restores of the database of `pool`, newest first. */
export async function previousDatabases(pool: pg.Pool): Promise<{ name: string; bytes: number }[]> {
  const settings = settingsOf(pool);
  const { rows } = await pool.query<{ name: string; bytes: string }>(
    `SELECT datname AS name, pg_database_size(datname)::text AS bytes FROM pg_database
      WHERE starts_with(datname, $1) ORDER BY datname DESC`,
    [`${settings.database}_prev_`],
  );
  return rows.map((r) => ({ name: r.name, bytes: Number(r.bytes) }));
}

/**
 * Drops previous database `name` (one {@link previousDatabases} lists).
 * @returns false when there is no such previous database.
 */
export async function dropPrevious(pool: pg.Pool, name: string): Promise<boolean> {
  const known = await previousDatabases(pool);
  if (!known.some((d) => d.name === name)) return false;
  await dropDatabase(settingsOf(pool), name);
  return true;
}

/** Drops the half-restored databases an interrupted restore left (called at start). */
export async function dropAbandonedRestores(pool: pg.Pool): Promise<string[]> {
  const settings = settingsOf(pool);
  const { rows } = await pool.query<{ name: string }>(
    'SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)',
    [`${settings.database}_restore_`],
  );
  for (const r of rows) await dropDatabase(settings, r.name);
  return rows.map((r) => r.name);
}

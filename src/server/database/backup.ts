/**
 * Backup (issue #30, SPEC.md §7 `bo/backupDataBase`): `pg_dump --format=custom` of the running
 * database into the backup folder, with its manifest (manifest.ts). The dump and the manifest's
 * row counts and checksums read the same snapshot (pg_export_snapshot), so they agree exactly
 * while the app keeps writing. The dump is written to `<file>.partial`, flushed, then renamed,
 * and the manifest last (also through a temporary file): a backup listed with its manifest is
 * complete; an interrupted one leaves only a `.partial` that nothing lists, and never touches
 * the earlier backups.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { settingsOf, toolEnv } from './connection.ts';
import { appliedSchemaVersion, appVersion, type Manifest, manifestPath, tableStats } from './manifest.ts';
import { BackupPathError, destinationPath } from './paths.ts';
import type { PgTools } from './tools.ts';

/** SHA-256 of file `file`, hex. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Runs `command` with `args` and `env`; resolves when it exits 0.
 * @throws Error with the tool's last lines of stderr otherwise.
 */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(command)} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

async function flush(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** What a backup produced: its absolute `path` and its manifest. */
export interface BackupResult {
  path: string;
  manifest: Manifest;
}

/**
 * Backs the database of `pool` up to `dest` (relative to `folder`, see paths.ts).
 * @param progress called with a step name (`dump`, `checksum`, `manifest`).
 * @throws BackupPathError for a refused `dest` (or `exists`: a backup is never overwritten);
 *   the tool's Error when pg_dump fails (nothing is left but the removed `.partial`).
 */
export async function backupDatabase(
  pool: pg.Pool,
  options: { folder: string; dest: string; tools: PgTools; progress?: (step: string) => void },
): Promise<BackupResult> {
  const progress = options.progress ?? (() => {});
  const final = await destinationPath(options.folder, options.dest);
  const exists = await stat(final).then(
    () => true,
    () => false,
  );
  if (exists) throw new BackupPathError('exists', 'a backup of that name exists');
  const partial = `${final}.partial`;
  const settings = settingsOf(pool);
  const client = await pool.connect();
  let tables: Manifest['tables'];
  let schemaVersion: number;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ s: string }>('SELECT pg_export_snapshot() AS s');
    progress('dump');
    const dump = runTool(
      options.tools.pgDump,
      ['--format=custom', `--snapshot=${rows[0]!.s}`, `--file=${partial}`, '--no-password'],
      toolEnv(settings, settings.database),
    );
    // The stats read the same snapshot while pg_dump runs.
    const stats = (async () => ({
      tables: await tableStats(client),
      version: await appliedSchemaVersion(client),
    }))();
    const [, s] = await Promise.all([dump, stats]);
    tables = s.tables;
    schemaVersion = s.version;
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    await rm(partial, { force: true });
    throw e;
  } finally {
    client.release();
  }
  progress('checksum');
  await flush(partial);
  const sha256 = await sha256Of(partial);
  const bytes = (await stat(partial)).size;
  await rename(partial, final);
  progress('manifest');
  const manifest: Manifest = {
    format: 'comptoir-backup/1',
    file: path.basename(final),
    bytes,
    sha256,
    appVersion: await appVersion(),
    schemaVersion,
    createdAt: new Date().toISOString(),
    tables,
  };
  const manifestFile = manifestPath(final);
  await writeFile(`${manifestFile}.partial`, `${JSON.stringify(manifest, null, 2)}\n`, { flush: true });
  await rename(`${manifestFile}.partial`, manifestFile);
  return { path: final, manifest };
}

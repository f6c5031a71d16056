/**
 * Backup and verified restore (issue #30, decision 0039) on a real PostgreSQL with Debian's
 * pg_dump / pg_restore: backup → restore into a fresh database → every table identical by its
 * checksum, on the demo chain; refusals (truncated, corrupted, wrong checksum, newer schema,
 * no manifest) leave the running data untouched; path checks.
 */
import { appendFile, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase } from '../../src/server/database/backup.ts';
import { settingsOf } from '../../src/server/database/connection.ts';
import { SwitchGate } from '../../src/server/database/gate.ts';
import { manifestPath, tableStats } from '../../src/server/database/manifest.ts';
import { BackupPathError, destinationPath, sourcePath } from '../../src/server/database/paths.ts';
import {
  dropPrevious,
  previousDatabases,
  RestoreRefusedError,
  restoreDatabase,
} from '../../src/server/database/restore.ts';
import { findPgTools, type PgTools } from '../../src/server/database/tools.ts';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let database: TestDatabase;
let tools: PgTools;
let folder: string;

beforeAll(async () => {
  const found = await findPgTools();
  if (!found) throw new Error('pg_dump 15+ is needed (apt-get install postgresql-client-15)');
  tools = found;
  database = await createTestDatabase();
  // As the server's pool (db/connect.ts): the switch ends idle connections, the pool replaces them.
  database.pool.on('error', () => {});
  await generateDemoChain(database.pool, { seed: 20261207, now: new Date('2026-03-18T14:37:00Z'), days: 21 });
  folder = await mkdtemp(path.join(os.tmpdir(), 'comptoir-backups-'));
}, 240_000);

afterAll(async () => {
  for (const p of (await previousDatabases(database.pool)).map((d) => d.name))
    await dropPrevious(database.pool, p);
  await database.close();
  await rm(folder, { recursive: true, force: true });
});

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof BackupPathError || e instanceof RestoreRefusedError) return e.reason;
    throw e;
  }
  return 'accepted';
}

describe('path checks', () => {
  it('refuses .., absolute paths, NUL, other extensions and links out of the folder', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'comptoir-outside-'));
    await symlink(outside, path.join(folder, 'out'));
    await writeFile(path.join(outside, 'x.backup'), 'x');
    await symlink(path.join(outside, 'x.backup'), path.join(folder, 'link.backup'));
    expect(await reason(destinationPath(folder, '../x.backup'))).toBe('parent');
    expect(await reason(destinationPath(folder, 'a/../../x.backup'))).toBe('parent');
    expect(await reason(destinationPath(folder, '/tmp/x.backup'))).toBe('absolute');
    expect(await reason(destinationPath(folder, 'x\0.backup'))).toBe('nul');
    expect(await reason(destinationPath(folder, 'x.sql'))).toBe('extension');
    expect(await reason(destinationPath(folder, 'out/x.backup'))).toBe('outside');
    expect(await reason(destinationPath(folder, 'out/sub/y.backup'))).toBe('outside');
    expect(await reason(sourcePath(folder, 'out/x.backup'))).toBe('outside');
    expect(await reason(sourcePath(folder, 'link.backup'))).toBe('outside');
    expect(await reason(sourcePath(folder, '../x.backup'))).toBe('parent');
    expect(await destinationPath(folder, 'daily/ok.backup')).toBe(path.join(folder, 'daily', 'ok.backup'));
    await rm(path.join(folder, 'out'));
    await rm(path.join(folder, 'link.backup'));
    await rm(outside, { recursive: true });
  });
});

describe('backup and restore', () => {
  it('backs up with a manifest, and a restore brings back every table identical', async () => {
    const before = await tableStats(database.pool);
    expect(before['public.ticket_lines']!.rows).toBeGreaterThan(1000);
    const { manifest } = await backupDatabase(database.pool, { folder, dest: 'proof/one.backup', tools });
    expect(manifest.tables).toEqual(before);
    expect(manifest.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(
      JSON.parse(await readFile(manifestPath(path.join(folder, 'proof/one.backup')), 'utf8')).sha256,
    ).toBe(manifest.sha256);
    expect(await reason(backupDatabase(database.pool, { folder, dest: 'proof/one.backup', tools }))).toBe(
      'exists',
    );

    // Changes after the backup: the restore must take them away.
    await database.pool.query(
      'DELETE FROM ticket_lines WHERE ctid IN (SELECT ctid FROM ticket_lines LIMIT 10)',
    );
    await database.pool.query("UPDATE sites SET libelle = libelle || ' (changed)'");
    expect((await tableStats(database.pool))['public.ticket_lines']).not.toEqual(
      before['public.ticket_lines'],
    );

    const gate = new SwitchGate();
    const steps: string[] = [];
    const result = await restoreDatabase(database.pool, {
      folder,
      src: 'proof/one.backup',
      tools,
      gate,
      progress: (s) => steps.push(s),
    });
    expect(steps).toEqual(['check', 'restore', 'verify', 'migrate', 'switch']);
    expect(gate.closed).toBe(false);
    // The same pool now reads the restored database: every table as backed up (sessions emptied).
    const after = await tableStats(database.pool);
    expect({ ...after, 'public.sessions': null }).toEqual({ ...before, 'public.sessions': null });
    expect(after['public.sessions']!.rows).toBe(0);
    // The previous database is kept, with the change made after the backup, until dropped.
    expect((await previousDatabases(database.pool)).map((d) => d.name)).toEqual([result.previous]);
    const settings = settingsOf(database.pool);
    const old = new pg.Client({ ...settings, database: result.previous });
    await old.connect();
    const { rows } = await old.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM sites WHERE libelle LIKE '%(changed)'",
    );
    await old.end();
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(await dropPrevious(database.pool, 'postgres')).toBe(false);
    expect(await dropPrevious(database.pool, result.previous)).toBe(true);
    expect(await previousDatabases(database.pool)).toEqual([]);
  }, 240_000);

  it('refuses a truncated, corrupted, newer or manifest-less backup, the running data untouched', async () => {
    await backupDatabase(database.pool, { folder, dest: 'bad/base.backup', tools });
    const base = path.join(folder, 'bad/base.backup');
    const bytes = await readFile(base);
    const manifest = await readFile(manifestPath(base), 'utf8');
    const copy = async (name: string, content: Buffer, m: string | null) => {
      await writeFile(path.join(folder, 'bad', name), content);
      if (m !== null) await writeFile(manifestPath(path.join(folder, 'bad', name)), m);
    };
    await copy('truncated.backup', bytes, manifest);
    await truncate(path.join(folder, 'bad/truncated.backup'), Math.floor(bytes.length / 2));
    const corrupted = Buffer.from(bytes);
    const middle = Math.floor(corrupted.length / 2);
    corrupted[middle] = corrupted[middle]! ^ 0xff;
    await copy('corrupted.backup', corrupted, manifest);
    await copy('longer.backup', bytes, manifest);
    await appendFile(path.join(folder, 'bad/longer.backup'), 'x');
    await copy('newer.backup', bytes, JSON.stringify({ ...JSON.parse(manifest), schemaVersion: 9999 }));
    await copy('bare.backup', bytes, null);
    // A manifest that agrees with the file but not with its tables: caught after pg_restore.
    const lying = JSON.parse(manifest);
    lying.tables['public.sites'].rows += 1;
    await copy('lying.backup', bytes, JSON.stringify(lying));

    const before = await tableStats(database.pool);
    const gate = new SwitchGate();
    const attempt = (src: string) => reason(restoreDatabase(database.pool, { folder, src, tools, gate }));
    expect(await attempt('bad/truncated.backup')).toBe('truncated');
    expect(await attempt('bad/corrupted.backup')).toBe('checksum');
    expect(await attempt('bad/longer.backup')).toBe('checksum');
    expect(await attempt('bad/newer.backup')).toBe('newerSchema');
    expect(await attempt('bad/bare.backup')).toBe('noManifest');
    expect(await attempt('bad/lying.backup')).toBe('verification');
    expect(await attempt('bad/missing.backup')).toBe('missing');
    expect(await tableStats(database.pool)).toEqual(before);
    expect(await previousDatabases(database.pool)).toEqual([]);
    const { rows } = await database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_database WHERE datname LIKE '%\\_restore\\_%'",
    );
    expect(rows[0]!.n).toBe(0);
  }, 240_000);
});

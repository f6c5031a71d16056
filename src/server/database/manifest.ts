/**
 * The manifest written beside every backup (`<file>.backup.json`, issue #30): the file's SHA-256
 * and size, the app and schema versions, when, and for every table its row count and a checksum
 * of its rows. A restore is verified against it before it is switched to (restore.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { MIGRATIONS_FOLDER } from '../db/connect.ts';
import type { Queryable } from '../db/queryable.ts';
import { ident } from './connection.ts';

/** One table's `rows` and `checksum` (an order-free sum of 64-bit row hashes, as decimal text). */
export const TableStatsSchema = z.object({ rows: z.number().int().nonnegative(), checksum: z.string() });

/** The manifest as written (format `comptoir-backup/1`); times are ISO 8601 instants. */
export const ManifestSchema = z.object({
  format: z.literal('comptoir-backup/1'),
  file: z.string(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  appVersion: z.string(),
  schemaVersion: z.number().int().nonnegative(),
  createdAt: z.string(),
  tables: z.record(z.string(), TableStatsSchema),
});

/** A backup's manifest. */
export type Manifest = z.infer<typeof ManifestSchema>;

/** The manifest's file name beside backup `backupPath`. */
export function manifestPath(backupPath: string): string {
  return `${backupPath}.json`;
}

/** Reads and checks the manifest of `backupPath`; null when absent or malformed. */
export async function readManifest(backupPath: string): Promise<Manifest | null> {
  try {
    const parsed = ManifestSchema.safeParse(JSON.parse(await readFile(manifestPath(backupPath), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The number of migrations this build knows: the newest schema version it can run on. */
export async function knownSchemaVersion(): Promise<number> {
  const journal = JSON.parse(
    await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** The schema version of the database `db` is on: how many migrations were applied to it. */
export async function appliedSchemaVersion(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
  );
  return rows[0]?.n ?? 0;
}

/** The app's version (package.json). */
export async function appVersion(): Promise<string> {
  const file = path.join(MIGRATIONS_FOLDER, '..', '..', '..', '..', 'package.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

/**
 * Row count and checksum of every table of the database (`schema.table`, the system catalogs
 * aside), read in `db`'s snapshot. The checksum sums a 64-bit prefix of each row's MD5 (text form),
 * so it ignores row order: equal after a restore, different as soon as one value differs.
 */
export async function tableStats(db: Queryable): Promise<Record<string, z.infer<typeof TableStatsSchema>>> {
  const { rows: tables } = await db.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
      ORDER BY 1, 2`,
  );
  const stats: Record<string, z.infer<typeof TableStatsSchema>> = {};
  for (const t of tables) {
    const { rows } = await db.query<{ n: number; h: string }>(
      `SELECT count(*)::bigint AS n,
              coalesce(sum(('x' || substr(md5(t::text), 1, 16))::bit(64)::bigint), 0)::text AS h
         FROM ${ident(t.schema)}.${ident(t.name)} t`,
    );
    stats[`${t.schema}.${t.name}`] = { rows: Number(rows[0]?.n ?? 0), checksum: rows[0]?.h ?? '0' };
  }
  return stats;
}

/** The tables whose stats differ between `expected` and `actual` (a table missing on one side too). */
export function differingTables(
  expected: Manifest['tables'],
  actual: Manifest['tables'],
): { table: string; expected: string; actual: string }[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  const out: { table: string; expected: string; actual: string }[] = [];
  for (const name of [...names].sort()) {
    const e = expected[name];
    const a = actual[name];
    if (e?.rows !== a?.rows || e?.checksum !== a?.checksum) {
      out.push({
        table: name,
        expected: e ? `${e.rows} rows` : 'absent',
        actual: a ? `${a.rows} rows${a.rows === e?.rows ? ', other values' : ''}` : 'absent',
      });
    }
  }
  return out;
}

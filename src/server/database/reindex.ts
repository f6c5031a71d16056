/**
 * Reindex (issue #30, SPEC.md §7 `bo/reindexationDataBase`): `REINDEX TABLE CONCURRENTLY` of every
 * table of Comptoir's schema (`public`), one table at a time, so reads and writes go on; a table
 * PostgreSQL 15 cannot reindex concurrently (e.g. an exclusion constraint's index) is reindexed
 * plainly, which locks it for the time it takes.
 */
import type pg from 'pg';
import { ident } from './connection.ts';

/** What a reindex did: `tables` reindexed, of which `plain` without CONCURRENTLY, and `ms` taken. */
export interface ReindexResult {
  tables: number;
  plain: string[];
  ms: number;
}

/**
 * Reindexes the tables of schema `public` of `pool`'s database.
 * @param progress called with each table's name before it is reindexed.
 * @throws the database's error of a plain REINDEX.
 */
export async function reindexDatabase(
  pool: pg.Pool,
  progress: (table: string) => void = () => {},
): Promise<ReindexResult> {
  const started = performance.now();
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm') ORDER BY 1`,
  );
  const plain: string[] = [];
  for (const { name } of rows) {
    progress(name);
    const table = `public.${ident(name)}`;
    try {
      await pool.query(`REINDEX TABLE CONCURRENTLY ${table}`);
    } catch {
      // CONCURRENTLY refused (or left an invalid index behind, which a plain REINDEX rebuilds).
      await pool.query(`REINDEX TABLE ${table}`);
      plain.push(name);
    }
  }
  return { tables: rows.length, plain, ms: Math.round(performance.now() - started) };
}

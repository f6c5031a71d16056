/**
 * Opens the database the server works on (DESIGN.md §5): the external PostgreSQL of
 * DATABASE_URL when set, otherwise the embedded one on DATA_DIR (database `comptoir`, created on
 * first start). Applies the committed drizzle-kit migrations before answering.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { distributeForCitus } from './citus.ts';
import { startEmbeddedPostgres } from './embedded.ts';

/** The Drizzle database with our schema. */
export type Db = NodePgDatabase<typeof schema>;

/** An open database: the pg pool (for raw SQL, COPY), Drizzle over it, and how to close both. */
export interface Database {
  pool: pg.Pool;
  db: Db;
  /** Closes the pool, then stops the embedded server when we started one. */
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const EMBEDDED_DATABASE = 'comptoir';

// PostgreSQL `bigint` (int8, oid 20) and `numeric` come back as strings by default; our
// bigints are cents and ids well inside Number.MAX_SAFE_INTEGER, so read them as numbers.
pg.types.setTypeParser(20, (v) => Number(v));
// `date` (oid 1082) stays the wire text `YYYY-MM-DD`, never a JS Date shifted by a time zone.
pg.types.setTypeParser(1082, (v) => v);

/**
 * Applies pending migrations on `pool`'s database, then, on a Citus cluster only, places the
 * tables not placed yet (db/citus.ts, decision record 0042; a no-op on plain PostgreSQL).
 */
export async function migrateDatabase(pool: pg.Pool): Promise<void> {
  await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_FOLDER });
  const client = await pool.connect();
  try {
    await distributeForCitus(client);
  } finally {
    client.release();
  }
}

/**
 * Opens (and migrates) the database.
 * @param options.databaseUrl external server; when absent, `dataDir` hosts the embedded one.
 * @param options.log progress messages.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  log?: (message: string) => void;
  poolSize?: number;
}): Promise<Database> {
  const log = options.log ?? (() => {});
  let stopEmbedded: (() => Promise<void>) | undefined;
  let poolConfig: pg.PoolConfig;
  if (options.databaseUrl) {
    poolConfig = { connectionString: options.databaseUrl };
  } else {
    const server = await startEmbeddedPostgres(options.dataDir, log);
    stopEmbedded = server.stop;
    const admin = new pg.Client(server.connection);
    await admin.connect();
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
    await admin.end();
    poolConfig = { ...server.connection, database: EMBEDDED_DATABASE };
  }
  const pool = new pg.Pool({ ...poolConfig, max: options.poolSize ?? 10 });
  // An idle connection closed by the server (shutdown, restart, admin kill) emits 'error' on
  // the pool; without a listener Node ends the process. The pool replaces the connection itself.
  pool.on('error', (e) => log(`PostgreSQL closed an idle connection: ${e.message}`));
  try {
    await migrateDatabase(pool);
  } catch (e) {
    await pool.end();
    await stopEmbedded?.();
    throw e;
  }
  return {
    pool,
    db: drizzle(pool, { schema }),
    async close() {
      await pool.end();
      await stopEmbedded?.();
    },
  };
}

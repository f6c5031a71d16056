/**
 * A transaction on a connection of its own, for code that must hold one connection across
 * several statements (the idempotency plugin's keyed writes, the outbox batch: decision records
 * 0004 and 0024).
 */
import type pg from 'pg';

/**
 * Opens a transaction on a connection of `pool` (BEGIN done); the caller ends it with COMMIT or
 * {@link rollback}, which give the connection back.
 * @throws the connection's error (the connection is released first, destroyed).
 */
export async function beginTransaction(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    return client;
  } catch (e) {
    client.release(e instanceof Error ? e : true);
    throw e;
  }
}

/** Rolls back the transaction `client` and gives the connection back (destroyed when even that fails); never throws. */
export async function rollback(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('ROLLBACK');
    client.release();
  } catch (e) {
    client.release(e instanceof Error ? e : true);
  }
}

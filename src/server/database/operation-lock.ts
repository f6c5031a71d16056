/**
 * The database-wide guard of the long database operations (backup, restore, reindex; decision
 * 0039, section of 2026-12-07): one at a time across every server process on the database, not
 * only within one. It is a PostgreSQL session advisory lock keyed by the app database's name,
 * held for the whole operation by a connection of its own to the server's maintenance database
 * `postgres` — the one a restore already uses to rename databases, so neither the termination of
 * the app database's backends nor its rename during a restore's switch can release it. When that
 * database refuses the connection (an external server whose user may not connect to it), the
 * lock is taken on the app database itself: backup and reindex are guarded the same, and a
 * restore needs `postgres` anyway. A process that dies loses its connection, and PostgreSQL
 * releases the lock with it: no stale guard to clear after a crash.
 */
import type pg from 'pg';
import { clientOn, settingsOf } from './connection.ts';

/** The lock held by one operation; {@link release} ends it (idempotent, never throws). */
export interface OperationLock {
  release(): Promise<void>;
}

/** Prefix of the lock's key: the key is its text with the database's name, hashed to 64 bits. */
const KEY_PREFIX = 'comptoir.database-operation:';

/** `client` connected, or null (and ended) when the server refused it. */
async function connected(client: pg.Client): Promise<pg.Client | null> {
  // A lost connection loses the lock; the operation itself goes on (its run records the end).
  client.on('error', () => {});
  try {
    await client.connect();
    return client;
  } catch {
    await client.end().catch(() => {});
    return null;
  }
}

/** A client connected to `pool`'s own database. @throws its connection error. */
async function onAppDatabase(pool: pg.Pool): Promise<pg.Client> {
  const settings = settingsOf(pool);
  const client = clientOn(settings, settings.database);
  client.on('error', () => {});
  await client.connect();
  return client;
}

/**
 * Takes the database-wide operation lock of `pool`'s database if no process holds it.
 * @returns the lock, or null when another operation (of this process or another) holds it.
 * @throws the app database's connection error when neither it nor `postgres` accepts one.
 */
export async function tryOperationLock(pool: pg.Pool): Promise<OperationLock | null> {
  const settings = settingsOf(pool);
  const client = (await connected(clientOn(settings))) ?? (await onAppDatabase(pool));
  const key = `${KEY_PREFIX}${settings.database}`;
  try {
    const { rows } = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok',
      [key],
    );
    if (!rows[0]?.ok) {
      await client.end().catch(() => {});
      return null;
    }
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      // Ending the session releases its advisory locks.
      await client.end().catch(() => {});
    },
  };
}

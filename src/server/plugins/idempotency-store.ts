/**
 * Where the idempotency plugin (idempotency.ts) keeps the first answer of each keyed write: the
 * `idempotency_keys` table (DESIGN.md §7), behind a transaction-scoped advisory lock per (user,
 * key). It lives beside the plugin rather than in db/ because its rows are HTTP answers (status,
 * content type, body) that only the plugin reads, and db/ knows no HTTP.
 */
import type pg from 'pg';
import { IDEMPOTENCY_KEY_TTL_DAYS } from '../../contract/counting.ts';

/** What runs a statement: the pool (committed at once) or an open transaction's connection. */
type Queryable = Pick<pg.ClientBase, 'query'>;

/** Least time between two purges of expired keys in one process, in milliseconds. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** The first answer kept for a key, and the identity of the request that got it. */
export interface StoredAnswer {
  method: string;
  path: string;
  /** SHA-256 (hex) of the request's identity (idempotency.ts's `requestIdentity`). */
  request_hash: string;
  status: number;
  content_type: string | null;
  body: string;
}

/** What {@link lockKey} found: the open transaction holding the lock, a stored answer, or a busy key. */
export type KeyLock =
  | { client: pg.PoolClient; stored: null }
  | { client: null; stored: StoredAnswer | null; busy: true }
  | { client: null; stored: StoredAnswer; busy: false };

/**
 * Opens the transaction of a keyed write holding the (user, key) lock, or finds the key's stored
 * answer (unexpired). When another request holds the lock, gives its connection back at once
 * and answers `busy`, so waiting repeats never hold connections the first one needs.
 */
export async function lockKey(pool: pg.Pool, userId: number, key: string): Promise<KeyLock> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 7)) AS ok',
      [`idempotency:${userId}:${key}`],
    );
    if (!rows[0]!.ok) {
      await client.query('ROLLBACK');
      client.release();
      return { client: null, stored: null, busy: true };
    }
    const found = await client.query<StoredAnswer>(
      `SELECT method, path, request_hash, status, content_type, body FROM idempotency_keys
        WHERE user_id = $1 AND key = $2 AND expires_at > now()`,
      [userId, key],
    );
    if (found.rows[0]) {
      await client.query('ROLLBACK');
      client.release();
      return { client: null, stored: found.rows[0], busy: false };
    }
    return { client, stored: null };
  } catch (e) {
    client.release(e instanceof Error ? e : true);
    throw e;
  }
}

/** The columns of an `idempotency_keys` row, in the order of {@link rowValues}. */
const KEY_COLUMNS = 'user_id, key, method, path, request_hash, status, content_type, body, expires_at';
/** Keeping a key again replaces its expired row (a lookup ignores it; the purge may not have run). */
const ON_CONFLICT_REPLACE = `ON CONFLICT (user_id, key) DO UPDATE SET method = EXCLUDED.method, path = EXCLUDED.path,
       request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, content_type = EXCLUDED.content_type,
       body = EXCLUDED.body, created_at = now(), expires_at = EXCLUDED.expires_at`;

/** Placeholders `($n, …, now() + make_interval(days => $m))` of row `i` (0-based), 8 parameters a row. */
function rowPlaceholders(i: number, daysParameter: number): string {
  const p = Array.from({ length: 8 }, (_, j) => `$${i * 8 + j + 1}`);
  return `(${p.join(', ')}, now() + make_interval(days => $${daysParameter}))`;
}

/** A row's 8 parameters, in {@link KEY_COLUMNS}' order (expires_at aside). */
function rowValues(userId: number, key: string, answer: StoredAnswer): unknown[] {
  return [
    userId,
    key,
    answer.method,
    answer.path,
    answer.request_hash,
    answer.status,
    answer.content_type,
    answer.body,
  ];
}

/**
 * Keeps `answer` for (`userId`, `key`) for IDEMPOTENCY_KEY_TTL_DAYS days through `db`: inside an
 * open transaction it commits with the handler's writes; on the pool, at once. Replaces an
 * expired row.
 */
export async function storeAnswer(
  db: Queryable,
  userId: number,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  await storeAnswers(db, userId, [{ key, answer }]);
}

/**
 * Keeps several answers of `userId` in one statement (a batch's, decision record 0024), as
 * {@link storeAnswer} does each. Keys must differ. No statement for an empty list.
 */
export async function storeAnswers(
  db: Queryable,
  userId: number,
  kept: readonly { key: string; answer: StoredAnswer }[],
): Promise<void> {
  if (kept.length === 0) return;
  const daysParameter = kept.length * 8 + 1;
  const rows = kept.map((_, i) => rowPlaceholders(i, daysParameter));
  const values = kept.flatMap(({ key, answer }) => rowValues(userId, key, answer));
  await db.query(
    `INSERT INTO idempotency_keys (${KEY_COLUMNS}) VALUES ${rows.join(', ')} ${ON_CONFLICT_REPLACE}`,
    [...values, IDEMPOTENCY_KEY_TTL_DAYS],
  );
}

/**
 * Takes, in the open transaction `tx`, the (user, key) lock of each of `keys` that no other
 * transaction holds, without waiting (one statement), then looks up the stored answers of
 * those it took (a second statement, so its snapshot follows the locks: an answer committed by
 * the previous holder is seen). The locks last until `tx` ends.
 * @returns per key: whether `tx` holds its lock, and its unexpired stored answer if any.
 */
export async function lockKeys(
  tx: Queryable,
  userId: number,
  keys: readonly string[],
): Promise<Map<string, { locked: boolean; stored: StoredAnswer | null }>> {
  const distinct = [...new Set(keys)];
  const states = new Map<string, { locked: boolean; stored: StoredAnswer | null }>();
  if (distinct.length === 0) return states;
  const { rows } = await tx.query<{ key: string; ok: boolean }>(
    `SELECT k AS key, pg_try_advisory_xact_lock(hashtextextended('idempotency:' || $1::text || ':' || k, 7)) AS ok
       FROM unnest($2::text[]) AS k`,
    [userId, distinct],
  );
  const locked = rows.filter((r) => r.ok).map((r) => r.key);
  for (const r of rows) states.set(r.key, { locked: r.ok, stored: null });
  if (locked.length === 0) return states;
  const found = await tx.query<StoredAnswer & { key: string }>(
    `SELECT t.k AS key, i.method, i.path, i.request_hash, i.status, i.content_type, i.body
       FROM unnest($2::text[]) AS t(k) JOIN idempotency_keys i ON i.key = t.k::uuid
      WHERE i.user_id = $1 AND i.expires_at > now()`,
    [userId, locked],
  );
  for (const { key, ...stored } of found.rows) states.set(key, { locked: true, stored });
  return states;
}

/** Commits the transaction `client` and gives the connection back. */
export async function commit(client: pg.PoolClient): Promise<void> {
  await client.query('COMMIT');
  client.release();
}

let lastPurge = 0;

/**
 * Deletes expired keys, and the mail-send records (mail/send-once.ts) older than a key
 * lives, at most once per hour per process.
 */
export async function purgeExpired(pool: pg.Pool): Promise<void> {
  const now = Date.now();
  if (now - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = now;
  await pool.query('DELETE FROM idempotency_keys WHERE expires_at < now()');
  await pool.query('DELETE FROM mail_sends WHERE claimed_at < now() - make_interval(days => $1)', [
    IDEMPOTENCY_KEY_TTL_DAYS,
  ]);
}

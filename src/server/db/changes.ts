/**
 * Change feed and the caches it keeps honest. Migration 0007 makes every statement that changes
 * users, profiles, sites, companies, or ends or shortens a session, send `NOTIFY
 * comptoir_changes, '<table>'`; a {@link ChangeFeed} holds one connection LISTENing on that
 * channel and empties the {@link TableCache}s that read those tables. That is what lets the
 * per-call session check (auth/tokens.ts) and the report's site lookup (reports/request.ts)
 * skip their round trip to PostgreSQL on most calls, with any number of server processes on one
 * database, without serving what another process or a psql session changed.
 *
 * Safety rules:
 * - while the feed is not listening (not yet connected, connection lost), caches serve nothing
 *   and store nothing: every call reads the database, as without a cache;
 * - a value read while a change arrived is not stored (generation check), so a slow read that
 *   began before the change cannot put the old value back after the clear;
 * - entries also expire after `maxAgeMs` (default 60 s), in case notifications stop silently.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Queryable } from './queryable.ts';

/** The channel of migration 0007's triggers. */
export const CHANGES_CHANNEL = 'comptoir_changes';

/**
 * Tables of the feed that a Citus cluster distributes by `site_id` (src/server/db/citus.ts): their
 * shards live on the workers, where migration 0007's trigger cannot notify, so their writers call
 * {@link notifyChanged} (decision record 0046).
 */
export type WriterNotifiedTable = 'data_loads' | 'local_event_sites';

/**
 * Sends the feed's notification for `table` from `db`'s session, as migration 0007's trigger
 * does: call it in the transaction that writes the table, after the write. On a Citus cluster
 * that is what the coordinator's listeners hear (decision 0046). On one PostgreSQL the trigger
 * sends the same notification in the same transaction and PostgreSQL delivers identical ones
 * once, so listeners see exactly what they saw without this call.
 */
export async function notifyChanged(db: Queryable, table: WriterNotifiedTable): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, table]);
}

/** Prefix of the feed's own barrier notifications ({@link ChangeFeed.settled}). */
const SYNC_PREFIX = 'sync:';

/**
 * Values read from tables `tables`, by string key, dropped whenever the feed reports a change
 * to one of them. Entries are shared between callers: treat them as read-only.
 */
export class TableCache<V> {
  readonly tables: ReadonlySet<string>;
  readonly #feed: ChangeFeed;
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { value: V; storedAt: number }>();
  #generation = 0;
  /** Whether a hit waits for {@link ChangeFeed.caughtUp} (the session cache). */
  readonly #caughtUp: boolean;

  constructor(
    feed: ChangeFeed,
    tables: readonly string[],
    options: { maxAgeMs: number; maxEntries: number; caughtUp?: boolean },
  ) {
    this.#feed = feed;
    this.#caughtUp = options.caughtUp ?? false;
    this.tables = new Set(tables);
    this.#maxAgeMs = options.maxAgeMs;
    this.#maxEntries = options.maxEntries;
  }

  /**
   * The value of `key`: the cached one while the feed listens and it is younger than maxAgeMs,
   * else what `load` reads (stored unless it is null, the feed is down, or a change arrived
   * meanwhile).
   * @throws whatever `load` throws (nothing is stored then).
   */
  async get(key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (!this.#feed.live) {
      this.#feed.reconnect();
      return load();
    }
    const hit = this.#entries.get(key);
    if (hit && performance.now() - hit.storedAt < this.#maxAgeMs) {
      if (!this.#caughtUp) return hit.value;
      // Every change committed before this call has reached this process first (a revocation
      // answered by another server: issue #32 C.3); the barrier is shared by the calls waiting.
      const before = this.#generation;
      await this.#feed.caughtUp();
      if (before === this.#generation && this.#entries.get(key) === hit) return hit.value;
    }
    const generation = this.#generation;
    const value = await load();
    if (value !== null && this.#feed.live && generation === this.#generation) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
      this.#entries.set(key, { value, storedAt: performance.now() });
    }
    return value;
  }

  /** Drops `key` (its row was changed by this process, e.g. a session revoked at logout). */
  forget(key: string): void {
    this.#generation++;
    this.#entries.delete(key);
  }

  /** Drops everything (a change to one of the tables, or the feed lost). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** Entries held now (tests, diagnostics). */
  get size(): number {
    return this.#entries.size;
  }
}

/**
 * One LISTEN connection on {@link CHANGES_CHANNEL} and the caches it empties. Create it with
 * the pool's connection settings, `await start()`, `close()` at shutdown.
 */
export class ChangeFeed {
  readonly #config: pg.ClientConfig;
  readonly #reconnectAfterMs: number;
  readonly #log: (message: string, error?: unknown) => void;
  readonly #caches = new Set<TableCache<unknown>>();
  readonly #waiting = new Map<string, () => void>();
  #client: pg.Client | null = null;
  #live = false;
  #connecting: Promise<void> | null = null;
  #lastAttempt = Number.NEGATIVE_INFINITY;
  #closed = false;

  /**
   * @param config connection settings of the database (those of its pool).
   * @param log receives a line when the feed cannot connect or is lost.
   * @param options.reconnectAfterMs least time between two connection attempts (default 5,000 ms).
   */
  constructor(
    config: pg.ClientConfig,
    log: (message: string, error?: unknown) => void = () => {},
    options: { reconnectAfterMs?: number } = {},
  ) {
    // pg.Pool keeps `password` as a non-enumerable property of its options: copied by name.
    this.#config = {
      ...config,
      password: config.password,
      keepAlive: true,
      application_name: 'comptoir change feed',
    };
    this.#log = log;
    this.#reconnectAfterMs = options.reconnectAfterMs ?? 5_000;
  }

  /** The process id of the listening PostgreSQL session, null when not listening (diagnostics). */
  get backendPid(): number | null {
    return this.#live ? ((this.#client as unknown as { processID: number } | null)?.processID ?? null) : null;
  }

  /** True while the feed listens: caches may serve and store values. */
  get live(): boolean {
    return this.#live;
  }

  /** A cache of values read from `tables`, emptied on their changes (see {@link TableCache}). */
  cache<V>(
    tables: readonly string[],
    options: { maxAgeMs?: number; maxEntries?: number; caughtUp?: boolean } = {},
  ): TableCache<V> {
    const cache = new TableCache<V>(this, tables, {
      maxAgeMs: options.maxAgeMs ?? 60_000,
      maxEntries: options.maxEntries ?? 10_000,
      caughtUp: options.caughtUp ?? false,
    });
    this.#caches.add(cache as TableCache<unknown>);
    return cache;
  }

  /** Connects and listens; resolves even when that fails (the caches then stay off). */
  async start(): Promise<void> {
    this.reconnect();
    await this.#connecting;
  }

  /**
   * Starts a connection attempt unless one is under way, the feed listens, is closed, or the
   * last attempt was less than `reconnectAfterMs` ago. Called by the caches when they find the
   * feed down, so a lost feed comes back with the next calls and never costs more than one
   * attempt per `reconnectAfterMs`.
   */
  reconnect(): void {
    if (this.#live || this.#connecting || this.#closed) return;
    if (performance.now() - this.#lastAttempt < this.#reconnectAfterMs) return;
    this.#lastAttempt = performance.now();
    this.#connecting = this.#connect().finally(() => {
      this.#connecting = null;
    });
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#config);
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client));
    client.on('notification', (n) => this.#notified(n.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      this.#log('change feed: cannot listen, caches stay off', error);
      client.end().catch(() => {});
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    // Whatever changed while the feed was down is unknown: start from empty caches.
    for (const cache of this.#caches) cache.clear();
    this.#live = true;
  }

  #lost(client: pg.Client, error?: unknown): void {
    if (client !== this.#client) return;
    this.#client = null;
    this.#live = false;
    for (const cache of this.#caches) cache.clear();
    for (const resolve of this.#waiting.values()) resolve();
    this.#waiting.clear();
    if (!this.#closed) this.#log('change feed lost, caches off until it reconnects', error);
    client.end().catch(() => {});
  }

  #notified(payload: string): void {
    if (payload.startsWith(SYNC_PREFIX)) {
      this.#waiting.get(payload)?.();
      this.#waiting.delete(payload);
      return;
    }
    for (const cache of this.#caches) if (cache.tables.has(payload)) cache.clear();
  }

  #nextBarrier: Promise<void> | null = null;

  /**
   * Resolves once every change committed before the call has reached the caches, as
   * {@link settled}, with one barrier shared by all the calls made before it is sent (the next
   * turn of the event loop): a cache hit that must not outrun a change committed elsewhere
   * (a session revoked through another server, issue #32 C.3) costs one round trip on the
   * feed's connection, shared by the calls arriving together, instead of the full check.
   */
  caughtUp(): Promise<void> {
    if (!this.#nextBarrier) {
      this.#nextBarrier = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.#nextBarrier = null;
        // A feed lost meanwhile empties the caches: the waiting hit then reads the database.
        return this.settled().catch(() => {});
      });
    }
    return this.#nextBarrier;
  }

  /**
   * Resolves once every change committed before the call has reached the caches (a
   * notification of its own, sent after them, has come back: PostgreSQL delivers notifications
   * in commit order). For code that writes those tables behind the server's back — tests, a
   * second process — and then calls it. Resolves at once when the feed is down.
   */
  async settled(): Promise<void> {
    const client = this.#client;
    if (!client || !this.#live) return;
    const payload = `${SYNC_PREFIX}${randomUUID()}`;
    const back = new Promise<void>((resolve) => this.#waiting.set(payload, resolve));
    await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
    await back;
  }

  /** Stops listening; the caches serve nothing afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#connecting;
    const client = this.#client;
    this.#client = null;
    this.#live = false;
    for (const cache of this.#caches) cache.clear();
    for (const resolve of this.#waiting.values()) resolve();
    this.#waiting.clear();
    await client?.end().catch(() => {});
  }
}

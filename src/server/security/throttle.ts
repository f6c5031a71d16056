/**
 * Failures of secret checks (passwords, manager codes) counted in PostgreSQL (table
 * `auth_throttle`, migration 0010; issue #17 item 4; decision record 0020), so the counts hold
 * across restarts and are shared by every server instance on the database.
 *
 * Each counter is a (scope, subject) row: `account` (the login, lower case), `ip` (the client
 * address), `manager` (the id of the manager whose code was tried), `session` (the SHA-256 of
 * the caller's session token). Reaching a scope's limit within its window locks the subject for
 * a time that doubles with each lock-out up to a cap; the lock-out count decays to zero after a
 * quiet spell with no failure. Every change is one atomic statement (INSERT … ON CONFLICT DO
 * UPDATE … RETURNING), so two instances counting at once never lose a failure.
 *
 * Guarantees: callers check the lock BEFORE verifying the secret, so a locked subject answers
 * the same whether the secret was right or wrong (no oracle); writes go through the pool, never
 * the caller's transaction, so a failed request's rollback keeps its failure counted.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

/** What a counter counts failures of (see the module comment). */
export type ThrottleScope = 'account' | 'ip' | 'manager' | 'session';

/** One counter: a scope and its subject. */
export interface ThrottleKey {
  scope: ThrottleScope;
  subject: string;
}

/** The limits of one scope; all durations in seconds. */
export interface ThrottlePolicy {
  /** Failures within `windowSeconds` that lock the subject. */
  maxFailures: number;
  /** How long failures are remembered when no lock follows. */
  windowSeconds: number;
  /** The first lock-out's length; each further one doubles it. */
  lockSeconds: number;
  /** The longest lock-out. */
  maxLockSeconds: number;
  /** A subject with no failure for this long starts again from the first lock-out's length. */
  quietSeconds: number;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The limits of decision record 0020. `ip` takes its failure count from the settings
 * (COMPTOIR_LOGIN_FAILURES_PER_IP) through {@link throttlePolicies}.
 */
export const DEFAULT_POLICIES: Readonly<Record<ThrottleScope, ThrottlePolicy>> = {
  account: {
    maxFailures: 5,
    windowSeconds: 15 * MINUTE,
    lockSeconds: MINUTE,
    maxLockSeconds: HOUR,
    quietSeconds: DAY,
  },
  ip: {
    maxFailures: 50,
    windowSeconds: 10 * MINUTE,
    lockSeconds: 10 * MINUTE,
    maxLockSeconds: 10 * MINUTE,
    quietSeconds: DAY,
  },
  manager: {
    maxFailures: 5,
    windowSeconds: 15 * MINUTE,
    lockSeconds: MINUTE,
    maxLockSeconds: HOUR,
    quietSeconds: DAY,
  },
  session: {
    maxFailures: 10,
    windowSeconds: 15 * MINUTE,
    lockSeconds: 5 * MINUTE,
    maxLockSeconds: HOUR,
    quietSeconds: DAY,
  },
};

/** The policies with the per-address failure limit of the settings. */
export function throttlePolicies(ipFailures: number): Record<ThrottleScope, ThrottlePolicy> {
  return { ...DEFAULT_POLICIES, ip: { ...DEFAULT_POLICIES.ip, maxFailures: ipFailures } };
}

/** The longest subject kept as it is; longer ones are stored as their SHA-256. */
const MAX_SUBJECT = 200;

/** The counter of login `login`: lower case, so `Admin` and `admin` share it. */
export function accountKey(login: string): ThrottleKey {
  return { scope: 'account', subject: boundedSubject(login.normalize('NFC').toLowerCase()) };
}

/** The counter of client address `address`. */
export function ipKey(address: string): ThrottleKey {
  return { scope: 'ip', subject: boundedSubject(address) };
}

/** The counter of the manager code of user `managerId`. */
export function managerKey(managerId: number): ThrottleKey {
  return { scope: 'manager', subject: String(managerId) };
}

/** The counter of the session whose token hash is `tokenHash`. */
export function sessionKey(tokenHash: string): ThrottleKey {
  return { scope: 'session', subject: tokenHash };
}

function boundedSubject(subject: string): string {
  if (subject.length <= MAX_SUBJECT) return subject;
  return `sha256:${createHash('sha256').update(subject).digest('hex')}`;
}

/** What recording one failure did to its counter. */
export interface FailureOutcome {
  /** True when this failure locked the subject (the caller audit-logs it). */
  lockedNow: boolean;
  /** Seconds the subject stays locked (0 when it is not). */
  lockedSeconds: number;
  /** Lock-outs counted so far (after decay). */
  lockouts: number;
}

/**
 * One failure, atomically: a window past its time starts again, reaching the limit locks for
 * lockSeconds × 2^(lock-outs so far) (capped), lock-outs decay after the quiet spell, and a
 * failure counted while the subject is already locked (two calls racing past the check) changes
 * nothing. In SET, every column reads the row as it was, hence the repeated expressions.
 * $3 max failures, $4 window, $5 first lock, $6 longest lock, $7 quiet spell (seconds).
 */
const RECORD_FAILURE_SQL = `
INSERT INTO auth_throttle AS t (scope, subject, failures, window_start, locked_until, lockouts, updated_at)
VALUES ($1, $2,
        CASE WHEN $3::int <= 1 THEN 0 ELSE 1 END,
        now(),
        CASE WHEN $3::int <= 1 THEN now() + make_interval(secs => $5::int) END,
        CASE WHEN $3::int <= 1 THEN 1 ELSE 0 END,
        now())
ON CONFLICT (scope, subject) DO UPDATE SET
  failures = CASE
    WHEN t.locked_until > now() THEN t.failures
    WHEN (CASE WHEN t.window_start < now() - make_interval(secs => $4::int) THEN 0 ELSE t.failures END) + 1 >= $3::int THEN 0
    ELSE (CASE WHEN t.window_start < now() - make_interval(secs => $4::int) THEN 0 ELSE t.failures END) + 1 END,
  window_start = CASE
    WHEN t.locked_until > now() THEN t.window_start
    WHEN t.window_start < now() - make_interval(secs => $4::int) OR t.failures = 0 OR t.failures + 1 >= $3::int THEN now()
    ELSE t.window_start END,
  locked_until = CASE
    WHEN t.locked_until > now() THEN t.locked_until
    WHEN (CASE WHEN t.window_start < now() - make_interval(secs => $4::int) THEN 0 ELSE t.failures END) + 1 >= $3::int
      THEN now() + make_interval(secs => least($6::int, $5::int * power(2, least(
        CASE WHEN t.updated_at < now() - make_interval(secs => $7::int) THEN 0 ELSE t.lockouts END, 20))))
    ELSE t.locked_until END,
  lockouts = CASE
    WHEN t.locked_until > now() THEN t.lockouts
    WHEN (CASE WHEN t.window_start < now() - make_interval(secs => $4::int) THEN 0 ELSE t.failures END) + 1 >= $3::int
      THEN (CASE WHEN t.updated_at < now() - make_interval(secs => $7::int) THEN 0 ELSE t.lockouts END) + 1
    ELSE (CASE WHEN t.updated_at < now() - make_interval(secs => $7::int) THEN 0 ELSE t.lockouts END) END,
  updated_at = CASE WHEN t.locked_until > now() THEN t.updated_at ELSE now() END
RETURNING (locked_until > now() AND window_start = now() AND failures = 0) AS locked_now,
          greatest(0, ceil(extract(epoch FROM locked_until - now())))::int AS locked_seconds,
          lockouts`;

/** How often (ms) one process deletes counters nobody has failed on for a quiet spell. */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The brute-force counters of one server (stateless but for the prune clock: any number of
 * instances share the same rows).
 */
export class Throttle {
  readonly #db: Queryable;
  readonly #policies: Record<ThrottleScope, ThrottlePolicy>;
  #lastPrune = 0;

  /**
   * @param db the pool (never a transaction: a rolled-back request must keep its failure).
   * @param policies the limits per scope (default {@link DEFAULT_POLICIES}).
   */
  constructor(db: Queryable, policies: Record<ThrottleScope, ThrottlePolicy> = { ...DEFAULT_POLICIES }) {
    this.#db = db;
    this.#policies = policies;
  }

  /** The policy of `scope`. */
  policy(scope: ThrottleScope): ThrottlePolicy {
    return this.#policies[scope];
  }

  /** Seconds until the last of `keys` is unlocked; 0 when none is locked. */
  async lockedSeconds(keys: readonly ThrottleKey[]): Promise<number> {
    if (keys.length === 0) return 0;
    const { rows } = await this.#db.query<{ seconds: number | null }>(
      `SELECT max(ceil(extract(epoch FROM locked_until - now())))::int AS seconds
         FROM auth_throttle
        WHERE (scope, subject) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND locked_until > now()`,
      [keys.map((k) => k.scope), keys.map((k) => k.subject)],
    );
    return Math.max(0, rows[0]?.seconds ?? 0);
  }

  /**
   * Refuses the call when any of `keys` is locked; call it before verifying the secret.
   * @throws DomainError tooManyAttempts `TooManyRequests` (429, issue #17 item 4) with
   *   `details.retryAfterSeconds`, the seconds until every key is unlocked.
   */
  async requireUnlocked(keys: readonly ThrottleKey[]): Promise<void> {
    const seconds = await this.lockedSeconds(keys);
    if (seconds > 0) throw tooManyAttempts(seconds);
  }

  /** Counts one failure of `key` under its scope's policy. */
  async recordFailure(key: ThrottleKey): Promise<FailureOutcome> {
    const p = this.#policies[key.scope];
    const { rows } = await this.#db.query<{ locked_now: boolean; locked_seconds: number; lockouts: number }>(
      RECORD_FAILURE_SQL,
      [
        key.scope,
        key.subject,
        p.maxFailures,
        p.windowSeconds,
        p.lockSeconds,
        p.maxLockSeconds,
        p.quietSeconds,
      ],
    );
    await this.#pruneNow();
    const row = rows[0]!;
    return { lockedNow: row.locked_now, lockedSeconds: row.locked_seconds, lockouts: row.lockouts };
  }

  /**
   * Forgets the failures of `key` after a success. The lock-out count stays and decays after a
   * quiet spell, so an attacker who also knows one good secret cannot start the doubling again.
   */
  async clearFailures(key: ThrottleKey): Promise<void> {
    await this.#db.query(
      `UPDATE auth_throttle SET failures = 0, window_start = now()
        WHERE scope = $1 AND subject = $2 AND failures > 0`,
      [key.scope, key.subject],
    );
  }

  /** Deletes, at most every few minutes per process, the counters that no longer hold anything. */
  async #pruneNow(): Promise<void> {
    if (Date.now() - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = Date.now();
    await this.#db.query(
      `DELETE FROM auth_throttle
        WHERE updated_at < now() - make_interval(secs => $1::int)
          AND (locked_until IS NULL OR locked_until < now())`,
      [DAY],
    );
  }
}

/** The 429 of a locked subject: the same whatever the secret tried, so it tells nothing. */
export function tooManyAttempts(retryAfterSeconds: number): DomainError {
  return new DomainError('tooManyAttempts', 'TooManyRequests', 'too many failed attempts, retry later', {
    retryAfterSeconds,
  });
}

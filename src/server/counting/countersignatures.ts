/**
 * The manager countersignature of safe counts (SPEC.md §7 fluxfin/declare_et_en_attente_de_
 * signatures, fluxfin/contre_signe, bo/checkContreCode) and the manager codes behind it
 * (bo/setContreCode, ours).
 *
 * A manager code is 4 to 6 digits chosen by the manager and stored only as an argon2id hash
 * (`manager_codes`). A countersignature names the manager by login and proves their presence
 * with the code; the manager must hold COFFRE, have the site in their scope and not be the
 * person who counted. Every refusal is the same `BadManagerCode`, so the answer does not tell
 * which part was wrong.
 *
 * Guessing (issue #17 item 4, decision record 0020): a code is only checked for a manager of the
 * caller's sites (anyone else: 403 `Forbidden`, the code never looked at), failures are counted
 * in PostgreSQL per manager and per session (security/throttle.ts), and while either is locked
 * the check answers 429 `TooManyRequests` before the code is looked at.
 */
import { randomBytes } from 'node:crypto';
import type { SafeCount, SignaturesAnswer } from '../../contract/counting.ts';
import type pg from 'pg';
import { recordAudit } from '../audit/audit-log.ts';
import { siteScopeSql } from '../auth/scope.ts';
import { hashPassword, verifyPassword } from '../auth/users.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { managerKey, sessionKey, type Throttle } from '../security/throttle.ts';
import {
  requireSafeListPeriod,
  SAFE_COLUMNS,
  type SafeCountRow,
  safeCounts,
  toSafeCount,
} from './safe-counts.ts';

/** A manager whose code was checked. */
export interface Manager {
  userId: number;
  login: string;
}

/** argon2id hash of a random string nobody knows (see checkManagerCode). */
const DUMMY_HASH = await hashPassword(randomBytes(16).toString('hex'));

/** Who asks for a code check, and the counters it goes through. */
export interface CodeCheckCaller {
  /** The caller's site scope (session.siteIds): only managers sharing a site with it are checked. */
  siteIds: readonly number[];
  /** SHA-256 of the caller's session token: the `session` counter. */
  tokenHash: string;
  /** The caller's user id and address, for the audit entry of a lock-out. */
  userId: number;
  address: string;
  /** The counters, on the pool: a failure stays counted when the caller's transaction rolls back. */
  throttle: Throttle;
  /** The pool, for the lock-out's audit entry (outside the caller's transaction, like the count). */
  pool: pg.Pool;
}

interface ManagerRow {
  id: number;
  login: string;
  droits: string[];
  code_hash: string | null;
  site_ids: number[];
}

/** The refusal of a login that is not a manager of the caller's sites: the code is not checked. */
function notYourManager(): DomainError {
  return new DomainError('forbidden', 'Forbidden', "not a manager of the caller's sites");
}

/**
 * The manager of login `login` when `code` is their manager code, they hold COFFRE and (with
 * `siteId`) have that site in their scope; else null. `db` is a pool, a client or the caller's
 * transaction (reads only: the counts go through `caller.throttle`).
 * @throws DomainError forbidden `Forbidden` when `login` is not an active COFFRE holder sharing a
 *   site with `caller.siteIds` (unknown logins alike), before the code is looked at;
 *   tooManyAttempts `TooManyRequests` while the manager's or the session's counter is locked.
 */
export async function checkManagerCode(
  db: Queryable,
  login: string,
  code: string,
  caller: CodeCheckCaller,
  siteId?: number,
): Promise<Manager | null> {
  const { rows } = await db.query<ManagerRow>(
    `SELECT u.id, u.login, p.droits, mc.code_hash, ${siteScopeSql('u.id')} AS site_ids
       FROM users u JOIN profiles p ON p.id = u.profile_id LEFT JOIN manager_codes mc ON mc.user_id = u.id
      WHERE u.login = $1 AND u.active`,
    [login],
  );
  const manager = rows[0];
  if (!manager?.droits.includes('COFFRE') || !manager.site_ids.some((id) => caller.siteIds.includes(id))) {
    throw notYourManager();
  }
  const keys = [managerKey(manager.id), sessionKey(caller.tokenHash)] as const;
  await caller.throttle.requireUnlocked(keys);
  // Verify against a throwaway hash when there is no code, so timing does not tell it apart.
  const ok = await verifyPassword(manager.code_hash ?? DUMMY_HASH, code);
  if (!manager.code_hash || !ok) {
    await countCodeFailure(caller, manager);
    return null;
  }
  await caller.throttle.clearFailures(keys[0]);
  if (siteId !== undefined && !manager.site_ids.includes(siteId)) return null;
  return { userId: manager.id, login: manager.login };
}

/** Counts a wrong code against the manager and the session; audit-logs the manager's lock-out. */
async function countCodeFailure(caller: CodeCheckCaller, manager: ManagerRow): Promise<void> {
  const [byManager] = await Promise.all([
    caller.throttle.recordFailure(managerKey(manager.id)),
    caller.throttle.recordFailure(sessionKey(caller.tokenHash)),
  ]);
  if (!byManager.lockedNow) return;
  await recordAudit(
    caller.pool,
    { userId: caller.userId, address: caller.address },
    {
      action: 'user.managerCodeLockout',
      targetId: manager.id,
      after: { login: manager.login, lockouts: byManager.lockouts, lockedSeconds: byManager.lockedSeconds },
    },
  );
}

/** Sets (or replaces) the manager code of user `userId` (4 to 6 digits), stored as an argon2id hash. */
export async function setManagerCode(db: Queryable, userId: number, code: string): Promise<void> {
  const codeHash = await hashPassword(code);
  await db.query(
    `INSERT INTO manager_codes (user_id, code_hash, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (user_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, updated_at = now()`,
    [userId, codeHash],
  );
}

/**
 * The latest safe count of each site of `siteIds` and fiscal date of the period, with its
 * countersignature status (`CONTRE_SIGNE` or `EN_ATTENTE`).
 * @throws DomainError invalid `BadRequest` / `MaxReportDays` for a bad period (see requireSafeListPeriod).
 */
export async function signatureStatuses(
  db: Queryable,
  siteIds: readonly number[],
  dateDebut: string,
  dateFin: string,
): Promise<SignaturesAnswer> {
  requireSafeListPeriod(dateDebut, dateFin);
  const counts = await safeCounts(db, { siteIds, dateDebut, dateFin, latestOnly: true });
  return {
    data: counts.map((c) => ({
      ...c,
      status: c.countersignature ? ('CONTRE_SIGNE' as const) : ('EN_ATTENTE' as const),
    })),
  };
}

/**
 * A countersignature asked for: which count, by which manager, with which code and comment, and
 * who asks (the code check's counters and scope, {@link checkManagerCode}).
 */
export interface CountersignRequest {
  site: number;
  fiscalDate: string;
  managerLogin: string;
  managerCode: string;
  comment: string;
  caller: CodeCheckCaller;
}

/**
 * Countersigns the latest safe count of (site, fiscal date); `db` must be a transaction (the
 * count is locked until it ends). Answers the countersigned count.
 * @throws DomainError notFound `NotFound` (no count), conflict `AlreadyCountersigned`, invalid
 *   `BadManagerCode` (no code, wrong code, the site outside the manager's scope, or the counter
 *   themself); forbidden `Forbidden` and tooManyAttempts `TooManyRequests` from {@link checkManagerCode}.
 */
export async function countersignLatestSafeCount(
  db: Queryable,
  asked: CountersignRequest,
): Promise<SafeCount> {
  const { rows } = await db.query<SafeCountRow>(
    `SELECT ${SAFE_COLUMNS} FROM safe_counts c JOIN sites s ON s.id = c.site_id
      WHERE c.site_id = $1 AND c.fiscal_date = $2 ORDER BY c.version DESC LIMIT 1 FOR UPDATE OF c`,
    [asked.site, asked.fiscalDate],
  );
  const count = rows[0];
  if (!count) throw new DomainError('notFound', 'NotFound', 'no safe count for this site and fiscal date');
  if (count.countersigned_at !== null)
    throw new DomainError(
      'conflict',
      'AlreadyCountersigned',
      'the latest safe count is already countersigned',
    );
  const manager = await checkManagerCode(db, asked.managerLogin, asked.managerCode, asked.caller, asked.site);
  if (!manager || manager.userId === count.counted_by)
    throw new DomainError(
      'invalid',
      'BadManagerCode',
      'manager, code or rights do not allow this countersignature',
    );
  const { rows: signed } = await db.query<SafeCountRow>(
    `UPDATE safe_counts c SET countersigned_by = $3, countersigned_name = $4, countersign_comment = $5,
       countersigned_at = now()
      FROM sites s WHERE s.id = c.site_id AND c.site_id = $1 AND c.id = $2
      RETURNING ${SAFE_COLUMNS}`,
    [count.site_id, count.id, manager.userId, manager.login, asked.comment],
  );
  return toSafeCount(signed[0]!);
}

/**
 * The rules every change to users and profiles obeys (issue #18 "Rules and bad input"): who may
 * change what, valid e-mails and passwords (SPEC.md §5, one rule shared with the client in
 * contract/password.ts), references that exist, and the chain never left without an active
 * administrator (a user whose profile holds CONFIGURATION).
 *
 * The administrator count is taken under a transaction-scoped advisory lock, so two
 * administrators demoting each other at the same moment cannot both succeed and leave none.
 */
import { passwordProblems } from '../../contract/password.ts';
import type { AuditActor } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

/** The right that makes a user an administrator (SPEC.md §3). */
export const ADMINISTRATION_RIGHT = 'CONFIGURATION';

/**
 * Who makes an administration change: the signed-in user, their rights, their address (the
 * audit log's) and the hash of the token they call with (kept when they change their own password).
 */
export interface AdminActor extends AuditActor {
  userId: number;
  droits: readonly string[];
  tokenHash: string | null;
}

/** True when `droits` hold the administration right. */
export function isAdministrator(droits: readonly string[]): boolean {
  return droits.includes(ADMINISTRATION_RIGHT);
}

/** The refusal of a change the caller may not make (403). */
export function forbidden(message: string, details?: Record<string, unknown>): DomainError {
  return new DomainError('forbidden', 'Forbidden', message, details);
}

/**
 * @throws DomainError forbidden `Forbidden` when `actor` is not an administrator.
 */
export function requireAdministrator(actor: AdminActor): void {
  if (!isAdministrator(actor.droits)) throw forbidden(`needs the right ${ADMINISTRATION_RIGHT}`);
}

/** The refusal of a field's value (400 `InvalidField` with `details.field`). */
export function invalidField(field: string, message: string): DomainError {
  return new DomainError('invalid', 'InvalidField', message, { field });
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * An e-mail address as stored (trimmed).
 * @throws DomainError invalid `InvalidField` `{ field: 'email' }` when empty or not an address
 *   (SPEC.md §5: "E-mail required and valid").
 */
export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (!EMAIL.test(trimmed)) throw invalidField('email', 'not a valid e-mail address');
  return trimmed;
}

/**
 * Checks a new password and its confirmation (SPEC.md §5).
 * @throws DomainError invalid `PasswordPolicy` with `details.problems` (contract/password.ts)
 *   when it breaks the policy; `PasswordMismatch` when `confirmation` is given and differs.
 */
export function checkNewPassword(password: string, confirmation: string | undefined): void {
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw new DomainError('invalid', 'PasswordPolicy', 'password rejected by the policy', { problems });
  }
  if (confirmation !== undefined && confirmation !== password) {
    throw new DomainError('invalid', 'PasswordMismatch', 'password and confirmation differ');
  }
}

/**
 * The rights of profile `profileId`.
 * @throws DomainError invalid `InvalidField` `{ field: 'profileId' }` when there is no such profile.
 */
export async function profileRights(db: Queryable, profileId: number): Promise<string[]> {
  const { rows } = await db.query<{ droits: string[] }>('SELECT droits FROM profiles WHERE id = $1', [
    profileId,
  ]);
  if (!rows[0]) throw invalidField('profileId', `no profile ${profileId}`);
  return rows[0].droits;
}

/**
 * Checks that every id of `ids` names a row of `table` (`companies` or `sites`).
 * @throws DomainError invalid `InvalidField` `{ field }` naming the unknown ids in the message.
 */
export async function checkIdsExist(
  db: Queryable,
  table: 'companies' | 'sites',
  ids: readonly number[],
  field: string,
): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await db.query<{ missing: number[] }>(
    `SELECT coalesce(array_agg(x ORDER BY x), '{}') AS missing FROM unnest($1::int[]) x
      WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.id = x)`,
    [[...new Set(ids)]],
  );
  const missing = rows[0]?.missing ?? [];
  if (missing.length > 0) throw invalidField(field, `unknown ${table}: ${missing.join(', ')}`);
}

/**
 * Takes the administrators' lock for the rest of `db`'s transaction and counts the active
 * users whose profile holds CONFIGURATION. Call it before a change that may demote,
 * deactivate or remove one, then {@link checkAdministratorsLeft} after it.
 */
export async function lockAdministrators(db: Queryable): Promise<number> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('comptoir.administrators'))`);
  return countAdministrators(db);
}

async function countAdministrators(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users u JOIN profiles p ON p.id = u.profile_id
      WHERE u.active AND $1 = ANY(p.droits)`,
    [ADMINISTRATION_RIGHT],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Refuses a change made in `db`'s transaction that left no active administrator where there
 * were `before` of them.
 * @throws DomainError conflict `LastAdministrator` (the caller's transaction then rolls back).
 */
export async function checkAdministratorsLeft(db: Queryable, before: number): Promise<void> {
  if (before > 0 && (await countAdministrators(db)) === 0) {
    throw new DomainError(
      'conflict',
      'LastAdministrator',
      'the change would leave no active user holding CONFIGURATION',
    );
  }
}

/**
 * The refusal of an administrator removing, deactivating or demoting themselves (409): when
 * they are the only active administrator (`administrators` ≤ 1) the refusal says that
 * (`LastAdministrator`), which is what they must fix first; else `SelfChange`.
 */
export function selfChange(message: string, administrators: number): DomainError {
  if (administrators <= 1) {
    return new DomainError('conflict', 'LastAdministrator', `${message}: the only active administrator`);
  }
  return new DomainError('conflict', 'SelfChange', message);
}

/**
 * Who may see and change rules, recipients and subscriptions (issue #28): an administrator
 * (CONFIGURATION) every row; any other user (RAPPORTS) only the rows they own. Another user's row
 * is `NotFound`, exactly as one that does not exist, so ids leak nothing.
 */
import type { AuditActor } from '../audit/audit-log.ts';
import { DomainError } from '../errors.ts';

/** The user acting, their rights as far as these rows go, and where they act from (audit). */
export interface Actor extends AuditActor {
  userId: number;
  /** Holds CONFIGURATION: sees and changes every row. */
  admin: boolean;
}

/** The actor of a signed-in user with rights `droits`, calling from `address`. */
export function actorOf(
  session: { userId: number; droits: readonly string[] },
  address: string | null,
): Actor {
  return { userId: session.userId, admin: session.droits.includes('CONFIGURATION'), address };
}

/**
 * SQL condition on a row's `owner_id` column `column`: true for an administrator, the actor's own
 * rows otherwise. `$n` is the parameter holding the actor's user id (null for an administrator).
 */
export function ownedSql(column: string, param: string): string {
  return `(${param}::int IS NULL OR ${column} = ${param}::int)`;
}

/** The value of the {@link ownedSql} parameter for `actor`. */
export function ownerFilter(actor: Actor): number | null {
  return actor.admin ? null : actor.userId;
}

/** The error of a row the actor cannot see. */
export function notFound(what: string, id: number): DomainError {
  return new DomainError('notFound', 'NotFound', `no ${what} ${id}`);
}

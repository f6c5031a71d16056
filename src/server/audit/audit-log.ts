/**
 * The audit log (issue #18: "every administration change is written to an audit log — who, when,
 * what, before → after, from which address — in the same transaction"). Rows are only added: the
 * table refuses UPDATE, DELETE and TRUNCATE (migration 0009), and no route writes to it except
 * through the change it records.
 */
import type { Queryable } from '../db/queryable.ts';

/** Who made a change and from where: the signed-in user (null for an anonymous reset) and their IP. */
export interface AuditActor {
  userId: number | null;
  /** The caller's IP address as Fastify reports it (`request.ip`). */
  address: string | null;
}

/**
 * One change. `action` is `<kind>.<verb>`, e.g. `user.create`, `profile.save`, `group.remove`,
 * `user.passwordReset`; `targetId` the changed row's id; `before` / `after` its fields before and
 * after the change (null on create / remove). Never put a password, hash, key or code in them.
 */
export interface AuditChange {
  action: string;
  targetId: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Appends one entry to the audit log. Call it with the transaction that makes the change, so the
 * entry and the change commit or roll back together.
 * @throws the database's error when the insert fails (the caller's transaction then fails too).
 */
export async function recordAudit(db: Queryable, actor: AuditActor, change: AuditChange): Promise<void> {
  const kind = change.action.split('.')[0] ?? change.action;
  await db.query(
    `INSERT INTO audit_log (user_id, action, kind, target_id, before, after, address)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      actor.userId,
      change.action,
      kind,
      change.targetId === null ? null : String(change.targetId),
      change.before ?? null,
      change.after ?? null,
      actor.address,
    ],
  );
}

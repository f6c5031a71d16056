/**
 * Removing a user (SPEC.md §7 GET bo/infra/removeUtilisateur?id, issue #18).
 *
 * What goes with the user, by the foreign keys of db/schema*.ts: their sessions, favourites,
 * reset keys and message dismissals (cascade); their report editions stay with no author (set
 * null). Rows that only carry the author's id without a key (cash and safe counts,
 * countersignatures, receipts, idempotency keys, mail sends, the audit log) keep it: they are the
 * chain's records, and the audit log tells who that id was (`user.remove` keeps the login).
 *
 * Guarantees: nobody removes themselves (`SelfChange`) nor the last active administrator
 * (`LastAdministrator`); the delete and its audit entry share the caller's transaction.
 */
import { recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import {
  type AdminActor,
  checkAdministratorsLeft,
  lockAdministrators,
  requireAdministrator,
  selfChange,
} from './user-guards.ts';
import { requireUser, userAuditView } from './users.ts';
import { adminReach, requireUserAdministered } from './admin-scope.ts';

/**
 * Removes user `id` and writes `user.remove` (the user's fields as `before`), in `db`'s transaction.
 * @throws DomainError forbidden `Forbidden` (actor without CONFIGURATION); notFound `NotFound`;
 *   conflict `SelfChange`, `LastAdministrator`.
 */
export async function removeUtilisateur(db: Queryable, actor: AdminActor, id: number): Promise<void> {
  requireAdministrator(actor);
  const administrators = await lockAdministrators(db);
  if (actor.userId === id) throw selfChange('cannot remove oneself', administrators);
  const user = await requireUser(db, id);
  // Only a user within the administrator's scope (issue #32 C.2).
  await requireUserAdministered(db, await adminReach(db, actor), id);
  await db.query('DELETE FROM users WHERE id = $1', [id]);
  await checkAdministratorsLeft(db, administrators);
  await recordAudit(db, actor, { action: 'user.remove', targetId: id, before: userAuditView(user) });
}

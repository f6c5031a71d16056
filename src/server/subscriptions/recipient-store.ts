/**
 * Recipients of report e-mails (contract/subscriptions.ts): a Comptoir user (their address at
 * the time of the run) or a plain address, with a language. A user who is not an administrator
 * may name only themselves as a user recipient (they cannot list other users); plain addresses
 * are free. Changes are audit-logged; removing a recipient takes it off every subscription.
 */
import type { z } from 'zod';
import type { Recipient, RecipientSaveBodySchema } from '../../contract/subscriptions.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { type Actor, notFound, ownedSql, ownerFilter } from './access.ts';

/** A recipient to save, as the contract parsed it. */
export type RecipientToSave = z.output<typeof RecipientSaveBodySchema>;

const RECIPIENT_SELECT = `SELECT r.id, r.owner_id AS "proprietaireId", r.user_id AS "utilisateurId", r.email,
       r.language AS langue, coalesce(u.email, r.email) AS adresse, coalesce(u.login, r.email) AS libelle
  FROM report_recipients r LEFT JOIN users u ON u.id = r.user_id`;

/** The recipients the actor may see, by name. */
export async function listRecipients(db: Queryable, actor: Actor): Promise<Recipient[]> {
  const { rows } = await db.query<Recipient>(
    `${RECIPIENT_SELECT} WHERE ${ownedSql('r.owner_id', '$1')} ORDER BY 7, r.id`,
    [ownerFilter(actor)],
  );
  return rows;
}

/**
 * Recipient `id` if the actor may see it.
 * @throws DomainError notFound otherwise.
 */
export async function findRecipient(db: Queryable, actor: Actor, id: number): Promise<Recipient> {
  const { rows } = await db.query<Recipient>(
    `${RECIPIENT_SELECT} WHERE r.id = $2 AND ${ownedSql('r.owner_id', '$1')}`,
    [ownerFilter(actor), id],
  );
  if (!rows[0]) throw notFound('recipient', id);
  return rows[0];
}

/**
 * Creates (no `id`) or replaces a recipient; audit `recipient.create` / `recipient.save`.
 * @throws DomainError notFound for a recipient the actor may not see, or a user that does not
 *   exist; forbidden when a non-administrator names another user.
 */
export async function saveRecipient(
  tx: Queryable,
  actor: Actor,
  recipient: RecipientToSave,
): Promise<Recipient> {
  const userId = recipient.utilisateurId;
  if (userId !== null) {
    if (!actor.admin && userId !== actor.userId)
      throw new DomainError('forbidden', 'Forbidden', 'only an administrator may name another user');
    const { rowCount } = await tx.query('SELECT 1 FROM users WHERE id = $1', [userId]);
    if (!rowCount) throw notFound('user', userId);
  }
  const email = userId === null ? recipient.email : null;
  if (recipient.id === undefined) {
    const { rows } = await tx.query<{ id: number }>(
      'INSERT INTO report_recipients (owner_id, user_id, email, language) VALUES ($1, $2, $3, $4) RETURNING id',
      [actor.userId, userId, email, recipient.langue],
    );
    const saved = await findRecipient(tx, actor, rows[0]!.id);
    await recordAudit(tx, actor, { action: 'recipient.create', targetId: saved.id, after: saved });
    return saved;
  }
  const before = await findRecipient(tx, actor, recipient.id);
  await tx.query('UPDATE report_recipients SET user_id = $1, email = $2, language = $3 WHERE id = $4', [
    userId,
    email,
    recipient.langue,
    recipient.id,
  ]);
  const saved = await findRecipient(tx, actor, recipient.id);
  await recordAudit(tx, actor, { action: 'recipient.save', targetId: saved.id, before, after: saved });
  return saved;
}

/**
 * Removes recipient `id` (and from every subscription); audit `recipient.remove`.
 * @throws DomainError notFound for a recipient the actor may not see.
 */
export async function removeRecipient(tx: Queryable, actor: Actor, id: number): Promise<void> {
  const before = await findRecipient(tx, actor, id);
  await tx.query('DELETE FROM report_recipients WHERE id = $1', [id]);
  await recordAudit(tx, actor, { action: 'recipient.remove', targetId: id, before });
}

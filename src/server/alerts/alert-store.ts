/**
 * Alerts as rows (issue #28 "Alerts", src/contract/alerts.ts): list, save, remove, each change
 * audit-logged. Who sees what is the subscriptions' rule (subscriptions/access.ts): CONFIGURATION
 * every alert, anyone else only their own; another's alert is `NotFound`. Its rule and recipients
 * must be within the actor's reach; its sites within its owner's scope (others dropped).
 */
import type { z } from 'zod';
import type { Alert, AlertSaveBodySchema } from '../../contract/alerts.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { siteScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { type Actor, notFound, ownedSql, ownerFilter } from '../subscriptions/access.ts';
import { findRecipient } from '../subscriptions/recipient-store.ts';
import { findRule } from '../subscriptions/rule-store.ts';

/** An alert to save, as the contract parsed it. */
export type AlertToSave = z.output<typeof AlertSaveBodySchema>;

const ALERT_SELECT = `SELECT a.id, a.owner_id AS "proprietaireId", u.login AS proprietaire, a.libelle, a.kind AS type,
       a.sites, a.rule_id AS "regleId", a.active,
       coalesce((SELECT array_agg(ar.recipient_id ORDER BY ar.recipient_id) FROM alert_recipients ar
                  WHERE ar.alert_id = a.id), '{}') AS destinataires
  FROM alerts a LEFT JOIN users u ON u.id = a.owner_id`;

/** The alerts the actor may see, by name then id. */
export async function listAlerts(db: Queryable, actor: Actor): Promise<Alert[]> {
  const { rows } = await db.query<Alert>(
    `${ALERT_SELECT} WHERE ${ownedSql('a.owner_id', '$1')} ORDER BY a.libelle, a.id`,
    [ownerFilter(actor)],
  );
  return rows;
}

/**
 * Alert `id` if the actor may see it (`actor` null: any alert, for a job).
 * @throws DomainError notFound otherwise.
 */
export async function findAlert(db: Queryable, actor: Actor | null, id: number): Promise<Alert> {
  const { rows } = await db.query<Alert>(
    `${ALERT_SELECT} WHERE a.id = $2 AND ${ownedSql('a.owner_id', '$1')}`,
    [actor ? ownerFilter(actor) : null, id],
  );
  if (!rows[0]) throw notFound('alert', id);
  return rows[0];
}

/**
 * Checks what an alert of owner `ownerId` names: its rule and recipients within the actor's reach,
 * its sites within the owner's scope (others dropped).
 * @throws DomainError notFound for a rule or recipient out of reach; invalid `NoSitesSelected`
 *   when none of the sites is in the owner's scope.
 */
async function checkedAlert(
  tx: Queryable,
  actor: Actor,
  ownerId: number,
  a: AlertToSave,
): Promise<AlertToSave> {
  await findRule(tx, actor, a.regleId);
  for (const id of new Set(a.destinataires)) await findRecipient(tx, actor, id);
  const scope = new Set(await siteScope(tx, ownerId));
  const sites = [...new Set(a.sites)].filter((id) => scope.has(id)).sort((x, y) => x - y);
  if (sites.length === 0)
    throw new DomainError('invalid', 'NoSitesSelected', "none of the chosen sites is in the owner's scope");
  return { ...a, sites, destinataires: [...new Set(a.destinataires)] };
}

async function setRecipients(tx: Queryable, id: number, recipients: number[]): Promise<void> {
  await tx.query('DELETE FROM alert_recipients WHERE alert_id = $1', [id]);
  await tx.query('INSERT INTO alert_recipients (alert_id, recipient_id) SELECT $1::int, unnest($2::int[])', [
    id,
    recipients,
  ]);
}

/**
 * Creates (no `id`: owned by the actor) or replaces an alert; audit `alert.create` / `alert.save`.
 * @throws DomainError of {@link checkedAlert}; notFound for an alert out of reach.
 */
export async function saveAlert(tx: Queryable, actor: Actor, body: AlertToSave): Promise<Alert> {
  if (body.id === undefined) {
    const a = await checkedAlert(tx, actor, actor.userId, body);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO alerts (owner_id, libelle, kind, sites, rule_id, active) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [actor.userId, a.libelle, a.type, a.sites, a.regleId, a.active],
    );
    const id = rows[0]!.id;
    await setRecipients(tx, id, a.destinataires);
    const saved = await findAlert(tx, actor, id);
    await recordAudit(tx, actor, { action: 'alert.create', targetId: id, after: saved });
    return saved;
  }
  const before = await findAlert(tx, actor, body.id);
  const a = await checkedAlert(tx, actor, before.proprietaireId ?? actor.userId, body);
  await tx.query(
    `UPDATE alerts SET libelle = $1, kind = $2, sites = $3, rule_id = $4, active = $5, updated_at = now() WHERE id = $6`,
    [a.libelle, a.type, a.sites, a.regleId, a.active, body.id],
  );
  await setRecipients(tx, body.id, a.destinataires);
  const saved = await findAlert(tx, actor, body.id);
  await recordAudit(tx, actor, { action: 'alert.save', targetId: body.id, before, after: saved });
  return saved;
}

/**
 * Removes alert `id`; audit `alert.remove`.
 * @throws DomainError notFound for an alert out of reach.
 */
export async function removeAlert(tx: Queryable, actor: Actor, id: number): Promise<void> {
  const before = await findAlert(tx, actor, id);
  await tx.query('DELETE FROM alerts WHERE id = $1', [id]);
  await recordAudit(tx, actor, { action: 'alert.remove', targetId: id, before });
}

/**
 * Recurrence rules (SPEC.md §6, contract/subscriptions.ts): listed, saved and removed for the
 * actor's rights (access.ts), every change audit-logged in the same transaction. A rule still
 * used by a subscription cannot be removed (`InUse`).
 */
import type { Rule, RuleSaveBodySchema } from '../../contract/subscriptions.ts';
import type { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { type Actor, notFound, ownedSql, ownerFilter } from './access.ts';

/** A rule to save, as the contract parsed it. */
export type RuleToSave = z.output<typeof RuleSaveBodySchema>;

const RULE_COLUMNS = `id, owner_id AS "proprietaireId", libelle, type, week_days AS jours,
  month_day AS "jourDuMois", last_day AS "dernierJour", hour AS heure, minute, active`;

/** The rules the actor may see, by name. */
export async function listRules(db: Queryable, actor: Actor): Promise<Rule[]> {
  const { rows } = await db.query<Rule>(
    `SELECT ${RULE_COLUMNS} FROM report_rules WHERE ${ownedSql('owner_id', '$1')} ORDER BY libelle, id`,
    [ownerFilter(actor)],
  );
  return rows;
}

/**
 * Rule `id` if the actor may see it.
 * @throws DomainError notFound otherwise.
 */
export async function findRule(db: Queryable, actor: Actor, id: number): Promise<Rule> {
  const { rows } = await db.query<Rule>(
    `SELECT ${RULE_COLUMNS} FROM report_rules WHERE id = $2 AND ${ownedSql('owner_id', '$1')}`,
    [ownerFilter(actor), id],
  );
  if (!rows[0]) throw notFound('rule', id);
  return rows[0];
}

/**
 * Creates the rule (no `id`: owned by the actor) or replaces rule `id`; audit `rule.create` or
 * `rule.save`.
 * @throws DomainError notFound for a rule the actor may not see.
 */
export async function saveRule(tx: Queryable, actor: Actor, rule: RuleToSave): Promise<Rule> {
  const values = [
    rule.libelle,
    rule.type,
    rule.type === 'WEEKLY' ? [...new Set(rule.jours)].sort() : [],
    rule.type === 'MONTHLY' && !rule.dernierJour ? rule.jourDuMois : null,
    rule.type === 'MONTHLY' && rule.dernierJour,
    rule.heure,
    rule.minute,
    rule.active,
  ];
  if (rule.id === undefined) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO report_rules (libelle, type, week_days, month_day, last_day, hour, minute, active, owner_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [...values, actor.userId],
    );
    const saved = await findRule(tx, actor, rows[0]!.id);
    await recordAudit(tx, actor, { action: 'rule.create', targetId: saved.id, after: saved });
    return saved;
  }
  const before = await findRule(tx, actor, rule.id);
  await tx.query(
    `UPDATE report_rules SET libelle = $1, type = $2, week_days = $3, month_day = $4, last_day = $5,
            hour = $6, minute = $7, active = $8 WHERE id = $9`,
    [...values, rule.id],
  );
  const saved = await findRule(tx, actor, rule.id);
  await recordAudit(tx, actor, { action: 'rule.save', targetId: saved.id, before, after: saved });
  return saved;
}

/**
 * Removes rule `id`; audit `rule.remove`.
 * @throws DomainError notFound for a rule the actor may not see; conflict `InUse` with
 *   `details.abonnements` while subscriptions use it.
 */
export async function removeRule(tx: Queryable, actor: Actor, id: number): Promise<void> {
  const before = await findRule(tx, actor, id);
  const { rows } = await tx.query<{ id: number }>('SELECT id FROM report_subscriptions WHERE rule_id = $1', [
    id,
  ]);
  if (rows.length > 0) {
    throw new DomainError('conflict', 'InUse', `rule ${id} is used by subscriptions`, {
      abonnements: rows.map((r) => r.id),
    });
  }
  await tx.query('DELETE FROM report_rules WHERE id = $1', [id]);
  await recordAudit(tx, actor, { action: 'rule.remove', targetId: id, before });
}

/**
 * Subscriptions (contract/subscriptions.ts): listed, saved and removed for the actor's rights
 * (access.ts), every change audit-logged in the same transaction.
 *
 * Guarantees: a subscription names only a rule and recipients its actor may see, and a favourite
 * of its owner; its chosen sites are kept within the owner's scope when saved (and the run
 * narrows them again to the scope of that day, run.ts). Saving again never undoes an
 * unsubscribe: a recipient who used the mail's link stays off until removed and added again.
 * It is `suspendu` while its owner is gone, deactivated or without RAPPORTS.
 */
import type { z } from 'zod';
import {
  type Subscription,
  SubscriptionReportSchema,
  type SubscriptionRun,
  SubscriptionRunSchema,
  type SubscriptionSaveBodySchema,
} from '../../contract/subscriptions.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { siteScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { type JobRun, listRuns } from '../jobs/run-records.ts';
import { type Actor, notFound, ownedSql, ownerFilter } from './access.ts';
import { findRecipient } from './recipient-store.ts';
import { findRule } from './rule-store.ts';

/** A subscription to save, as the contract parsed it. */
export type SubscriptionToSave = z.output<typeof SubscriptionSaveBodySchema>;

interface SubscriptionRow {
  id: number;
  proprietaireId: number | null;
  proprietaire: string | null;
  suspendu: boolean;
  libelle: string;
  regleId: number;
  rapport: unknown;
  formats: Subscription['formats'];
  siDonnees: boolean;
  active: boolean;
  dernierEnvoi: unknown;
  dernierRun: JobRunJson | null;
  destinataires: number[];
  desabonnes: number[];
}

/** The job kind of a subscription's run (jobs/kinds.ts registers it; run.ts runs it). */
export const SUBSCRIPTION_RUN_KIND = 'subscription.run';

/** A `job_runs` row as the list's JSON subquery gives it (snake_case, instants as strings). */
interface JobRunJson {
  status: JobRun['status'];
  attempts: number;
  error: string | null;
  files: JobRun['files'];
  mails: number;
  planned_at: string;
  ended_at: string | null;
}

/**
 * SQL: whether the owner of subscription `s` (joined as `u`, profile `p`) can no longer run it.
 * Shared with the due source (due.ts) so a suspended subscription is never queued.
 */
export const SUSPENDED_SQL = `(u.id IS NULL OR NOT u.active OR NOT ('RAPPORTS' = ANY(p.droits)))`;

const SUBSCRIPTION_SELECT = `SELECT s.id, s.owner_id AS "proprietaireId", u.login AS proprietaire,
       ${SUSPENDED_SQL} AS suspendu, s.libelle, s.rule_id AS "regleId", s.report AS rapport, s.formats,
       s.only_with_data AS "siDonnees", s.active, s.last_run AS "dernierEnvoi",
       (SELECT to_jsonb(j) FROM (SELECT status, attempts, error, files, mails, planned_at, ended_at
                                   FROM job_runs
                                  WHERE kind = '${SUBSCRIPTION_RUN_KIND}'
                                    AND data @> jsonb_build_object('subscriptionId', s.id)
                                  ORDER BY queued_at DESC, id DESC LIMIT 1) j) AS "dernierRun",
       coalesce((SELECT array_agg(sr.recipient_id ORDER BY sr.recipient_id)
                   FROM report_subscription_recipients sr WHERE sr.subscription_id = s.id), '{}') AS destinataires,
       coalesce((SELECT array_agg(sr.recipient_id ORDER BY sr.recipient_id)
                   FROM report_subscription_recipients sr
                  WHERE sr.subscription_id = s.id AND sr.unsubscribed_at IS NOT NULL), '{}') AS desabonnes
  FROM report_subscriptions s
  LEFT JOIN users u ON u.id = s.owner_id
  LEFT JOIN profiles p ON p.id = u.profile_id`;

function toSubscription({ dernierRun, dernierEnvoi, ...row }: SubscriptionRow): Subscription {
  return {
    ...row,
    rapport: SubscriptionReportSchema.parse(row.rapport),
    dernierEnvoi:
      dernierRun === null
        ? null
        : historyEntry(
            {
              ...dernierRun,
              plannedAt: new Date(dernierRun.planned_at),
              endedAt: dernierRun.ended_at === null ? null : new Date(dernierRun.ended_at),
            },
            dernierEnvoi,
          ),
  };
}

/** What `last_run` keeps: the outcome of the last run that ended (run.ts). */
const LastOutcomeSchema = SubscriptionRunSchema.pick({ planifie: true, statut: true });

/**
 * One run of the history from its `job_runs` record. A run that succeeded is SENT when it
 * recorded files (a report with data always has one); otherwise EMPTY or SUSPENDED as the
 * subscription's `last_run` recorded it for that planned minute, and EMPTY for an older one whose
 * outcome was overwritten since (an older SUSPENDED run then shows EMPTY: both sent no file).
 */
function historyEntry(
  run: Pick<JobRun, 'status' | 'attempts' | 'error' | 'files' | 'mails' | 'plannedAt' | 'endedAt'>,
  lastRun: unknown,
): SubscriptionRun {
  const planifie = run.plannedAt.toISOString();
  const last = LastOutcomeSchema.safeParse(lastRun);
  const outcome =
    run.files.length > 0
      ? 'SENT'
      : last.success && last.data.planifie === planifie
        ? last.data.statut
        : 'EMPTY';
  const statut = (
    {
      queued: 'QUEUED',
      running: 'RUNNING',
      retrying: 'RETRYING',
      failed: 'FAILED',
      succeeded: outcome,
    } as const
  )[run.status];
  return {
    planifie,
    termine: run.endedAt?.toISOString() ?? null,
    statut,
    tentatives: run.attempts,
    mails: run.mails,
    fichiers: run.files.map((f) => ({ nom: f.name, octets: f.bytes })),
    erreur: run.error,
  };
}

/** The subscriptions the actor may see, by name. */
export async function listSubscriptions(db: Queryable, actor: Actor): Promise<Subscription[]> {
  const { rows } = await db.query<SubscriptionRow>(
    `${SUBSCRIPTION_SELECT} WHERE ${ownedSql('s.owner_id', '$1')} ORDER BY s.libelle, s.id`,
    [ownerFilter(actor)],
  );
  return rows.map(toSubscription);
}

/**
 * Subscription `id` if the actor may see it (`actor` null: any, for the run).
 * @throws DomainError notFound otherwise.
 */
export async function findSubscription(
  db: Queryable,
  actor: Actor | null,
  id: number,
): Promise<Subscription> {
  const { rows } = await db.query<SubscriptionRow>(
    `${SUBSCRIPTION_SELECT} WHERE s.id = $2 AND ${ownedSql('s.owner_id', '$1')}`,
    [actor ? ownerFilter(actor) : null, id],
  );
  if (!rows[0]) throw notFound('subscription', id);
  return toSubscription(rows[0]);
}

/**
 * Checks what a subscription of owner `ownerId` names: its rule and recipients visible to the
 * actor, its favourite the owner's, its sites within the owner's scope (others dropped).
 * @throws DomainError notFound for a rule, recipient or favourite out of reach; invalid
 *   `NoSitesSelected` when sites were chosen and none is in the owner's scope.
 */
async function checkedSubscription(
  tx: Queryable,
  actor: Actor,
  ownerId: number,
  s: SubscriptionToSave,
): Promise<SubscriptionToSave> {
  await findRule(tx, actor, s.regleId);
  for (const id of new Set(s.destinataires)) await findRecipient(tx, actor, id);
  const { favoriId } = s.rapport;
  if (favoriId !== null) {
    const { rowCount } = await tx.query('SELECT 1 FROM favourites WHERE id = $1 AND user_id = $2', [
      favoriId,
      ownerId,
    ]);
    if (!rowCount) throw notFound('favourite', favoriId);
  }
  const scope = new Set(await siteScope(tx, ownerId));
  const lSites = s.rapport.lSites.filter((id) => scope.has(id));
  if (s.rapport.lSites.length > 0 && lSites.length === 0)
    throw new DomainError('invalid', 'NoSitesSelected', "none of the chosen sites is in the owner's scope");
  return { ...s, destinataires: [...new Set(s.destinataires)], rapport: { ...s.rapport, lSites } };
}

/** Sets the recipients of subscription `id` to `recipients`, keeping the unsubscribed marks of those kept. */
async function setRecipients(tx: Queryable, id: number, recipients: number[]): Promise<void> {
  await tx.query(
    'DELETE FROM report_subscription_recipients WHERE subscription_id = $1 AND NOT recipient_id = ANY($2::int[])',
    [id, recipients],
  );
  await tx.query(
    `INSERT INTO report_subscription_recipients (subscription_id, recipient_id)
     SELECT $1::int, unnest($2::int[]) ON CONFLICT DO NOTHING`,
    [id, recipients],
  );
}

/** The audited fields of a subscription (its run history left out). */
function audited(s: Subscription): Record<string, unknown> {
  const { dernierEnvoi: _run, ...rest } = s;
  return rest;
}

/**
 * The owner a save gives the subscription: `asked` (the body's `proprietaireId`) when given,
 * else `current` (the actor for a new one; null for one whose owner was removed). Only an
 * administrator may give it to anyone else.
 * @throws DomainError forbidden `Forbidden` for a non-administrator changing it; notFound for
 *   an unknown user.
 */
async function ownerOfSave<Current extends number | null>(
  tx: Queryable,
  actor: Actor,
  current: Current,
  asked: number | undefined,
): Promise<Current | number> {
  if (asked === undefined || asked === current) return current;
  if (!actor.admin)
    throw new DomainError('forbidden', 'Forbidden', 'only an administrator changes the owner');
  const { rowCount } = await tx.query('SELECT 1 FROM users WHERE id = $1', [asked]);
  if (!rowCount) throw notFound('user', asked);
  return asked;
}

/**
 * Creates (no `id`: owned by the actor) or replaces a subscription; audit `subscription.create`
 * or `subscription.save` (before and after, owner included). An administrator may set another
 * owner (`proprietaireId`); the sites are then kept within that owner's scope.
 * @throws DomainError of {@link checkedSubscription} and {@link ownerOfSave}; notFound for a
 *   subscription out of reach.
 */
export async function saveSubscription(
  tx: Queryable,
  actor: Actor,
  body: SubscriptionToSave,
): Promise<Subscription> {
  if (body.id === undefined) {
    const owner = await ownerOfSave(tx, actor, actor.userId, body.proprietaireId);
    const s = await checkedSubscription(tx, actor, owner, body);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO report_subscriptions (owner_id, libelle, rule_id, report, formats, only_with_data, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [owner, s.libelle, s.regleId, s.rapport, s.formats, s.siDonnees, s.active],
    );
    const id = rows[0]!.id;
    await setRecipients(tx, id, s.destinataires);
    const saved = await findSubscription(tx, actor, id);
    await recordAudit(tx, actor, { action: 'subscription.create', targetId: id, after: audited(saved) });
    return saved;
  }
  const before = await findSubscription(tx, actor, body.id);
  const owner = await ownerOfSave(tx, actor, before.proprietaireId, body.proprietaireId);
  const s = await checkedSubscription(tx, actor, owner ?? actor.userId, body);
  await tx.query(
    `UPDATE report_subscriptions SET libelle = $1, rule_id = $2, report = $3, formats = $4, only_with_data = $5,
            active = $6, owner_id = $8, updated_at = now() WHERE id = $7`,
    [s.libelle, s.regleId, s.rapport, s.formats, s.siDonnees, s.active, body.id, owner],
  );
  await setRecipients(tx, body.id, s.destinataires);
  const saved = await findSubscription(tx, actor, body.id);
  await recordAudit(tx, actor, {
    action: 'subscription.save',
    targetId: body.id,
    before: audited(before),
    after: audited(saved),
  });
  return saved;
}

/**
 * Removes subscription `id`; audit `subscription.remove`.
 * @throws DomainError notFound for a subscription out of reach.
 */
export async function removeSubscription(tx: Queryable, actor: Actor, id: number): Promise<void> {
  const before = await findSubscription(tx, actor, id);
  await tx.query('DELETE FROM report_subscriptions WHERE id = $1', [id]);
  await recordAudit(tx, actor, { action: 'subscription.remove', targetId: id, before: audited(before) });
}

/**
 * Records what the last run of subscription `id` did (its planned minute and outcome), which
 * its `job_runs` record cannot say (SENT, EMPTY or SUSPENDED all succeed).
 */
export async function recordLastRun(db: Queryable, id: number, run: SubscriptionRun): Promise<void> {
  await db.query('UPDATE report_subscriptions SET last_run = $2 WHERE id = $1', [id, run]);
}

/**
 * The runs of subscription `id`, newest queued first (at most `limit`, 1–500): the job queue's
 * records (`job_runs`, kind `subscription.run`) with their status, tries, error, files and mails.
 */
export async function subscriptionRuns(
  db: Queryable,
  subscriptionId: number,
  limit = 50,
): Promise<SubscriptionRun[]> {
  const runs = await listRuns(db, { kind: SUBSCRIPTION_RUN_KIND, data: { subscriptionId }, limit });
  const { rows } = await db.query<{ last_run: unknown }>(
    'SELECT last_run FROM report_subscriptions WHERE id = $1',
    [subscriptionId],
  );
  return runs.map((run) => historyEntry(run, rows[0]?.last_run));
}

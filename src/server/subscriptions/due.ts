/**
 * The `subscriptions` due source (jobs/contract.ts): asked every minute by the queue's clock,
 * it lists the active, not suspended subscriptions whose active rule fires in (from, to], each
 * evaluated in the subscription's time zone (report-input.ts), with the singleton key
 * `subscription:<id>:<plannedAt ISO>` so a minute asked twice queues each run once. Pure over the
 * database: it reads and writes nothing else.
 */
import type pg from 'pg';
import type { DueItem, DueSource } from '../jobs/contract.ts';
import { type DueRuleRow, occurrencesBetween } from './occurrences.ts';
import { SUBSCRIPTION_ZONES_SQL, subscriptionTimeZone } from './report-input.ts';
import { SUBSCRIPTION_RUN, type SubscriptionRunData } from './run.ts';
import { SUSPENDED_SQL } from './subscription-store.ts';

type DueRow = DueRuleRow;

/** The subscription runs due in (`from`, `to`], by planned time then subscription id. */
export async function dueSubscriptions(
  pool: pg.Pool,
  from: Date,
  to: Date,
): Promise<DueItem<SubscriptionRunData>[]> {
  const { rows } = await pool.query<DueRow>(
    `SELECT s.id, r.type, r.week_days AS jours, r.month_day AS "jourDuMois", r.last_day AS "dernierJour",
            r.hour AS heure, r.minute, ${SUBSCRIPTION_ZONES_SQL} AS zones
       FROM report_subscriptions s
       JOIN report_rules r ON r.id = s.rule_id
       LEFT JOIN users u ON u.id = s.owner_id
       LEFT JOIN profiles p ON p.id = u.profile_id
       LEFT JOIN favourites f ON f.id = (s.report->>'favoriId')::int AND f.user_id = s.owner_id
      WHERE s.active AND r.active AND NOT ${SUSPENDED_SQL}`,
  );
  const items: DueItem<SubscriptionRunData>[] = [];
  for (const row of rows) {
    for (const plannedAt of occurrencesBetween(row, subscriptionTimeZone(row.zones), from, to)) {
      const iso = plannedAt.toISOString();
      items.push({
        kind: SUBSCRIPTION_RUN,
        data: { subscriptionId: row.id, plannedAt: iso },
        plannedAt,
        singletonKey: `subscription:${row.id}:${iso}`,
      });
    }
  }
  return items.sort(
    (a, b) => a.plannedAt.getTime() - b.plannedAt.getTime() || a.data.subscriptionId - b.data.subscriptionId,
  );
}

/** The due source the queue asks every minute. */
export const subscriptionsDueSource: DueSource = { name: 'subscriptions', due: dueSubscriptions };

/**
 * The `alerts` due source (jobs/contract.ts): asked every minute by the queue's clock, it lists
 * the active alerts whose active rule fires in (from, to], evaluated in the time zone of the
 * alert's sites (their one zone, else the chain's: subscriptions/report-input.ts), with the
 * singleton key `alert:<id>:<plannedAt ISO>` so a minute asked twice queues each check once.
 * Pure over the database.
 */
import type pg from 'pg';
import type { DueItem, DueSource } from '../jobs/contract.ts';
import { type DueRuleRow, occurrencesBetween } from '../subscriptions/occurrences.ts';
import { subscriptionTimeZone } from '../subscriptions/report-input.ts';
import { ALERT_CHECK, type AlertCheckData } from './check.ts';

type DueRow = DueRuleRow;

/** The alert checks due in (`from`, `to`], by planned time then alert id. */
export async function dueAlerts(pool: pg.Pool, from: Date, to: Date): Promise<DueItem<AlertCheckData>[]> {
  const { rows } = await pool.query<DueRow>(
    `SELECT a.id, r.type, r.week_days AS jours, r.month_day AS "jourDuMois", r.last_day AS "dernierJour",
            r.hour AS heure, r.minute,
            (SELECT coalesce(array_agg(DISTINCT st.time_zone ORDER BY st.time_zone), '{}')
               FROM sites st WHERE st.id = ANY(a.sites)) AS zones
       FROM alerts a JOIN report_rules r ON r.id = a.rule_id
      WHERE a.active AND r.active AND a.owner_id IS NOT NULL`,
  );
  const items: DueItem<AlertCheckData>[] = [];
  for (const row of rows) {
    for (const plannedAt of occurrencesBetween(row, subscriptionTimeZone(row.zones), from, to)) {
      const iso = plannedAt.toISOString();
      items.push({
        kind: ALERT_CHECK,
        data: { alertId: row.id, plannedAt: iso },
        plannedAt,
        singletonKey: `alert:${row.id}:${iso}`,
      });
    }
  }
  return items.sort(
    (a, b) => a.plannedAt.getTime() - b.plannedAt.getTime() || a.data.alertId - b.data.alertId,
  );
}

/** The due source the queue asks every minute. */
export const alertsDueSource: DueSource = { name: 'alerts', due: dueAlerts };

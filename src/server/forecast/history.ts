/**
 * Reads one site's history for the forecast engine (engine.ts SiteHistory) from the per-day
 * aggregates: `daily_sales` for the daily totals, `daily_hour_sales` folded into the day parts
 * of contract/day-parts.ts, and the site's local events (migration 0010). Three indexed reads of
 * at most a few thousand rows per site: no table or index of its own is needed. Dates are read
 * as text in SQL, so the answer does not depend on the pool's type parsers (amounts: Number of the bigint text).
 */
import { DAY_PARTS } from '../../contract/day-parts.ts';
import type { Queryable } from '../db/queryable.ts';
import { dayOf } from './calendar.ts';
import type { SiteEvent, SiteHistory } from './engine.ts';
import { holidayPlace, publicHolidays } from './holidays.ts';

/** SQL CASE giving the DAY_PARTS index of column `hour`. */
const DAY_PART_CASE = `CASE ${DAY_PARTS.map(
  (p, i) => `WHEN hour >= ${p.fromHour} AND hour < ${p.toHour} THEN ${i}`,
).join(' ')} END`;

/**
 * The factor an event applies to expected sales: Positive r % → 1 + r/100, Negative r % →
 * max(0, 1 − r/100) (SPEC.md §9 impact types; rate 0–1000 by migration 0010's check).
 */
export function eventFactor(impactType: string, impactRate: number): number {
  return impactType === 'Negative' ? Math.max(0, 1 - impactRate / 100) : 1 + impactRate / 100;
}

/**
 * The whole history of site `siteId`, its events and the public holidays of its country
 * (holidays.ts) from its first year of sales to the year after `today` (a day number; default
 * the current year).
 */
export async function readSiteHistory(db: Queryable, siteId: number, today?: number): Promise<SiteHistory> {
  const [totals, parts, events, site] = await Promise.all([
    db.query<{ fiscal_date: string; net: number }>(
      'SELECT fiscal_date::text, net_cents AS net FROM daily_sales WHERE site_id = $1',
      [siteId],
    ),
    db.query<{ fiscal_date: string; part: number; net: number }>(
      `SELECT fiscal_date::text, ${DAY_PART_CASE} AS part, sum(net_cents)::bigint AS net
         FROM daily_hour_sales WHERE site_id = $1 GROUP BY 1, 2`,
      [siteId],
    ),
    db.query<{
      uuid: string;
      start_date: string;
      end_date: string;
      impact_type: string;
      impact_rate: string;
    }>(
      `SELECT e.uuid, e.start_date::text, e.end_date::text, e.impact_type, e.impact_rate::text
         FROM local_events e JOIN local_event_sites s ON s.event_uuid = e.uuid
        WHERE s.site_id = $1`,
      [siteId],
    ),
    db.query<{ time_zone: string; extras: Record<string, unknown> | null }>(
      'SELECT time_zone, extras FROM sites WHERE id = $1',
      [siteId],
    ),
  ]);
  const totalMap = new Map(totals.rows.map((r) => [dayOf(r.fiscal_date), Number(r.net)]));
  let firstYear = Number.POSITIVE_INFINITY;
  for (const r of totals.rows) firstYear = Math.min(firstYear, Number(r.fiscal_date.slice(0, 4)));
  const lastYear = (today === undefined ? new Date() : new Date(today * 86_400_000)).getUTCFullYear() + 1;
  const place = site.rows[0]
    ? holidayPlace(site.rows[0].extras, site.rows[0].time_zone)
    : holidayPlace(null, 'Europe/Paris');
  const holidays = publicHolidays(
    place,
    Number.isFinite(firstYear) ? Math.min(firstYear, lastYear - 1) : lastYear - 1,
    lastYear,
  );
  const partMap = new Map<number, number[]>();
  for (const r of parts.rows) {
    const day = dayOf(r.fiscal_date);
    let row = partMap.get(day);
    if (!row) {
      row = new Array<number>(DAY_PARTS.length).fill(0);
      partMap.set(day, row);
    }
    row[r.part] = Number(r.net);
  }
  return {
    totals: totalMap,
    holidays,
    parts: partMap,
    events: events.rows.map(
      (r): SiteEvent => ({
        uuid: r.uuid,
        startDay: dayOf(r.start_date),
        endDay: dayOf(r.end_date),
        factor: eventFactor(r.impact_type, Number(r.impact_rate)),
      }),
    ),
  };
}

/**
 * What an alert looks for (issue #28 "Alerts", src/contract/alerts.ts), per site and fiscal date:
 * the findings that need a person. Each reader returns nothing when all is well, so the check
 * (check.ts) mails only when a finding exists.
 *
 * - {@link missingCounts}: the terminals that sold on the day without a cash count, and the safe
 *   count when the site sold without one (the same reading as the home dashboard's `coffre`
 *   widget, home/home-safe.ts, through counting/).
 * - {@link dayOutsideForecast}: the day's net sales outside the 80 % range of the forecast made
 *   the day before (forecast/forecast.ts with "today" on that day: the model sees only the data
 *   before it).
 */
import { cashCounts } from '../counting/cash-counts.ts';
import { safeCounts } from '../counting/safe-counts.ts';
import type { Queryable } from '../db/queryable.ts';
import { forecastSites } from '../forecast/forecast.ts';

/** A count missing for a site on a fiscal date. */
export interface MissingCounts {
  /** Terminal numbers (caisse) that sold without a cash count, ascending. */
  terminals: number[];
  /** The site sold and has no safe count for the day. */
  safe: boolean;
}

/**
 * The counts of `siteId` missing for `fiscalDate` (`YYYY-MM-DD`), or null when none is missing
 * (a day without sales needs no count).
 */
export async function missingCounts(
  db: Queryable,
  siteId: number,
  fiscalDate: string,
): Promise<MissingCounts | null> {
  const filter = { siteIds: [siteId], dateDebut: fiscalDate, dateFin: fiscalDate, latestOnly: true };
  const [{ rows: sold }, cash, safe] = await Promise.all([
    db.query<{ terminal_id: number }>(
      `SELECT terminal_id FROM daily_terminal_sales
        WHERE site_id = $1 AND fiscal_date = $2 AND terminal_id IS NOT NULL AND (tickets > 0 OR net_cents <> 0)
        ORDER BY terminal_id`,
      [siteId, fiscalDate],
    ),
    cashCounts(db, filter),
    safeCounts(db, filter),
  ]);
  if (sold.length === 0) return null;
  const counted = new Set(cash.map((c) => c.caisse));
  const terminals = sold.map((r) => r.terminal_id).filter((t) => !counted.has(t));
  const missing = { terminals, safe: safe.length === 0 };
  return missing.terminals.length > 0 || missing.safe ? missing : null;
}

/** A day whose net sales fell outside the forecast's 80 % range (cents incl. VAT). */
export interface DayOutsideForecast {
  actualCents: number;
  forecastCents: number;
  lowCents: number;
  highCents: number;
}

/**
 * Net sales of `siteId` on `fiscalDate` against the forecast made the day before (the model of
 * `dayBefore`, an instant on the previous fiscal day), or null when they are inside the 80 %
 * range, the site is unknown, or the forecast has no range for the day.
 */
export async function dayOutsideForecast(
  db: Queryable,
  siteId: number,
  fiscalDate: string,
  dayBefore: Date,
): Promise<DayOutsideForecast | null> {
  const [site] = await forecastSites(db, {
    siteIds: [siteId],
    from: fiscalDate,
    to: fiscalDate,
    now: dayBefore,
  });
  const day = site?.days[0];
  if (day?.lowCents === undefined || day.highCents === undefined) return null;
  const { lowCents, highCents } = day;
  const { rows } = await db.query<{ net: string }>(
    'SELECT net_cents AS net FROM daily_sales WHERE site_id = $1 AND fiscal_date = $2',
    [siteId, fiscalDate],
  );
  const actualCents = Number(rows[0]?.net ?? 0);
  if (actualCents >= lowCents && actualCents <= highCents) return null;
  return { actualCents, forecastCents: day.forecastCents, lowCents, highCents };
}

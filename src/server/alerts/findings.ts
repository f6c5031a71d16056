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
 * - {@link newAnomalies}: the anomalies (anomalies/, decision 0019) of the
 *   {@link DEFAULT_PERIOD_DAYS} days ending on the day — what /anomalies shows for that period —
 *   that the same period ending the day before did not show.
 */
import { subDays } from 'date-fns/subDays';
import {
  ANOMALY_THRESHOLD,
  type AnomalyEntityKind,
  type AnomalyMeasure,
  DEFAULT_PERIOD_DAYS,
  HISTORY_WEEKS,
} from '../../contract/anomalies.ts';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import { readAnomalySeries, readEntityNames } from '../anomalies/anomaly-reads.ts';
import { detectAnomalies, type Finding } from '../anomalies/detect.ts';
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

/** An anomaly seen on a day that the day before did not show (rates as contract/anomalies.ts). */
export interface NewAnomaly {
  kind: AnomalyEntityKind;
  /** Seller code, or terminal number as text. */
  key: string;
  /** Seller's name or terminal's label; the key when unknown. */
  name: string;
  measure: AnomalyMeasure;
  value: number;
  peerMedian: number;
  peerScope: 'site' | 'chain';
  historyMedian: number;
  historyWeeks: number;
}

/** The new anomalies of a site on a day, and the period they were found over (wire dates). */
export interface NewAnomalies {
  dateDebut: string;
  dateFin: string;
  anomalies: NewAnomaly[];
}

/** `days` days before the wire date `date`, as a wire date. */
function daysBefore(date: string, days: number): string {
  return toWireDate(subDays(parseWireDate(date)!, days));
}

/** The findings of `siteId` over the {@link DEFAULT_PERIOD_DAYS} days ending `dateFin`. */
async function siteFindings(db: Queryable, siteId: number, dateFin: string): Promise<Finding[]> {
  const dateDebut = daysBefore(dateFin, DEFAULT_PERIOD_DAYS - 1);
  const historyDebut = daysBefore(dateDebut, HISTORY_WEEKS * 7);
  const series = await readAnomalySeries(db, { siteIds: [siteId], dateDebut, dateFin, historyDebut });
  return detectAnomalies(series, ANOMALY_THRESHOLD);
}

const findingKey = (f: Finding) => `${f.series.kind}|${f.series.key}|${f.series.measure}`;

/**
 * The anomalies of `siteId` over the {@link DEFAULT_PERIOD_DAYS} days ending `fiscalDate`
 * (`YYYY-MM-DD`, the /anomalies screen's default period ending that day) that the period ending
 * the day before did not show (same entity and measure), most severe first; null when there is
 * none. Only the site's own sellers and terminals are peers (a one-site reading).
 */
export async function newAnomalies(
  db: Queryable,
  siteId: number,
  fiscalDate: string,
): Promise<NewAnomalies | null> {
  const today = await siteFindings(db, siteId, fiscalDate);
  if (today.length === 0) return null;
  const before = new Set((await siteFindings(db, siteId, daysBefore(fiscalDate, 1))).map(findingKey));
  const fresh = today.filter((f) => !before.has(findingKey(f)));
  if (fresh.length === 0) return null;
  const names = await readEntityNames(db, [siteId]);
  return {
    dateDebut: daysBefore(fiscalDate, DEFAULT_PERIOD_DAYS - 1),
    dateFin: fiscalDate,
    anomalies: fresh.map((f) => ({
      kind: f.series.kind,
      key: f.series.key,
      name: names.get(`${siteId}|${f.series.kind}|${f.series.key}`) ?? f.series.key,
      measure: f.series.measure,
      value: f.value,
      peerMedian: f.peer.median,
      peerScope: f.peer.scope,
      historyMedian: f.history.median,
      historyWeeks: f.history.weeks,
    })),
  };
}

/**
 * The tracker (issue #19 "/tracker"; GET bo/bi/tracker): each chosen site's sales today, hour by
 * hour (`daily_hour_sales`, kept by every load), beside the same weekday 364 days earlier and
 * the day's forecast when there is one, and the sites ranked by today's sales so far.
 *
 * "Today" is each site's own fiscal date (reference/fiscal-date.ts). "The same time last year"
 * compares like for like, as the home dashboard's sales card does (decision 0028,
 * reference/fiscal-hours.ts): today's hours already over against the same hours a year earlier,
 * on the site's own clock from its business-day start; the current hour, under way today and
 * complete a year ago, counts on neither side (`netSoFarCents`, `lastYearSameTimeCents`, `until`).
 */
import { subDays } from 'date-fns/subDays';
import type { BiTrackerAnswer, BiTrackerSite } from '../../contract/bi.ts';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import type { Queryable } from '../db/queryable.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';
import { hoursSoFar } from '../reference/fiscal-hours.ts';
import { dayForecast } from './bi-forecast.ts';
import { type BiSite, biSites, YEAR_SHIFT_DAYS } from './bi-sites.ts';

/** What {@link tracker} answers for. */
export interface TrackerRequest {
  sites: readonly number[];
  scope: readonly number[];
  /** The instant "now" (default: the clock). */
  now?: Date;
  /** Today's forecast net sales (cents) per site, or null; default the chain's (bi/bi-forecast.ts dayForecast). */
  forecast?: (
    sites: readonly { siteId: number; fiscalDate: string }[],
  ) => Promise<Map<number, number> | null>;
}

interface HourRow {
  site_id: number;
  fiscal_date: string;
  hour: number;
  tickets: number;
  net_cents: number;
}

/** One site's tracker from its hour rows of today and of last year. */
function siteTracker(site: BiSite, today: string, lastYear: string, rows: readonly HourRow[], now: Date) {
  const mine = rows.filter((r) => r.site_id === site.id);
  const at = (date: string, hour: number) => mine.find((r) => r.fiscal_date === date && r.hour === hour);
  const hours = Array.from({ length: 24 }, (_, hour) => {
    const cur = at(today, hour);
    const before = at(lastYear, hour);
    const lastYearCents = Number(before?.net_cents ?? 0);
    return { hour, netCents: Number(cur?.net_cents ?? 0), tickets: Number(cur?.tickets ?? 0), lastYearCents };
  });
  const soFar = hoursSoFar(now, site, today);
  const over = hours.filter((h) => soFar.hours.includes(h.hour));
  return {
    siteId: site.id,
    libelle: site.libelle,
    fiscalDate: today,
    hours,
    netCents: hours.reduce((t, h) => t + h.netCents, 0),
    netSoFarCents: over.reduce((t, h) => t + h.netCents, 0),
    lastYearSameTimeCents: over.reduce((t, h) => t + h.lastYearCents, 0),
    until: soFar.until,
    lastYearDayCents: hours.reduce((t, h) => t + h.lastYearCents, 0),
  };
}

/**
 * The tracker of the chosen sites of the scope at `request.now`, sites ranked by today's sales
 * (highest first, rank 1).
 * @throws DomainError the errors of biSites (`Forbidden`, `NoSitesSelected`, `mixedCurrencies`).
 */
export async function tracker(db: Queryable, request: TrackerRequest): Promise<BiTrackerAnswer> {
  const now = request.now ?? new Date();
  const { sites, currency } = await biSites(db, request.sites, request.scope);
  const days = sites.map((s) => {
    const today = currentFiscalDate(now, s.timeZone, s.dayStart);
    return { site: s, today, lastYear: toWireDate(subDays(parseWireDate(today)!, YEAR_SHIFT_DAYS)) };
  });
  const [{ rows }, forecast] = await Promise.all([
    db.query<HourRow>(
      `SELECT h.site_id, h.fiscal_date::text AS fiscal_date, h.hour, h.tickets, h.net_cents
         FROM daily_hour_sales h
         JOIN unnest($1::int[], $2::date[]) AS w(site_id, fiscal_date)
           ON w.site_id = h.site_id AND w.fiscal_date = h.fiscal_date`,
      [days.flatMap((d) => [d.site.id, d.site.id]), days.flatMap((d) => [d.today, d.lastYear])],
    ),
    (request.forecast ?? ((wanted) => dayForecast(db, wanted)))(
      days.map((d) => ({ siteId: d.site.id, fiscalDate: d.today })),
    ),
  ]);
  const list = days.map((d) => siteTracker(d.site, d.today, d.lastYear, rows, now));
  const ranked = [...list].sort((a, b) => b.netCents - a.netCents || a.siteId - b.siteId);
  const sitesOut: BiTrackerSite[] = ranked.map((s, i) => ({
    ...s,
    forecastCents: forecast?.get(s.siteId) ?? null,
    rank: i + 1,
  }));
  return { data: { currency, refreshedAt: now.toISOString(), sites: sitesOut } };
}

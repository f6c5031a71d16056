/**
 * The `ventes` widget of the home dashboard (SPEC.md §7 GET bo/home/{widget}, issue #19): the
 * chosen sites' sales of datePerso so far against its forecast and against the same weekday a
 * year earlier (364 days back: same weekday, so a Saturday meets a Saturday), by day part
 * (SPEC.md §9, contract/day-parts.ts), and the day before. Day parts and covers come from
 * `daily_hour_sales` (three fiscal dates × 24 hours per site at most, whatever the number of
 * tickets) and the day totals of `daily_sales`, both kept by every load with the tickets
 * (db/aggregates.ts), plus the forecast's own reads.
 *
 * Like for like (decision 0028): while datePerso is still under way at a site, today so far is
 * also compared with last year's same day up to the same hour of that site's own clock, counting
 * only the hours fully elapsed on both sides (the current hour on neither), from
 * `daily_hour_sales`.
 */
import { DAY_PARTS, dayPartOfHour, type DayPartKey } from '../../contract/day-parts.ts';
import type { HomeDay, HomeSalesAnswer } from '../../contract/home.ts';
import type { SiteFacts } from '../counting/sites.ts';
import type { Queryable } from '../db/queryable.ts';
import { hoursSoFar } from '../reference/fiscal-hours.ts';
import { dayForecast } from './home-forecast.ts';
import { type HomeRequest, requireWidgetRight, shiftDate, widgetContext } from './widget-context.ts';

/** Days back to the same weekday a year earlier (52 weeks). */
export const LAST_YEAR_DAYS = 364;

/** One site's hour of one fiscal date (`daily_hour_sales`). */
interface HourRow {
  site_id: number;
  fiscal_date: string;
  hour: number;
  tickets: number;
  covers: number;
  net: number;
}

interface DayRow {
  fiscal_date: string;
  tickets: number;
  net: number;
}

/** A day's figures from its tickets, net sales (cents incl. VAT) and covers; average ticket `round(net / tickets)` (0 without a ticket). */
function homeDay(fiscalDate: string, tickets: number, netSales: number, covers: number): HomeDay {
  return {
    fiscalDate,
    tickets,
    netSales,
    covers,
    averageTicket: tickets > 0 ? Math.round(netSales / tickets) : 0,
  };
}

/** A day's figures: tickets and net sales from `daily_sales`, covers from its hours ({@link homeDay}). */
function dayOf(fiscalDate: string, totals: readonly DayRow[], hours: readonly HourRow[]): HomeDay {
  const total = totals.find((r) => r.fiscal_date === fiscalDate);
  const covers = hours.reduce((sum, r) => (r.fiscal_date === fiscalDate ? sum + r.covers : sum), 0);
  return homeDay(fiscalDate, total?.tickets ?? 0, total?.net ?? 0, covers);
}

/** Net sales (cents) per day part of `rows`. */
function byDayPart(rows: readonly HourRow[]): Map<DayPartKey, number> {
  const out = new Map<DayPartKey, number>();
  for (const r of rows) {
    const key = dayPartOfHour(r.hour);
    out.set(key, (out.get(key) ?? 0) + r.net);
  }
  return out;
}

/**
 * Today so far and last year up to the same hours (contract/home.ts `soFar`) from the sites'
 * `hours`, or null when `day` is under way at none of the sites. Each site counts its own
 * {@link hoursSoFar}; `until` is null when the sites under way stop at different hours (several
 * time zones or day starts).
 */
function salesSoFar(
  sites: readonly SiteFacts[],
  hours: readonly HourRow[],
  day: string,
  lastYear: string,
  now: Date,
): HomeSalesAnswer['data']['soFar'] {
  const cuts = new Map(sites.map((s) => [s.id, hoursSoFar(now, s, day)]));
  const ends = new Set([...cuts.values()].flatMap((c) => (c.until === null ? [] : [c.until])));
  if (ends.size === 0) return null;
  const soFarDay = (fiscalDate: string): HomeDay => {
    const over = hours.filter(
      (r) => r.fiscal_date === fiscalDate && cuts.get(r.site_id)?.hours.includes(r.hour) === true,
    );
    const sum = (pick: (r: HourRow) => number) => over.reduce((total, r) => total + pick(r), 0);
    return homeDay(
      fiscalDate,
      sum((r) => r.tickets),
      sum((r) => r.net),
      sum((r) => r.covers),
    );
  };
  return {
    until: ends.size === 1 ? [...ends][0]! : null,
    today: soFarDay(day),
    lastYear: soFarDay(lastYear),
  };
}

/**
 * The `ventes` widget (contract/home.ts HomeSalesAnswerSchema): datePerso-1 and datePerso, the
 * same weekday {@link LAST_YEAR_DAYS} days earlier, and datePerso's day parts against last year
 * and the forecast (null where the forecast has none), and `soFar` (see salesSoFar; "now" is
 * `request.now`, default the clock). Days without sales answer zeros.
 * @throws DomainError forbidden `Forbidden` without RAPPORTS or BI (issue #17 item 8), and the
 *   errors of {@link widgetContext} (sites outside the scope, no site).
 */
export async function homeSales(db: Queryable, request: HomeRequest): Promise<HomeSalesAnswer> {
  requireWidgetRight('ventes', request.rights);
  const now = request.now ?? new Date();
  const ctx = await widgetContext(db, { ...request, now });
  const day = ctx.fiscalDate;
  const previous = shiftDate(day, -1);
  const lastYear = shiftDate(day, -LAST_YEAR_DAYS);
  const dates = [previous, day, lastYear];
  const [{ rows: totals }, { rows: hours }, forecast] = await Promise.all([
    db.query<DayRow>(
      `SELECT fiscal_date, sum(tickets)::bigint AS tickets, sum(net_cents)::bigint AS net
         FROM daily_sales WHERE site_id = ANY($1) AND fiscal_date = ANY($2::date[])
        GROUP BY fiscal_date`,
      [ctx.siteIds, dates],
    ),
    // Per site: the like-for-like comparison counts each site's own hours (salesSoFar).
    db.query<HourRow>(
      `SELECT site_id, fiscal_date, hour, sum(tickets)::bigint AS tickets, sum(covers)::bigint AS covers,
              sum(net_cents)::bigint AS net
         FROM daily_hour_sales WHERE site_id = ANY($1) AND fiscal_date = ANY($2::date[])
        GROUP BY site_id, fiscal_date, hour`,
      [ctx.siteIds, dates],
    ),
    dayForecast(db, ctx.siteIds, day),
  ]);
  const today = byDayPart(hours.filter((r) => r.fiscal_date === day));
  const before = byDayPart(hours.filter((r) => r.fiscal_date === lastYear));
  return {
    data: {
      currency: ctx.currency,
      days: [dayOf(previous, totals, hours), dayOf(day, totals, hours)],
      lastYear: dayOf(lastYear, totals, hours),
      soFar: salesSoFar(ctx.sites, hours, day, lastYear, now),
      forecastCents: forecast?.totalCents ?? null,
      dayParts: DAY_PARTS.map((p) => ({
        key: p.key,
        netSales: today.get(p.key) ?? 0,
        lastYearNetSales: before.get(p.key) ?? 0,
        forecastCents: forecast ? (forecast.dayParts.get(p.key) ?? 0) : null,
      })),
    },
  };
}

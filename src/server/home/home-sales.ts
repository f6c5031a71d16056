/**
 * The `ventes` widget of the home dashboard (SPEC.md §7 GET bo/home/{widget}, issue #19): the
 * chosen sites' sales of datePerso so far against its forecast and against the same weekday a
 * year earlier (364 days back: same weekday, so a Saturday meets a Saturday), by day part
 * (SPEC.md §9, contract/day-parts.ts), and the day before. Day parts and covers come from
 * `daily_hour_sales` (three fiscal dates × 24 hours per site at most, whatever the number of
 * tickets) and the day totals of `daily_sales`, both kept by every load with the tickets
 * (db/aggregates.ts), plus the forecast's own reads.
 */
import { DAY_PARTS, dayPartOfHour, type DayPartKey } from '../../contract/day-parts.ts';
import type { HomeDay, HomeSalesAnswer } from '../../contract/home.ts';
import type { Queryable } from '../db/queryable.ts';
import { dayForecast } from './home-forecast.ts';
import { type HomeRequest, requireWidgetRight, shiftDate, widgetContext } from './widget-context.ts';

/** Days back to the same weekday a year earlier (52 weeks). */
export const LAST_YEAR_DAYS = 364;

interface HourRow {
  fiscal_date: string;
  hour: number;
  covers: number;
  net: number;
}

interface DayRow {
  fiscal_date: string;
  tickets: number;
  net: number;
}

/**
 * A day's figures: tickets and net sales (cents incl. VAT) from `daily_sales`, covers from its
 * hours, average ticket `round(net / tickets)` (0 without a ticket).
 */
function dayOf(fiscalDate: string, totals: readonly DayRow[], hours: readonly HourRow[]): HomeDay {
  const total = totals.find((r) => r.fiscal_date === fiscalDate);
  const tickets = total?.tickets ?? 0;
  const netSales = total?.net ?? 0;
  const covers = hours.reduce((sum, r) => (r.fiscal_date === fiscalDate ? sum + r.covers : sum), 0);
  return {
    fiscalDate,
    tickets,
    netSales,
    covers,
    averageTicket: tickets > 0 ? Math.round(netSales / tickets) : 0,
  };
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
 * The `ventes` widget (contract/home.ts HomeSalesAnswerSchema): datePerso-1 and datePerso, the
 * same weekday {@link LAST_YEAR_DAYS} days earlier, and datePerso's day parts against last year
 * and the forecast (null where the forecast has none). Days without sales answer zeros.
 * @throws DomainError forbidden `Forbidden` without RAPPORTS or BI (issue #17 item 8), and the
 *   errors of {@link widgetContext} (sites outside the scope, no site).
 */
export async function homeSales(db: Queryable, request: HomeRequest): Promise<HomeSalesAnswer> {
  requireWidgetRight('ventes', request.rights);
  const ctx = await widgetContext(db, request);
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
    db.query<HourRow>(
      `SELECT fiscal_date, hour, sum(covers)::bigint AS covers, sum(net_cents)::bigint AS net
         FROM daily_hour_sales WHERE site_id = ANY($1) AND fiscal_date = ANY($2::date[])
        GROUP BY fiscal_date, hour`,
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

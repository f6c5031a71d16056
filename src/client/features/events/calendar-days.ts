/**
 * What the calendar shows of each day, computed apart from the components: the period a view
 * covers, the events of a day, the forecast of the chosen sites summed for a day, and one
 * reliability figure for those sites (contract/forecast.ts: WAPE of the last 8 weeks' backtest),
 * and the same per day part (SPEC.md §9), which is what a manager staffs a service by.
 *
 * Several sites have several WAPEs; the figure shown beside a sum is their mean weighted by each
 * site's forecast over the period shown, so a big site's reliability counts for what it weighs in
 * the sum. For one site it is that site's WAPE exactly.
 *
 * Ranges (issue #31): the 80 % range of a sum over sites is the sum ± the root of the summed
 * squares of each site's distances to its own range's ends (sites' errors taken as independent);
 * for one site it is that site's range exactly. Answers saved before issue #31 have no range:
 * then none is given.
 */
import { addDays } from 'date-fns/addDays';
import { endOfMonth } from 'date-fns/endOfMonth';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfWeek } from 'date-fns/startOfWeek';
import { parseWireDate, toWireDate } from '../../../contract/dates.ts';
import { DAY_PARTS, type DayPartKey } from '../../../contract/day-parts.ts';
import type { LocalEvent } from '../../../contract/events.ts';
import { type ForecastAnswer, MIN_RELIABLE_WEEKS, SMALL_PART_SHARE } from '../../../contract/forecast.ts';

/** The calendar's two views. */
export type CalendarView = 'month' | 'week';

/** A period of wire dates, both included. */
export interface WirePeriod {
  dateDebut: string;
  dateFin: string;
}

/** The forecast data of an answer (`data` of GET previsions). */
export type ForecastData = ForecastAnswer['data'];

function wire(day: string): Date {
  const d = parseWireDate(day);
  if (!d) throw new RangeError(`not a wire date: ${day}`);
  return d;
}

/**
 * The days `view` shows around `day`: its month (1st to last), or its week, Monday to Sunday
 * (the fiscal week of the chain's reports, whatever the language's first weekday).
 */
export function periodOf(view: CalendarView, day: string): WirePeriod {
  const d = wire(day);
  if (view === 'month') return { dateDebut: toWireDate(startOfMonth(d)), dateFin: toWireDate(endOfMonth(d)) };
  const monday = startOfWeek(d, { weekStartsOn: 1 });
  return { dateDebut: toWireDate(monday), dateFin: toWireDate(addDays(monday, 6)) };
}

/** `day` moved by `step` months (month view) or weeks (week view), as a wire date. */
export function shiftDay(view: CalendarView, day: string, step: number): string {
  const d = wire(day);
  if (view === 'week') return toWireDate(addDays(d, 7 * step));
  const first = new Date(d.getFullYear(), d.getMonth() + step, 1);
  return toWireDate(first);
}

/** Every day of `period`, in order. */
export function daysOf(period: WirePeriod): string[] {
  const out: string[] = [];
  for (let d = wire(period.dateDebut); toWireDate(d) <= period.dateFin; d = addDays(d, 1))
    out.push(toWireDate(d));
  return out;
}

/** The events running on `day` (start ≤ day ≤ end), in the server's order. */
export function eventsOn(events: readonly LocalEvent[], day: string): LocalEvent[] {
  return events.filter((e) => e.dateDebut <= day && day <= e.dateFin);
}

/** An 80 % range, cents. */
export interface CentsRange {
  lowCents: number;
  highCents: number;
}

/** The chosen sites' forecast for one day, in cents; `actualCents` null when no site has sales yet. */
export interface DayForecast {
  forecastCents: number;
  actualCents: number | null;
  /** The 80 % range of the sum (module comment); absent when a site's answer has none. */
  range?: CentsRange;
}

/** Adds up ranges around their forecasts as the module comment says; null when one is missing. */
function combinedRange(
  items: readonly { forecastCents: number; lowCents?: number; highCents?: number }[],
): CentsRange | null {
  let total = 0;
  let down = 0;
  let up = 0;
  for (const i of items) {
    if (i.lowCents === undefined || i.highCents === undefined) return null;
    total += i.forecastCents;
    down += (i.forecastCents - i.lowCents) ** 2;
    up += (i.highCents - i.forecastCents) ** 2;
  }
  if (items.length === 1) return { lowCents: items[0]!.lowCents!, highCents: items[0]!.highCents! };
  return {
    lowCents: Math.max(0, Math.round(total - Math.sqrt(down))),
    highCents: Math.round(total + Math.sqrt(up)),
  };
}

/** The forecast of `day` summed over the answer's sites; null when the answer has no such day. */
export function forecastOn(data: ForecastData | undefined, day: string): DayForecast | null {
  if (!data) return null;
  const days: ForecastData['sites'][number]['days'] = [];
  let forecastCents = 0;
  let actualCents: number | null = null;
  for (const site of data.sites) {
    const d = site.days.find((x) => x.fiscalDate === day);
    if (!d) continue;
    days.push(d);
    forecastCents += d.forecastCents;
    if (d.actualCents !== null) actualCents = (actualCents ?? 0) + d.actualCents;
  }
  if (days.length === 0) return null;
  const range = combinedRange(days);
  return range ? { forecastCents, actualCents, range } : { forecastCents, actualCents };
}

/** One reliability for the sites of an answer: a WAPE (fraction) and the backtest weeks behind it. */
export interface SitesReliability {
  wape: number;
  weeks: number;
  /** Days ahead the backtest forecast (1 to this), when the answer says (issue #31). */
  horizonDays?: number;
}

/**
 * When every site of an answer (from issue #31 on) measured fewer than MIN_RELIABLE_WEEKS
 * backtest weeks: the most weeks one measured, so the page says the history is too short rather
 * than show a figure; null otherwise (and for answers saved before issue #31).
 */
export function tooLittleHistory(data: ForecastData | undefined): number | null {
  if (!data || data.sites.length === 0) return null;
  if (data.sites.every((s) => s.reliability.horizonDays === undefined)) return null;
  let weeks = 0;
  for (const site of data.sites) {
    if (site.reliability.wape !== null && site.reliability.weeks >= MIN_RELIABLE_WEEKS) return null;
    weeks = Math.max(weeks, site.reliability.weeks);
  }
  return weeks;
}

/**
 * The WAPE of the answer's sites weighted by their forecast (see the module comment); sites
 * without a backtest are left out; null when none has one.
 */
export function reliabilityOf(data: ForecastData | undefined): SitesReliability | null {
  if (!data) return null;
  let weighted = 0;
  let weight = 0;
  let weeks = 0;
  let any: number | null = null;
  for (const site of data.sites) {
    const { wape } = site.reliability;
    if (wape === null || site.reliability.weeks === 0) continue;
    const total = site.days.reduce((sum, d) => sum + d.forecastCents, 0);
    weighted += wape * total;
    weight += total;
    weeks = Math.max(weeks, site.reliability.weeks);
    any = wape;
  }
  if (any === null) return null;
  const horizons = data.sites.flatMap((s) =>
    s.reliability.horizonDays === undefined ? [] : [s.reliability.horizonDays],
  );
  const wape = weight > 0 ? weighted / weight : any;
  return horizons.length > 0 ? { wape, weeks, horizonDays: Math.max(...horizons) } : { wape, weeks };
}

/** One day part of a day (SPEC.md §9): the chosen sites' forecast and the WAPE of that part. */
export interface DayPartForecast {
  key: DayPartKey;
  /** Forecast of the chosen sites for this part of the day, cents. */
  forecastCents: number;
  /** The part's backtest WAPE (fraction), weighted over the sites as {@link reliabilityOf}; null when not measured. */
  wape: number | null;
  /** The part's own 80 % range (module comment); absent when a site's answer has none. */
  range?: CentsRange;
  /** True when the part is a small share of the day (< SMALL_PART_SHARE): shown by its range, as uncertain. */
  uncertain?: boolean;
}

/** Σ of each site's forecast for day part `key` over the answer's days: the weight of its WAPE. */
function partWeight(site: ForecastData['sites'][number], key: DayPartKey): number {
  let total = 0;
  for (const d of site.days) total += d.dayParts.find((p) => p.key === key)?.forecastCents ?? 0;
  return total;
}

/** The WAPE of day part `key` over the answer's sites, weighted by their forecast of that part; null when none measured it. */
function partWape(data: ForecastData, key: DayPartKey): number | null {
  let weighted = 0;
  let weight = 0;
  let any: number | null = null;
  for (const site of data.sites) {
    const wape = site.reliability.byDayPart.find((p) => p.key === key)?.wape ?? null;
    if (wape === null) continue;
    const w = partWeight(site, key);
    weighted += wape * w;
    weight += w;
    any = wape;
  }
  if (any === null) return null;
  return weight > 0 ? weighted / weight : any;
}

/**
 * The forecast of `day` per day part (SPEC.md §9's order), summed over the answer's sites, each
 * with its own reliability. Parts forecast at 0 on every site (a bakery's night, a closed day) are
 * left out: they say nothing to plan with. Null when the answer has no such day.
 */
export function dayPartsOn(data: ForecastData | undefined, day: string): DayPartForecast[] | null {
  if (!data) return null;
  const sums = new Map<DayPartKey, number>(DAY_PARTS.map((p) => [p.key, 0]));
  let found = false;
  for (const site of data.sites) {
    const d = site.days.find((x) => x.fiscalDate === day);
    if (!d) continue;
    found = true;
    for (const p of d.dayParts) sums.set(p.key, (sums.get(p.key) ?? 0) + p.forecastCents);
  }
  if (!found) return null;
  const dayTotal = [...sums.values()].reduce((t, v) => t + v, 0);
  return DAY_PARTS.filter((p) => (sums.get(p.key) ?? 0) > 0).map((p) => {
    const forecastCents = sums.get(p.key) ?? 0;
    const range = combinedRange(
      data.sites.flatMap((site) =>
        site.days
          .filter((d) => d.fiscalDate === day)
          .flatMap((d) => d.dayParts.filter((x) => x.key === p.key)),
      ),
    );
    const part: DayPartForecast = { key: p.key, forecastCents, wape: partWape(data, p.key) };
    return range ? { ...part, range, uncertain: forecastCents < SMALL_PART_SHARE * dayTotal } : part;
  });
}

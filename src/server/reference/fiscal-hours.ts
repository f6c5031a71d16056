/**
 * The hours of a fiscal date that are over at an instant, on a site's own clock (SPEC.md §9
 * fiscal date; decision 0028): what "today so far against last year up to the same hour" counts,
 * on the home dashboard's sales card (home/home-sales.ts) and on the tracker (bi/tracker.ts), so
 * the two screens compare the same hours.
 */
import { TZDate } from '@date-fns/tz';
import { hhmmToMinutes } from '../../contract/dates.ts';
import { currentFiscalDate } from './fiscal-date.ts';

const MINUTES_PER_DAY = 24 * 60;
const ALL_HOURS = Array.from({ length: 24 }, (_, h) => h);

/** The hours of one site's fiscal date that the like-for-like comparison counts. */
export interface SiteHoursSoFar {
  /** Local clock hours (0–23, as in `daily_hour_sales`) counted, ascending. */
  hours: number[];
  /**
   * `HH:MM` of the site's clock at which the counted hours end, when the fiscal date is the
   * site's today; null when it is a past day (all 24 hours) or a day not begun (no hour).
   */
  until: string | null;
}

/**
 * Minutes from the fiscal day's start (`dayStart` minutes after midnight) to the end of clock
 * hour `hour`, 1–1440. The hour holding a start that is not a whole hour (05:30) holds both
 * the day's first minutes and its last ones; it counts as the day's first hour, as its later
 * part (05:00–05:30 the next morning) ends a day after the last customers.
 */
function hourEndFromDayStart(hour: number, dayStart: number): number {
  return (((((hour + 1) * 60 - dayStart - 1) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY) + 1;
}

/**
 * The hours of `fiscalDate` at a site that are over at instant `now` (SPEC.md §9 fiscal date:
 * the site's time zone `timeZone` and business-day start `dayStart` `HH:MM`): every hour of a
 * past fiscal date, none of one not begun, and for the site's today the hours fully elapsed —
 * the current hour, still under way today and complete a year ago, counts on neither side.
 */
export function hoursSoFar(
  now: Date,
  site: { timeZone: string; dayStart: string },
  fiscalDate: string,
): SiteHoursSoFar {
  const today = currentFiscalDate(now, site.timeZone, site.dayStart);
  if (fiscalDate < today) return { hours: ALL_HOURS, until: null };
  if (fiscalDate > today) return { hours: [], until: null };
  const dayStart = hhmmToMinutes(site.dayStart) ?? 0;
  const local = new TZDate(now.getTime(), site.timeZone);
  const elapsed = (local.getHours() * 60 + local.getMinutes() - dayStart + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const hours = ALL_HOURS.filter((h) => hourEndFromDayStart(h, dayStart) <= elapsed);
  const hh = String(local.getHours()).padStart(2, '0');
  const startText = `${String(Math.floor(dayStart / 60)).padStart(2, '0')}:${String(dayStart % 60).padStart(2, '0')}`;
  return { hours, until: hours.length === 0 ? startText : `${hh}:00` };
}

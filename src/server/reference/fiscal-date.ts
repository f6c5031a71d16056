/**
 * A site's fiscal date at an instant (SPEC.md §9): the business day a ticket rung now belongs to,
 * in the site's time zone and from its business-day start. Used by the home dashboard and the
 * receipts of the counting screens for "today".
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { subMinutes } from 'date-fns/subMinutes';
import { hhmmToMinutes, WIRE_DATE } from '../../contract/dates.ts';

/**
 * Today's fiscal date (`YYYY-MM-DD`) of a site: the calendar date in its time zone `timeZone`
 * (IANA name) of the instant `now`, moved back by its business-day start `dayStart` (`HH:MM`;
 * a ticket at 02:00 with a 05:00 start is yesterday's). An unreadable `dayStart` counts as 00:00.
 */
export function currentFiscalDate(now: Date, timeZone: string, dayStart: string): string {
  const local = new TZDate(now.getTime(), timeZone);
  return format(subMinutes(local, hhmmToMinutes(dayStart) ?? 0), WIRE_DATE);
}

/**
 * Day numbers of the forecast: a fiscal date `YYYY-MM-DD` as whole days since 1970-01-01 on the
 * proleptic calendar (UTC arithmetic, no time zone involved), so the engine walks series and
 * weeks with integer arithmetic. Weekday of a day number: `(day + 3) mod 7`, 0 = Monday.
 */
import { parseWireDate } from '../../contract/dates.ts';

const MS_PER_DAY = 86_400_000;

/**
 * The day number of wire date `text`.
 * @throws RangeError when `text` is not a real `YYYY-MM-DD` date (callers validate at the edge).
 */
export function dayOf(text: string): number {
  const d = parseWireDate(text);
  if (!d) throw new RangeError(`not a wire date: ${text}`);
  return Math.round(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / MS_PER_DAY);
}

/** The wire date `YYYY-MM-DD` of day number `day`. */
export function wireOf(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Weekday of day number `day`: 0 = Monday … 6 = Sunday. */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/**
 * The same calendar day one year earlier (29 February → 28 February), as a day number: what
 * "closed on that day last year" compares with (25 December, 1 January).
 */
export function sameDayLastYear(day: number): number {
  const d = new Date(day * MS_PER_DAY);
  const year = d.getUTCFullYear() - 1;
  const month = d.getUTCMonth();
  const lastOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Math.round(Date.UTC(year, month, Math.min(d.getUTCDate(), lastOfMonth)) / MS_PER_DAY);
}

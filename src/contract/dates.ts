/**
 * Date helpers shared by client, service worker and server. Business dates are fiscal dates
 * travelling as `YYYY-MM-DD` (SPEC.md §3, §9) and shown as `DD/MM/YYYY`. All parsing and
 * formatting goes through date-fns; nothing here hand-parses dates.
 */
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parse } from 'date-fns/parse';
import { parseISO } from 'date-fns/parseISO';

/** Wire format of a fiscal date (SPEC.md §9). */
export const WIRE_DATE = 'yyyy-MM-dd';
/** Display format of a date (SPEC.md §9). */
export const DISPLAY_DATE = 'dd/MM/yyyy';
/** Display format of a time of day: 24-hour in every language (SPEC.md §9, issue #20). */
export const DISPLAY_TIME = 'HH:mm';

/** Formats a local calendar date as `YYYY-MM-DD`. */
export function toWireDate(date: Date): string {
  return format(date, WIRE_DATE);
}

/**
 * Parses `YYYY-MM-DD` into a local Date at midnight; `null` when the text is not a real date
 * (2023-02-29, month 13, year 0). date-fns' parseISO reads a date-only text as local midnight
 * and refuses impossible days; it is three times as fast as `parse` with a format string, and
 * a report request reads a dozen dates.
 */
export function parseWireDate(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text.startsWith('0000')) return null;
  const d = parseISO(text);
  return isValid(d) ? d : null;
}

/** Parses `DD/MM/YYYY` (as typed by a user) into a local Date; `null` when invalid. */
export function parseDisplayDate(text: string): Date | null {
  if (!/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(text.trim())) return null;
  const d = parse(text.trim(), 'd/M/yyyy', new Date(2000, 0, 1));
  return isValid(d) ? d : null;
}

/**
 * An instant (a `Date`, epoch milliseconds or an ISO 8601 text) as the device shows it, in its own time zone:
 * `{ date: 'DD/MM/YYYY', time: 'HH:mm' }`, the same in every language (SPEC.md §9). Every time of
 * the interface (last sync, offline copies, sign-in) goes through here, never through
 * `Intl`/react-intl date formats, whose order and 12-hour clock follow the language.
 */
export function displayInstant(instant: Date | number | string): { date: string; time: string } {
  const at = typeof instant === 'string' ? parseISO(instant) : instant;
  return { date: format(at, DISPLAY_DATE), time: format(at, DISPLAY_TIME) };
}

/** `YYYY-MM-DD` → `DD/MM/YYYY`; returns the input unchanged when it is not a wire date. */
export function wireToDisplay(text: string): string {
  const d = parseWireDate(text);
  return d ? format(d, DISPLAY_DATE) : text;
}

/** Number of calendar days from `dateDebut` to `dateFin`, both included (wire dates). */
export function daysInclusive(dateDebut: string, dateFin: string): number {
  const a = parseWireDate(dateDebut);
  const b = parseWireDate(dateFin);
  if (!a || !b) return Number.NaN;
  return (
    Math.round(
      (Date.UTC(b.getFullYear(), b.getMonth(), b.getDate()) -
        Date.UTC(a.getFullYear(), a.getMonth(), a.getDate())) /
        86_400_000,
    ) + 1
  );
}

/** Time of day `HH:mm` (24 h) as minutes since midnight; `null` when malformed. */
export function hhmmToMinutes(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

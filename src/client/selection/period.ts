/**
 * Period choice of the selection (SPEC.md §3 "Period selection", §9 period codes) and its
 * translation to the wire range `dateDebut`/`dateFin` (YYYY-MM-DD).
 *
 * Custom dates are kept exactly as the user typed them (DD/MM/YYYY), so a validation error never
 * throws away what was typed; they become wire dates only when the whole range is valid.
 */
import { type DateRange, type PeriodCode, PERIOD_CODES, resolvePeriod } from '../../contract/periods.ts';
import { hhmmToMinutes, parseDisplayDate, toWireDate, wireToDisplay } from '../../contract/dates.ts';

/** The period a user chose: one of the codes of SPEC.md §9, or two typed dates (DD/MM/YYYY text). */
export type PeriodChoice =
  | { kind: 'code'; code: PeriodCode }
  | { kind: 'custom'; debut: string; fin: string };

/** Why a custom period cannot be used. Each maps to a message `selection.period.error.<code>`. */
export type PeriodErrorCode = 'required' | 'badDate' | 'startAfterEnd';

/** Errors per field: `debut`/`fin` for a field's own text, `range` for the pair. */
export interface PeriodErrors {
  debut?: PeriodErrorCode;
  fin?: PeriodErrorCode;
  range?: PeriodErrorCode;
}

export type PeriodResolution = { ok: true; range: DateRange } | { ok: false; errors: PeriodErrors };

/** True when `text` is one of the period codes of SPEC.md §9. */
export function isPeriodCode(text: string): text is PeriodCode {
  return (PERIOD_CODES as readonly string[]).includes(text);
}

function checkDate(text: string): { date: Date } | { error: PeriodErrorCode } {
  if (text.trim() === '') return { error: 'required' };
  const date = parseDisplayDate(text);
  return date ? { date } : { error: 'badDate' };
}

/**
 * Resolves a period choice to the inclusive wire range sent as `dateDebut`/`dateFin` (SPEC.md §7).
 * A code resolves relative to `today` (contract `resolvePeriod`); custom dates must both be real
 * DD/MM/YYYY dates with the start not after the end (SPEC.md §5), else the errors say which field.
 */
export function resolvePeriodChoice(choice: PeriodChoice, today: Date = new Date()): PeriodResolution {
  if (choice.kind === 'code') return { ok: true, range: resolvePeriod(choice.code, today) };
  const debut = checkDate(choice.debut);
  const fin = checkDate(choice.fin);
  const errors: PeriodErrors = {};
  if ('error' in debut) errors.debut = debut.error;
  if ('error' in fin) errors.fin = fin.error;
  if ('date' in debut && 'date' in fin) {
    if (debut.date.getTime() > fin.date.getTime()) return { ok: false, errors: { range: 'startAfterEnd' } };
    return { ok: true, range: { dateDebut: toWireDate(debut.date), dateFin: toWireDate(fin.date) } };
  }
  return { ok: false, errors };
}

/**
 * Turns a choice into custom dates covering the same range, so switching from a code to
 * "custom dates" starts from what the user was looking at instead of empty fields.
 */
export function toCustomChoice(choice: PeriodChoice, today: Date = new Date()): PeriodChoice {
  if (choice.kind === 'custom') return choice;
  const range = resolvePeriod(choice.code, today);
  return { kind: 'custom', debut: wireToDisplay(range.dateDebut), fin: wireToDisplay(range.dateFin) };
}

/** Why an hour range cannot be used; message `selection.hours.error.<code>`. */
export type HoursErrorCode = 'badTime';

/**
 * Validates the hour range (HH:mm, 24 h) used when `trancheHoraire` is on. An end before the start
 * is allowed on purpose: it means a range running past midnight (e.g. 18:00–02:00 for a night shift).
 */
export function validateHours(
  heureDebut: string,
  heureFin: string,
): { heureDebut?: HoursErrorCode; heureFin?: HoursErrorCode } {
  const errors: { heureDebut?: HoursErrorCode; heureFin?: HoursErrorCode } = {};
  if (hhmmToMinutes(heureDebut) === null) errors.heureDebut = 'badTime';
  if (hhmmToMinutes(heureFin) === null) errors.heureFin = 'badTime';
  return errors;
}

/**
 * Tidies a typed date when the field loses focus, so the common ways of typing a date all land
 * on DD/MM/YYYY: `31.01.2025` (German habit), `31-01-2025`, `31 01 2025`, `31012025` (phone
 * keypads without a slash). Anything else is returned unchanged, so the error still shows what
 * the user typed.
 */
export function tidyTypedDate(text: string): string {
  const t = text.trim();
  const digits = /^(\d{2})(\d{2})(\d{4})$/.exec(t);
  if (digits) return `${digits[1]}/${digits[2]}/${digits[3]}`;
  const separated = /^(\d{1,2})[./\-\s](\d{1,2})[./\-\s](\d{4})$/.exec(t);
  if (separated) return `${separated[1]!.padStart(2, '0')}/${separated[2]!.padStart(2, '0')}/${separated[3]}`;
  return text;
}

/**
 * Tidies a typed time of day on blur: `9` → `09:00`, `9h30` / `9.30` / `930` / `0930` → `09:30`.
 * Anything else is returned unchanged (and then refused by {@link validateHours}).
 */
export function tidyTypedTime(text: string): string {
  const t = text.trim().toLowerCase();
  const m = /^(\d{1,2})(?:[h:.]?(\d{2})?|h)$/.exec(t);
  if (!m) return text;
  const hh = Number(m[1]);
  const mm = m[2] === undefined ? 0 : Number(m[2]);
  if (hh > 23 || mm > 59) return text;
  return `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}`;
}

/**
 * The period a screen shown on arrival opens on (/graphs, issue #20 item 12; /totalKPI, issue
 * #19): the selection's own, unless it is still the app's default, today — a day under way,
 * empty until its tickets arrive (and a single point on a line chart), which /tracker follows hour
 * by hour — which becomes the last full week (Monday to Sunday, period code W-1): the weekly
 * review a manager opens these screens for.
 */
export function arrivalPeriod(current: PeriodChoice): PeriodChoice {
  return current.kind === 'code' && current.code === 'D' ? { kind: 'code', code: 'W-1' } : current;
}

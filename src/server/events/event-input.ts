/**
 * Checks of an event as the form sends it (SPEC.md §5 "event form: event type, sales channel,
 * PLU, designation, impact type and impact rate are required; start must not be after end"),
 * each refusal naming its field so the client shows it there (contract/events.ts: 400
 * `BadRequest` with `details.field`, `dateFinTooEarly` at `dateFin`).
 *
 * The route's zod schema already refuses a malformed body, but its refusal lists zod issues
 * (and a union's failure has no path at all); the route hands such a body here to say which
 * field is wrong, in the contract's words.
 */
import type { z } from 'zod';
import { parseWireDate } from '../../contract/dates.ts';
import { LocalEventInputSchema, type LocalEventInput } from '../../contract/events.ts';
import { DomainError } from '../errors.ts';

/** The event part of `{ evenement, perim_affects }` (PUT addEvenementLocal's second body shape). */
const NestedEventSchema = LocalEventInputSchema.omit({ perim_affects: true });

/** The longest period the calendar reads at once, in days (a year and a few weeks of margin). */
export const MAX_READ_DAYS = 400;

/** 400 `BadRequest` naming `field` (a wire field of LocalEventInputSchema). */
export function badField(field: string, message: string): DomainError {
  return new DomainError('invalid', 'BadRequest', message, { field });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The wire field a zod issue is about: the first path segment that is not the `evenement` wrapper. */
function fieldOf(issue: z.core.$ZodIssue | undefined): string {
  const path = (issue?.path ?? []).filter((p) => p !== 'evenement');
  return path.length > 0 ? String(path[0]) : 'evenement';
}

/**
 * Reads a body of PUT addEvenementLocal / POST changeEvenementLocal: an event, or
 * `{ evenement, perim_affects }` (SPEC.md §7), into one event input, its dates checked.
 * @throws DomainError invalid `BadRequest` with `details.field` for the first refused field;
 *   `dateFinTooEarly` (`details.field: 'dateFin'`) when start is after end.
 */
export function readEventBody(body: unknown): LocalEventInput {
  let parsed: LocalEventInput;
  if (isRecord(body) && 'evenement' in body) {
    const event = NestedEventSchema.safeParse(body.evenement);
    const sites = LocalEventInputSchema.shape.perim_affects.safeParse(body.perim_affects);
    if (!event.success) throw badField(fieldOf(event.error.issues[0]), event.error.issues[0]?.message ?? '');
    if (!sites.success) throw badField('perim_affects', sites.error.issues[0]?.message ?? '');
    parsed = { ...event.data, perim_affects: sites.data };
  } else {
    const event = LocalEventInputSchema.safeParse(body);
    if (!event.success) throw badField(fieldOf(event.error.issues[0]), event.error.issues[0]?.message ?? '');
    parsed = event.data;
  }
  checkEventDates(parsed.dateDebut, parsed.dateFin);
  return { ...parsed, perim_affects: [...new Set(parsed.perim_affects)].sort((a, b) => a - b) };
}

/**
 * Checks a period of fiscal dates (wire `YYYY-MM-DD`, inclusive): both real days, start ≤ end.
 * @throws DomainError invalid `BadRequest` `{ field: 'dateDebut' | 'dateFin' }` for a day that
 *   does not exist (2026-02-30); `dateFinTooEarly` `{ field: 'dateFin' }` when start > end.
 */
export function checkEventDates(dateDebut: string, dateFin: string): void {
  if (!parseWireDate(dateDebut)) throw badField('dateDebut', 'not a real date');
  if (!parseWireDate(dateFin)) throw badField('dateFin', 'not a real date');
  if (dateDebut > dateFin) {
    throw new DomainError('invalid', 'dateFinTooEarly', 'the event starts after it ends', {
      field: 'dateFin',
    });
  }
}

/**
 * Checks the calendar's read period: real days, start ≤ end, at most {@link MAX_READ_DAYS}.
 * @throws DomainError as {@link checkEventDates}; `BadRequest` `{ field: 'dateFin', maxDays }`
 *   for a longer period.
 */
export function checkReadPeriod(dateDebut: string, dateFin: string): void {
  checkEventDates(dateDebut, dateFin);
  const days = (Date.parse(`${dateFin}T00:00:00Z`) - Date.parse(`${dateDebut}T00:00:00Z`)) / 86_400_000;
  if (days + 1 > MAX_READ_DAYS) {
    throw new DomainError('invalid', 'BadRequest', 'period too long', {
      field: 'dateFin',
      maxDays: MAX_READ_DAYS,
    });
  }
}

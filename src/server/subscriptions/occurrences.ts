/**
 * When a recurrence rule fires (SPEC.md §6 daily, weekly, monthly rules; issue #28): the UTC
 * instants of its local times in a time zone. Local calendar arithmetic is @date-fns/tz's
 * (TZDate), never ours, so daylight-saving days come out right:
 *
 * - a time that exists once fires once at that local time (06:30 Europe/Paris on both change
 *   days is 06:30 local);
 * - a time skipped in spring (02:30 on the last Sunday of March in Paris) fires once, at the
 *   first valid time after the gap (03:30 summer time, TZDate's reading of the skipped time);
 * - a time that happens twice in autumn (02:30 on the last Sunday of October) fires once, at the
 *   later of the two (TZDate's reading).
 *
 * Each local day gives at most one instant, so a rule never fires twice on a day.
 */
import { TZDate } from '@date-fns/tz';
import type { RuleFields, RuleType } from '../../contract/subscriptions.ts';

/** Longest span {@link occurrencesBetween} looks at, in days: a guard against a runaway range. */
export const MAX_SPAN_DAYS = 400;

const DAY_MS = 86_400_000;

/** Whether the rule fires on local date `year-month(0-based)-day` (`isoWeekday` 1 = Monday). */
export function firesOn(
  rule: Pick<RuleFields, 'type' | 'jours' | 'jourDuMois' | 'dernierJour'>,
  date: { year: number; month: number; day: number; isoWeekday: number },
): boolean {
  switch (rule.type) {
    case 'DAILY':
      return true;
    case 'WEEKDAYS':
      return date.isoWeekday <= 5;
    case 'WEEKLY':
      return rule.jours.includes(date.isoWeekday);
    case 'MONTHLY': {
      if (rule.jourDuMois === date.day) return true;
      if (!rule.dernierJour) return false;
      // The last day of the month: the day after it is the 1st (checked in the zone's calendar).
      const daysInMonth = new Date(Date.UTC(date.year, date.month + 1, 0)).getUTCDate();
      return date.day === daysInMonth;
    }
  }
}

/**
 * The instants in (`from`, `to`] at which `rule` fires in `timeZone`, ascending, whether the rule
 * is active or not (the caller decides). At most {@link MAX_SPAN_DAYS} days are looked at; a
 * longer range is cut at its start.
 * @param timeZone an IANA zone, e.g. `Europe/Paris`.
 * @throws RangeError for an unknown time zone.
 */
export function occurrencesBetween(
  rule: Pick<RuleFields, 'type' | 'jours' | 'jourDuMois' | 'dernierJour' | 'heure' | 'minute'>,
  timeZone: string,
  from: Date,
  to: Date,
): Date[] {
  if (!(to > from)) return [];
  // Throws RangeError for an unknown zone, before any loop.
  new Intl.DateTimeFormat('en', { timeZone });
  const start = Math.max(from.getTime(), to.getTime() - MAX_SPAN_DAYS * DAY_MS);
  // One day's margin on each side: the local date of `from` may be a day before or after the UTC one.
  const first = new TZDate(start - DAY_MS, timeZone);
  const last = new TZDate(to.getTime() + DAY_MS, timeZone);
  const out: Date[] = [];
  let y = first.getFullYear();
  let m = first.getMonth();
  let d = first.getDate();
  for (;;) {
    const day = new TZDate(y, m, d, 12, 0, timeZone);
    if (day > last) break;
    const date = { year: y, month: m, day: d, isoWeekday: day.getDay() === 0 ? 7 : day.getDay() };
    if (firesOn(rule, date)) {
      const at = new Date(new TZDate(y, m, d, rule.heure, rule.minute, timeZone).getTime());
      if (at > from && at <= to && at.getTime() >= start) out.push(at);
    }
    // The next local date, through the zone's own calendar (noon never falls in a gap).
    const next = new TZDate(y, m, d + 1, 12, 0, timeZone);
    y = next.getFullYear();
    m = next.getMonth();
    d = next.getDate();
  }
  return out;
}

/** The local calendar date (`YYYY-MM-DD`) of `instant` in `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  const t = new TZDate(instant.getTime(), timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}

/**
 * A scheduled row as the due sources read it (subscriptions, alerts, FEC recurrences, partner
 * integrations): its id, its rule in the wire's words (type, week days 1–7, day of the month or
 * the last day, hour and minute) and the time zones it is evaluated in.
 */
export interface DueRuleRow {
  id: number;
  type: RuleType;
  jours: number[];
  jourDuMois: number | null;
  dernierJour: boolean;
  heure: number;
  minute: number;
  zones: string[];
}

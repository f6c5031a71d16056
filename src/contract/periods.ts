/**
 * Period codes of SPEC.md §9 and the period selection of SPEC.md §3. A code resolves to an
 * inclusive range of fiscal dates relative to a reference day (today by default). Weeks start
 * on Monday (ISO 8601), as in French, British and German retail.
 */
import { endOfMonth } from 'date-fns/endOfMonth';
import { endOfWeek } from 'date-fns/endOfWeek';
import { endOfYear } from 'date-fns/endOfYear';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfWeek } from 'date-fns/startOfWeek';
import { startOfYear } from 'date-fns/startOfYear';
import { subDays } from 'date-fns/subDays';
import { subMonths } from 'date-fns/subMonths';
import { subWeeks } from 'date-fns/subWeeks';
import { subYears } from 'date-fns/subYears';
import { addDays } from 'date-fns/addDays';
import { z } from 'zod';
import { toWireDate } from './dates.ts';

/** SPEC.md §9 period codes, in the order the picker shows them. */
export const PERIOD_CODES = [
  'D',
  'D-1',
  'D-2',
  'D-3',
  'W',
  'W-1',
  'W-2',
  'M',
  'M-1',
  'M-2',
  '6M',
  'Y',
  'Y-1',
  'D-365',
] as const;
export type PeriodCode = (typeof PERIOD_CODES)[number];
export const PeriodCodeSchema = z.enum(PERIOD_CODES);

/** Inclusive range of fiscal dates, wire format `YYYY-MM-DD`. */
export interface DateRange {
  dateDebut: string;
  dateFin: string;
}

const WEEK = { weekStartsOn: 1 } as const;

/**
 * Resolves a period code to its inclusive date range.
 * - D, D-1, D-2, D-3: today, yesterday, two and three days ago (one day each);
 * - W: this week to today; W-1, W-2: the previous week, the week before (Monday–Sunday);
 * - M: this month to today; M-1, M-2: previous month, the month before (whole months);
 * - 6M: the last six months up to today; Y: this year to today; Y-1: previous calendar year;
 * - D-365: the last 365 days up to today.
 * @param today the reference day (local calendar date); defaults to now.
 */
export function resolvePeriod(code: PeriodCode, today: Date = new Date()): DateRange {
  const r = (a: Date, b: Date): DateRange => ({ dateDebut: toWireDate(a), dateFin: toWireDate(b) });
  switch (code) {
    case 'D':
      return r(today, today);
    case 'D-1': {
      const d = subDays(today, 1);
      return r(d, d);
    }
    case 'D-2': {
      const d = subDays(today, 2);
      return r(d, d);
    }
    case 'D-3': {
      const d = subDays(today, 3);
      return r(d, d);
    }
    case 'W':
      return r(startOfWeek(today, WEEK), today);
    case 'W-1': {
      const d = subWeeks(today, 1);
      return r(startOfWeek(d, WEEK), endOfWeek(d, WEEK));
    }
    case 'W-2': {
      const d = subWeeks(today, 2);
      return r(startOfWeek(d, WEEK), endOfWeek(d, WEEK));
    }
    case 'M':
      return r(startOfMonth(today), today);
    case 'M-1': {
      const d = subMonths(today, 1);
      return r(startOfMonth(d), endOfMonth(d));
    }
    case 'M-2': {
      const d = subMonths(today, 2);
      return r(startOfMonth(d), endOfMonth(d));
    }
    case '6M':
      return r(addDays(subMonths(today, 6), 1), today);
    case 'Y':
      return r(startOfYear(today), today);
    case 'Y-1': {
      const d = subYears(today, 1);
      return r(startOfYear(d), endOfYear(d));
    }
    case 'D-365':
      return r(subDays(today, 364), today);
  }
}

/** Period selection of SPEC.md §3 with its defaults (periode 0, typePeriode J, 12:00–12:00). */
export const PeriodSelectionSchema = z.object({
  periode: z.number().int().default(0),
  typePeriode: z.string().default('J'),
  dateDebut: z.string().optional(),
  dateFin: z.string().optional(),
  dates: z.array(z.string()).optional(),
  trancheHoraire: z.boolean().default(false),
  datesMultiples: z.boolean().default(false),
  heureDebut: z.string().default('12:00'),
  heureFin: z.string().default('12:00'),
});
export type PeriodSelection = z.infer<typeof PeriodSelectionSchema>;

/** Default report hours of SPEC.md §9. */
export const DEFAULT_REPORT_HOURS = { heureDebut: '12:00', heureFin: '23:00' } as const;

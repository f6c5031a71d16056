/**
 * What the three BI calls (explore, totalKPI, tracker) share before reading any figure: the
 * chosen sites narrowed to the caller's scope (auth/scope.ts, SPEC.md §6), read with their
 * company, clock and currency, and a period checked as the reports check theirs.
 */
import { addDays } from 'date-fns/addDays';
import { subDays } from 'date-fns/subDays';
import type { BiComparison } from '../../contract/bi.ts';
import { daysInclusive, parseWireDate, toWireDate } from '../../contract/dates.ts';
import { restrictToScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { checkedPeriod } from '../reports/request.ts';

/** A site as the BI calls need it. */
export interface BiSite {
  id: number;
  libelle: string;
  companyId: number;
  timeZone: string;
  dayStart: string;
  currency: string;
}

/**
 * The sites `requested` of `scope` (every site of the scope when none is requested), ascending,
 * and the currency they all trade in.
 * @throws DomainError forbidden `Forbidden` when sites are requested and none is in the scope;
 *   invalid `NoSitesSelected` when none is left; invalid `mixedCurrencies` with
 *   `details.currencies` when they trade in several currencies (a sum across them means nothing).
 */
export async function biSites(
  db: Queryable,
  requested: readonly number[],
  scope: readonly number[],
): Promise<{ sites: BiSite[]; currency: string }> {
  const ids = restrictToScope(requested, scope);
  if (ids.length === 0) throw new DomainError('invalid', 'NoSitesSelected', "no site in the user's scope");
  const { rows } = await db.query<BiSite>(
    `SELECT id, libelle, company_id AS "companyId", time_zone AS "timeZone", day_start AS "dayStart", currency
       FROM sites WHERE id = ANY($1::int[]) ORDER BY id`,
    [ids],
  );
  if (rows.length === 0) throw new DomainError('invalid', 'NoSitesSelected', 'none of the sites exists');
  const currencies = [...new Set(rows.map((s) => s.currency))];
  if (currencies.length > 1) {
    throw new DomainError('invalid', 'mixedCurrencies', `sites trade in ${currencies.join(', ')}`, {
      currencies,
    });
  }
  return { sites: rows, currency: currencies[0]! };
}

/** A period, both ends included, wire dates. */
export interface BiPeriod {
  dateDebut: string;
  dateFin: string;
}

/** Days between a date and the same weekday a year earlier (52 weeks). */
export const YEAR_SHIFT_DAYS = 364;

/**
 * `period` shifted `days` days back (both ends).
 */
export function shiftPeriod(period: BiPeriod, days: number): BiPeriod {
  return {
    dateDebut: toWireDate(subDays(parseWireDate(period.dateDebut)!, days)),
    dateFin: toWireDate(subDays(parseWireDate(period.dateFin)!, days)),
  };
}

/**
 * The comparison period of `period`: PREVIOUS, the same number of days ending the day before it
 * starts; YEAR, the same weekdays 364 days earlier (so a Monday is compared with a Monday).
 */
export function comparisonPeriod(period: BiPeriod, kind: BiComparison): BiPeriod {
  const days = kind === 'YEAR' ? YEAR_SHIFT_DAYS : daysInclusive(period.dateDebut, period.dateFin);
  return shiftPeriod(period, days);
}

/**
 * `dateDebut..dateFin` checked (real dates, in order, at most `maxDays` days).
 * @throws DomainError invalid `BadRequest` or `MaxReportDays` (reports/request.ts checkedPeriod).
 */
export function biPeriod(dateDebut: string, dateFin: string, maxDays: number): BiPeriod {
  return checkedPeriod(dateDebut, dateFin, maxDays);
}

/** Every wire date of `period`, in order. */
export function datesOf(period: BiPeriod): string[] {
  const first = parseWireDate(period.dateDebut)!;
  const count = daysInclusive(period.dateDebut, period.dateFin);
  return Array.from({ length: count }, (_, i) => toWireDate(addDays(first, i)));
}

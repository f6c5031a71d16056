/**
 * GET withCredentials/collab/previsions (SPEC.md §7, issue #19): the forecast of the chosen
 * sites of the caller's scope over at most {@link PREVISIONS_MAX_DAYS} fiscal dates, in the
 * shape of contract/forecast.ts ForecastAnswerSchema. Scope rules as GET bo/home/{widget}.
 */
import type { ForecastAnswer } from '../../contract/forecast.ts';
import { restrictToScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { FORECAST_METHOD } from './engine.ts';
import { forecastSites } from './forecast.ts';
import { dayOf } from './calendar.ts';

/** Most fiscal dates one previsions call answers (issue #19). */
export const PREVISIONS_MAX_DAYS = 62;

/** What {@link previsions} answers for. */
export interface PrevisionsRequest {
  /** restaurantIds asked for; empty = every site of `scope`. */
  siteIds: readonly number[];
  /** The user's site scope (SPEC.md §6), ascending. */
  scope: readonly number[];
  /** First and last fiscal dates, `YYYY-MM-DD`, inclusive. */
  dateDebut: string;
  dateFin: string;
  /** Currency shown when the chosen sites trade in several (the user's own). */
  userCurrency: string;
  /** The instant "today" is taken at (default now). */
  now?: Date;
}

/**
 * The forecast answer for `request`.
 * @throws DomainError forbidden `Forbidden` when sites are chosen and none is in the scope
 *   (auth/scope.ts restrictToScope); invalid `NoSites` when the scope is empty; invalid
 *   `BadRequest` when dateFin < dateDebut; invalid `MaxReportDays` (details.maxDays = 62) for a
 *   longer period.
 */
export async function previsions(db: Queryable, request: PrevisionsRequest): Promise<ForecastAnswer> {
  const siteIds = restrictToScope(request.siteIds, request.scope);
  if (siteIds.length === 0)
    throw new DomainError('invalid', 'NoSites', 'no site of your scope in the selection');
  const days = dayOf(request.dateFin) - dayOf(request.dateDebut) + 1;
  if (days < 1) throw new DomainError('invalid', 'BadRequest', 'dateFin is before dateDebut');
  if (days > PREVISIONS_MAX_DAYS) {
    throw new DomainError(
      'invalid',
      'MaxReportDays',
      `${days} days requested, at most ${PREVISIONS_MAX_DAYS}`,
      {
        maxDays: PREVISIONS_MAX_DAYS,
        days,
      },
    );
  }
  const [sites, { rows: currencies }] = await Promise.all([
    forecastSites(db, {
      siteIds,
      from: request.dateDebut,
      to: request.dateFin,
      ...(request.now ? { now: request.now } : {}),
    }),
    db.query<{ currency: string }>('SELECT DISTINCT currency FROM sites WHERE id = ANY($1)', [siteIds]),
  ]);
  const currency = currencies.length === 1 ? currencies[0]!.currency : request.userCurrency;
  return { data: { method: FORECAST_METHOD, currency, sites } };
}

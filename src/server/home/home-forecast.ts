/**
 * The forecasts of the home dashboard (issue #19): the `previsions` widget — datePerso and the 7
 * days after it per chosen site, with the site's reliability measured by the forecast's rolling
 * backtest — and the forecast column of `ventes` (datePerso summed over the chosen sites, in
 * total and per day part). Both are forecast/forecast.ts's `forecastSites` (method: decision
 * 0017), which keeps fitted models in the change-feed cache of the server's pool, so a widget
 * costs a lookup once the background warmer has fitted the sites.
 */
import type { DayPartKey } from '../../contract/day-parts.ts';
import { HOME_FORECAST_DAYS, type HomeForecastAnswer } from '../../contract/home.ts';
import type { Queryable } from '../db/queryable.ts';
import { FORECAST_METHOD } from '../forecast/engine.ts';
import { forecastSites } from '../forecast/forecast.ts';
import { type HomeRequest, requireWidgetRight, shiftDate, widgetContext } from './widget-context.ts';

/** The forecast of one fiscal date summed over sites: total and per day part, cents incl. VAT. */
export interface DayForecast {
  totalCents: number;
  dayParts: Map<DayPartKey, number>;
}

/**
 * The forecast of `fiscalDate` summed over `siteIds` (of the caller's scope); null when none of
 * them can be forecast (no site). Errors are forecastSites's.
 */
export async function dayForecast(
  db: Queryable,
  siteIds: readonly number[],
  fiscalDate: string,
): Promise<DayForecast | null> {
  const sites = await forecastSites(db, { siteIds, from: fiscalDate, to: fiscalDate });
  if (sites.length === 0) return null;
  const dayParts = new Map<DayPartKey, number>();
  let totalCents = 0;
  for (const day of sites.flatMap((s) => s.days)) {
    totalCents += day.forecastCents;
    for (const p of day.dayParts) dayParts.set(p.key, (dayParts.get(p.key) ?? 0) + p.forecastCents);
  }
  return { totalCents, dayParts };
}

/**
 * The `previsions` widget (contract/home.ts HomeForecastAnswerSchema): per chosen site, ascending
 * id, the forecast (with its 80 % range) and actual sales of datePerso to datePerso +
 * {@link HOME_FORECAST_DAYS} − 1, and its reliability (WAPE, bias, range coverage and weeks of
 * the backtest, overall and per horizon band).
 * @throws DomainError forbidden `Forbidden` without RAPPORTS or BI (issue #17 item 8), and the
 *   errors of widgetContext.
 */
export async function homeForecast(db: Queryable, request: HomeRequest): Promise<HomeForecastAnswer> {
  requireWidgetRight('previsions', request.rights);
  const ctx = await widgetContext(db, request);
  const sites = await forecastSites(db, {
    siteIds: ctx.siteIds,
    from: ctx.fiscalDate,
    to: shiftDate(ctx.fiscalDate, HOME_FORECAST_DAYS - 1),
  });
  const names = new Map(ctx.sites.map((s) => [s.id, s.libelle]));
  return {
    data: {
      method: FORECAST_METHOD,
      currency: ctx.currency,
      sites: sites.map((s) => ({
        restaurantId: s.siteId,
        libelle: names.get(s.siteId) ?? String(s.siteId),
        days: s.days.map((d) => ({
          fiscalDate: d.fiscalDate,
          forecastCents: d.forecastCents,
          actualCents: d.actualCents,
          ...(d.lowCents === undefined ? {} : { lowCents: d.lowCents }),
          ...(d.highCents === undefined ? {} : { highCents: d.highCents }),
        })),
        reliability: {
          wape: s.reliability.wape,
          bias: s.reliability.bias,
          weeks: s.reliability.weeks,
          ...(s.reliability.coverage === undefined ? {} : { coverage: s.reliability.coverage }),
          ...(s.reliability.horizonDays === undefined ? {} : { horizonDays: s.reliability.horizonDays }),
          ...(s.reliability.byHorizon === undefined ? {} : { byHorizon: s.reliability.byHorizon }),
        },
      })),
    },
  };
}

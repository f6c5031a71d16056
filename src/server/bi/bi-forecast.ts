/**
 * The forecast the key figures and the tracker compare with (forecast/forecast.ts forecastSites,
 * decision 0017): net sales in cents incl. VAT per site, summed over a period or for each site's
 * today. A forecast that cannot be made for the request (a period the forecast refuses) leaves
 * the figures without one (null) rather than failing the whole answer: the key figures and the
 * tracker stand on their own.
 */
import { DomainError } from '../errors.ts';
import type { Queryable } from '../db/queryable.ts';
import { forecastSites } from '../forecast/forecast.ts';
import type { BiPeriod } from './bi-sites.ts';

/**
 * A site's forecast of a period: Σ forecast, and the squares summed of the distances from each
 * day's forecast down to its 80 % range's low end and up to its high end (cents²), from which
 * {@link periodRange} makes the period's range.
 */
export interface PeriodForecast {
  cents: number;
  downSquares: number;
  upSquares: number;
}

/**
 * The 80 % range of the sum of `forecasts` (one or several sites' periods): the sum ± the root of
 * the summed squares, i.e. taking days and sites as independent errors (issue #31; a site's
 * daily range is measured, the period's is this approximation). Low never below 0.
 */
export function periodRange(forecasts: readonly PeriodForecast[]): { lowCents: number; highCents: number } {
  let cents = 0;
  let down = 0;
  let up = 0;
  for (const f of forecasts) {
    cents += f.cents;
    down += f.downSquares;
    up += f.upSquares;
  }
  return {
    lowCents: Math.max(0, Math.round(cents - Math.sqrt(down))),
    highCents: Math.round(cents + Math.sqrt(up)),
  };
}

/** The forecast of each site of `siteIds` over `period` with what its range needs; null when the forecast refuses the period. */
export async function periodForecastWithRange(
  db: Queryable,
  siteIds: readonly number[],
  period: BiPeriod,
): Promise<Map<number, PeriodForecast> | null> {
  try {
    const sites = await forecastSites(db, { siteIds, from: period.dateDebut, to: period.dateFin });
    return new Map(
      sites.map((s) => {
        const f: PeriodForecast = { cents: 0, downSquares: 0, upSquares: 0 };
        for (const d of s.days) {
          f.cents += d.forecastCents;
          f.downSquares += (d.forecastCents - (d.lowCents ?? d.forecastCents)) ** 2;
          f.upSquares += ((d.highCents ?? d.forecastCents) - d.forecastCents) ** 2;
        }
        return [s.siteId, f];
      }),
    );
  } catch (e) {
    if (e instanceof DomainError) return null;
    throw e;
  }
}

/** Σ forecast of each site of `siteIds` over `period`; null when the forecast refuses the period. */
export async function periodForecast(
  db: Queryable,
  siteIds: readonly number[],
  period: BiPeriod,
): Promise<Map<number, number> | null> {
  const forecasts = await periodForecastWithRange(db, siteIds, period);
  return forecasts && new Map([...forecasts].map(([id, f]) => [id, f.cents]));
}

/**
 * The forecast of each site for its own fiscal date `fiscalDate` (sites on different clocks may
 * be on different days); null when the forecast refuses.
 */
export async function dayForecast(
  db: Queryable,
  days: readonly { siteId: number; fiscalDate: string }[],
): Promise<Map<number, number> | null> {
  const byDate = new Map<string, number[]>();
  for (const d of days) byDate.set(d.fiscalDate, [...(byDate.get(d.fiscalDate) ?? []), d.siteId]);
  const out = new Map<number, number>();
  for (const [fiscalDate, siteIds] of byDate) {
    const part = await periodForecast(db, siteIds, { dateDebut: fiscalDate, dateFin: fiscalDate });
    if (!part) return null;
    for (const [id, cents] of part) out.set(id, cents);
  }
  return out;
}

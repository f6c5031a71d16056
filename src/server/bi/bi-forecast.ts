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

/** Σ forecast of each site of `siteIds` over `period`; null when the forecast refuses the period. */
export async function periodForecast(
  db: Queryable,
  siteIds: readonly number[],
  period: BiPeriod,
): Promise<Map<number, number> | null> {
  try {
    const sites = await forecastSites(db, { siteIds, from: period.dateDebut, to: period.dateFin });
    return new Map(sites.map((s) => [s.siteId, s.days.reduce((t, d) => t + d.forecastCents, 0)]));
  } catch (e) {
    if (e instanceof DomainError) return null;
    throw e;
  }
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

/**
 * The forecasts of the home dashboard: the `previsions` widget and the forecast column of
 * `ventes`. Placeholder until src/server/forecast lands (issue #19, the forecast's part).
 */
import type { DayPartKey } from '../../contract/day-parts.ts';
import type { Queryable } from '../db/queryable.ts';

/** The forecast of one fiscal date summed over sites: total and per day part, cents incl. VAT. */
export interface DayForecast {
  totalCents: number;
  dayParts: Map<DayPartKey, number>;
}

/** The forecast of `fiscalDate` summed over `siteIds`; null when none can be made. */
export async function dayForecast(
  _db: Queryable,
  _siteIds: readonly number[],
  _fiscalDate: string,
): Promise<DayForecast | null> {
  return null;
}

import type { HomeForecastAnswer } from '../../contract/home.ts';
import { type HomeRequest, requireWidgetRight, widgetContext } from './widget-context.ts';

/** The `previsions` widget. */
export async function homeForecast(db: Queryable, request: HomeRequest): Promise<HomeForecastAnswer> {
  requireWidgetRight('previsions', request.rights);
  const ctx = await widgetContext(db, request);
  return { data: { method: '', currency: ctx.currency, sites: [] } };
}

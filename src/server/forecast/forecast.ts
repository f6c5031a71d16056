/**
 * The sales forecast of issue #19, for the previsions route, the home widgets, the tracker and
 * the KPI screens: {@link forecastSites} answers, per site and fiscal date, the forecast net
 * sales per day part and in total, the actual sales so far, the events applied, and the site's
 * reliability measured by a rolling backtest (model.ts, engine.ts; method: decision 0017).
 *
 * Fitted models are kept per site and "today" in a TableCache of the change feed (db/changes.ts,
 * decision 0007) over local_events, local_event_sites, data_loads and sites: an event saved, a
 * sales load or a site's clock changed empties it, in every server process. The cache belongs
 * to the pool it was installed for ({@link installForecastCache}, called by the server at start);
 * a caller passing that pool shares it, any other Queryable (a transaction's client, a script)
 * computes afresh. Actual sales are read on every call, so "today so far" is always current.
 */
import type { ForecastAnswer } from '../../contract/forecast.ts';
import type { ChangeFeed, TableCache } from '../db/changes.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';
import { DAY_PARTS } from '../../contract/day-parts.ts';
import { dayOf, wireOf } from './calendar.ts';
import { readSiteHistory } from './history.ts';
import { fitSiteModel } from './fitting.ts';
import type { SiteModel } from './model.ts';

/** Most days {@link forecastSites} answers in one call (a year and a day). */
export const FORECAST_MAX_DAYS = 366;

/** Tables whose changes make a fitted model stale (migration 0010 makes them NOTIFY). */
export const FORECAST_TABLES = ['local_events', 'local_event_sites', 'data_loads', 'sites'] as const;

/** Models per `siteId:today`, and the fits under way (so concurrent callers fit once). */
interface ForecastCache {
  feed: ChangeFeed;
  models: TableCache<SiteModel>;
  pending: Map<string, Promise<SiteModel>>;
}

const caches = new WeakMap<object, ForecastCache>();

/**
 * Makes {@link forecastSites} keep models for calls made with `pool`, emptied by `feed`'s
 * notifications on {@link FORECAST_TABLES}. Entries also expire after 6 hours.
 */
export function installForecastCache(pool: Queryable, feed: ChangeFeed): void {
  caches.set(pool, {
    feed,
    models: feed.cache<SiteModel>([...FORECAST_TABLES], { maxAgeMs: 6 * 3_600_000, maxEntries: 2_000 }),
    pending: new Map(),
  });
}

/** What {@link forecastSites} forecasts. */
export interface ForecastRequest {
  /** Sites, already restricted to the caller's scope (auth/scope.ts restrictToScope). */
  siteIds: readonly number[];
  /** First and last fiscal dates `YYYY-MM-DD`, inclusive, at most {@link FORECAST_MAX_DAYS}. */
  from: string;
  to: string;
  /** The instant "today" is taken at, per site's clock (default now). */
  now?: Date;
}

type SiteForecast = ForecastAnswer['data']['sites'][number];

interface SiteClock {
  id: number;
  time_zone: string;
  day_start: string;
}

/** The model of `siteId` as seen on day `today`, from the cache of `db` when it has one. */
async function modelOf(db: Queryable, siteId: number, today: number): Promise<SiteModel> {
  const build = async () => fitSiteModel(await readSiteHistory(db, siteId), today);
  const cache = caches.get(db);
  if (!cache) return build();
  const key = `${siteId}:${today}`;
  const running = cache.pending.get(key);
  if (running) return running;
  const promise = cache.models
    .get(key, build)
    .then((m) => m ?? build())
    .finally(() => cache.pending.delete(key));
  cache.pending.set(key, promise);
  return promise;
}

function checkedDays(from: string, to: string): { first: number; last: number } {
  let first: number;
  let last: number;
  try {
    first = dayOf(from);
    last = dayOf(to);
  } catch {
    throw new DomainError('invalid', 'BadRequest', 'from and to must be dates YYYY-MM-DD');
  }
  if (last < first) throw new DomainError('invalid', 'BadRequest', `${to} is before ${from}`);
  const days = last - first + 1;
  if (days > FORECAST_MAX_DAYS) {
    throw new DomainError(
      'invalid',
      'MaxReportDays',
      `${days} days requested, at most ${FORECAST_MAX_DAYS}`,
      {
        maxDays: FORECAST_MAX_DAYS,
        days,
      },
    );
  }
  return { first, last };
}

/**
 * The forecast of sites `request.siteIds` (unknown ids are left out) for each fiscal date of
 * `from`…`to`, ascending by site id: per day the forecast total and day parts (cents incl. VAT;
 * a day before the site's today is forecast as its backtest week was, from the data before
 * that week, or before its 28-day block beyond 8 weeks: model.ts) with their 80 % ranges, the
 * actual net sales (null after the site's today; 0 for a past day without sales), the uuids of
 * the events applied, the day's public holiday, and the site's reliability over the last 8 weeks
 * (overall, per day part and per horizon band).
 * @throws DomainError invalid `BadRequest` when a date is malformed or `to` < `from`;
 *   invalid `MaxReportDays` (details.maxDays) beyond {@link FORECAST_MAX_DAYS} days.
 */
export async function forecastSites(
  db: Queryable,
  request: { siteIds: readonly number[]; from: string; to: string; now?: Date },
): Promise<ForecastAnswer['data']['sites']> {
  const { first, last } = checkedDays(request.from, request.to);
  if (request.siteIds.length === 0) return [];
  const now = request.now ?? new Date();
  const [{ rows: sites }, { rows: actualRows }] = await Promise.all([
    db.query<SiteClock>('SELECT id, time_zone, day_start FROM sites WHERE id = ANY($1) ORDER BY id', [
      [...request.siteIds],
    ]),
    db.query<{ site_id: number; fiscal_date: string; net: number }>(
      `SELECT site_id, fiscal_date::text, net_cents AS net FROM daily_sales
        WHERE site_id = ANY($1) AND fiscal_date BETWEEN $2 AND $3`,
      [[...request.siteIds], request.from, request.to],
    ),
  ]);
  const actuals = new Map(actualRows.map((r) => [`${r.site_id}:${r.fiscal_date}`, Number(r.net)]));
  const out: SiteForecast[] = [];
  for (const site of sites) {
    const today = dayOf(currentFiscalDate(now, site.time_zone, site.day_start));
    const model = await modelOf(db, site.id, today);
    out.push(siteForecast(model, site.id, first, last, actuals));
  }
  return out;
}

function siteForecast(
  model: SiteModel,
  siteId: number,
  first: number,
  last: number,
  actuals: ReadonlyMap<string, number>,
): SiteForecast {
  const days: SiteForecast['days'] = [];
  for (let day = first; day <= last; day++) {
    const f = model.day(day);
    const fiscalDate = wireOf(day);
    days.push({
      fiscalDate,
      forecastCents: f.total,
      lowCents: f.range.low,
      highCents: f.range.high,
      dayParts: DAY_PARTS.map((p, i) => ({
        key: p.key,
        forecastCents: f.parts[i]!,
        lowCents: f.partRanges[i]!.low,
        highCents: f.partRanges[i]!.high,
        uncertain: f.partUncertain[i]!,
      })),
      actualCents: day > model.today ? null : (actuals.get(`${siteId}:${fiscalDate}`) ?? 0),
      events: f.events,
      ...(f.holiday === undefined ? {} : { holiday: f.holiday }),
    });
  }
  return { siteId, days, reliability: model.backtest().ours };
}

/**
 * Fits the models of every site of `db` as seen now, one site after the other, so widgets
 * answer from the cache. Sites already in the cache cost a lookup; does nothing when `db` has
 * no cache ({@link installForecastCache}) or its change feed is not listening. Resolves when
 * done; `signal` stops it between two sites.
 */
export async function warmForecasts(db: Queryable, signal?: AbortSignal): Promise<void> {
  // Without a listening feed nothing would be kept: fitting now would only cost CPU.
  if (!caches.get(db)?.feed.live) return;
  const { rows } = await db.query<SiteClock>('SELECT id, time_zone, day_start FROM sites ORDER BY id');
  for (const site of rows) {
    if (signal?.aborted) return;
    await new Promise((resolve) => setImmediate(resolve));
    const today = dayOf(currentFiscalDate(new Date(), site.time_zone, site.day_start));
    const model = await modelOf(db, site.id, today);
    model.backtest();
    model.day(today);
  }
}

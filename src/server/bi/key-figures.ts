/**
 * The chain's key figures (issue #19 "/totalKPI"; GET bo/bi/totalKPI): for a period of at most
 * 366 days and the chosen sites of the caller's scope, one line for them all, then one per
 * company, per group (its sites among the chosen ones; a site in two groups counts in both) and
 * per site, each with the same figures 364 days earlier (same weekdays), how complete that year
 * before is, the forecast when there is one (periods of at most 62 days), and the net sales per
 * day for a sparkline.
 *
 * The year before is FULL when every site of the line had sales on at least 90 % as many days
 * as it has in the period, NONE when the line had no sales at all then, PARTIAL otherwise; the
 * screen shows no percentage on a base that is not FULL (issue #20 item 13).
 */
import type { BiFigures, BiKpiAnswer, BiKpiLine } from '../../contract/bi.ts';
import type { Queryable } from '../db/queryable.ts';
import { GROUP_SITES_SQL } from '../reference/site-groups.ts';
import { type PeriodForecast, periodForecastWithRange, periodRange } from './bi-forecast.ts';
import { type BiPeriod, biPeriod, biSites, datesOf, shiftPeriod, YEAR_SHIFT_DAYS } from './bi-sites.ts';
import { emptySums, type PeriodTag, readSiteSums, type SiteSums } from './key-figure-reads.ts';

/** Longest period of the key figures, in days. */
export const KPI_MAX_DAYS = 366;

/**
 * Longest period compared with the forecast, in days (the events calendar's own limit, GET
 * previsions): past days are forecast week by week from the data before each week, so a year
 * would fit fifty-odd models per site before the first answer.
 */
export const KPI_FORECAST_MAX_DAYS = 62;

/** Share of the period's days with sales the year before must have for a percentage to mean something. */
const FULL_COVERAGE = 0.9;

/** What {@link keyFigures} answers for. */
export interface KeyFiguresRequest {
  sites: readonly number[];
  scope: readonly number[];
  dateDebut: string;
  dateFin: string;
  /**
   * Forecast net sales per site for the period with what its 80 % range needs, or null when
   * there is none; default the chain's forecast (bi/bi-forecast.ts periodForecastWithRange).
   */
  forecast?: (siteIds: readonly number[], period: BiPeriod) => Promise<Map<number, PeriodForecast> | null>;
}

/** `sums` added together. */
function addSums(all: readonly SiteSums[]): SiteSums {
  const total = emptySums();
  for (const s of all) {
    total.netCents += s.netCents;
    total.tickets += s.tickets;
    total.covers += s.covers;
    total.cancellations += s.cancellations;
    total.items += s.items;
    total.keptLines += s.keptLines;
    total.correctedLines += s.correctedLines;
    if (s.cashVarianceCents !== null)
      total.cashVarianceCents = (total.cashVarianceCents ?? 0) + s.cashVarianceCents;
    total.days = Math.max(total.days, s.days);
    for (const [d, v] of s.byDate) total.byDate.set(d, (total.byDate.get(d) ?? 0) + v);
  }
  return total;
}

/** The figures of `s`: rates as fractions, null without a base. */
export function figuresOf(s: SiteSums): BiFigures {
  const lines = s.keptLines + s.correctedLines;
  return {
    netCents: Math.round(s.netCents),
    tickets: Math.round(s.tickets),
    averageTicketCents: s.tickets > 0 ? Math.round(s.netCents / s.tickets) : null,
    covers: Math.round(s.covers),
    itemsPerTicket: s.tickets > 0 ? Math.round((s.items / s.tickets) * 100) / 100 : null,
    cancellationRate: s.tickets > 0 ? s.cancellations / s.tickets : null,
    correctionRate: lines > 0 ? s.correctedLines / lines : null,
    cashVarianceCents: s.cashVarianceCents === null ? null : Math.round(s.cashVarianceCents),
  };
}

/** FULL, PARTIAL or NONE for the sites `sums` (see the module's header). */
function coverageOf(sums: readonly Record<PeriodTag, SiteSums>[]): 'FULL' | 'PARTIAL' | 'NONE' {
  if (sums.every((s) => s.prev.days === 0)) return 'NONE';
  const full = sums.every((s) => s.prev.days >= FULL_COVERAGE * s.cur.days);
  return full ? 'FULL' : 'PARTIAL';
}

/** The groups holding some of `siteIds`: id, name and their sites among `siteIds`. */
async function groupsOf(db: Queryable, siteIds: readonly number[]) {
  const { rows } = await db.query<{ id: number; name: string; site_ids: number[] }>(
    `SELECT g.id, g.raison_sociale AS name, array_agg(gs.site_id ORDER BY gs.site_id) AS site_ids
       FROM groups g JOIN ${GROUP_SITES_SQL} gs ON gs.group_id = g.id
      WHERE gs.site_id = ANY($1::int[]) GROUP BY g.id ORDER BY g.raison_sociale`,
    [siteIds],
  );
  return rows;
}

/** Company names of `companyIds`. */
async function companyNames(db: Queryable, companyIds: readonly number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ id: number; name: string }>(
    'SELECT id, raison_sociale AS name FROM companies WHERE id = ANY($1::int[]) ORDER BY raison_sociale',
    [companyIds],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

interface LineSpec {
  level: BiKpiLine['level'];
  key: string;
  label: string;
  siteIds: readonly number[];
}

/**
 * The key figures of `request`.
 * @throws DomainError invalid `BadRequest` or `MaxReportDays` (at most {@link KPI_MAX_DAYS} days)
 *   for a bad period; the errors of biSites (`Forbidden`, `NoSitesSelected`, `mixedCurrencies`).
 */
export async function keyFigures(db: Queryable, request: KeyFiguresRequest): Promise<BiKpiAnswer> {
  const period = biPeriod(request.dateDebut, request.dateFin, KPI_MAX_DAYS);
  const yearBefore = shiftPeriod(period, YEAR_SHIFT_DAYS);
  const { sites, currency } = await biSites(db, request.sites, request.scope);
  const siteIds = sites.map((s) => s.id);
  const [sums, groups, companies, forecast] = await Promise.all([
    readSiteSums(db, siteIds, period, yearBefore),
    groupsOf(db, siteIds),
    companyNames(db, [...new Set(sites.map((s) => s.companyId))]),
    datesOf(period).length > KPI_FORECAST_MAX_DAYS
      ? Promise.resolve(null)
      : (request.forecast ?? ((ids, p) => periodForecastWithRange(db, ids, p)))(siteIds, period),
  ]);
  const specs: LineSpec[] = [
    { level: 'CHAIN', key: 'chain', label: '', siteIds },
    ...[...companies].map(([id, name]) => ({
      level: 'COMPANY' as const,
      key: String(id),
      label: name,
      siteIds: sites.filter((s) => s.companyId === id).map((s) => s.id),
    })),
    ...groups.map((g) => ({
      level: 'GROUP' as const,
      key: String(g.id),
      label: g.name,
      siteIds: g.site_ids,
    })),
    ...sites.map((s) => ({ level: 'SITE' as const, key: String(s.id), label: s.libelle, siteIds: [s.id] })),
  ];
  const dates = datesOf(period);
  const lines = specs.map((spec): BiKpiLine => {
    const parts = spec.siteIds.map((id) => sums.get(id)!);
    const cur = addSums(parts.map((p) => p.cur));
    const range = forecast ? periodRange(spec.siteIds.flatMap((id) => forecast.get(id) ?? [])) : null;
    return {
      level: spec.level,
      key: spec.key,
      label: spec.label,
      current: figuresOf(cur),
      yearBefore: figuresOf(addSums(parts.map((p) => p.prev))),
      yearBeforeCoverage: coverageOf(parts),
      forecastCents: forecast ? spec.siteIds.reduce((t, id) => t + (forecast.get(id)?.cents ?? 0), 0) : null,
      ...(range ? { forecastLowCents: range.lowCents, forecastHighCents: range.highCents } : {}),
      sparkline: dates.map((d) => Math.round(cur.byDate.get(d) ?? 0)),
    };
  });
  return { data: { currency, period, yearBefore, lines } };
}

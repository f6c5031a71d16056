/**
 * GET bo/bi/anomalies (contract/anomalies.ts): the sellers and terminals of the chosen sites of
 * the caller's scope whose cancellations, corrections, discounts or cash variances stand out over
 * a period against their peers and their own previous 8 weeks (detect.ts; decision 0019).
 *
 * Errors (DomainError, SPEC.md §8 codes, as the other period calls): a malformed date or
 * `dateFin` before `dateDebut` → 400 BadRequest; more than {@link ANOMALY_MAX_DAYS} days → 400
 * MaxReportDays; sites of which none is in scope → 403 Forbidden (restrictToScope); no site in
 * scope, or none existing → 400 NoSitesSelected.
 */
import { subDays } from 'date-fns/subDays';
import {
  ANOMALY_MAX_DAYS,
  ANOMALY_THRESHOLD,
  type Anomaly,
  type AnomalyAnswer,
  DEFAULT_PERIOD_DAYS,
  HISTORY_WEEKS,
} from '../../contract/anomalies.ts';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import { restrictToScope } from '../auth/scope.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { checkedPeriod, loadReportSites } from '../reports/request.ts';
import type { ReportSite } from '../reports/types.ts';
import { readAnomalySeries, readEntityNames } from './anomaly-reads.ts';
import { detectAnomalies, type Finding } from './detect.ts';

/** What the route asks for, in the domain's words. */
export interface AnomalyRequest {
  /** restaurantIds asked for; empty = the whole scope (SPEC.md §5). */
  siteIds: readonly number[];
  /** Wire dates; absent = the {@link DEFAULT_PERIOD_DAYS} days ending the day before `today`. */
  dateDebut?: string | undefined;
  dateFin?: string | undefined;
}

/** `days` days before the wire date `date`, as a wire date. */
function daysBefore(date: string, days: number): string {
  return toWireDate(subDays(parseWireDate(date)!, days));
}

/**
 * The period asked for, or the default one ending yesterday (`today` being the server's local
 * date), checked.
 * @throws DomainError invalid BadRequest / MaxReportDays (reports/request.ts checkedPeriod).
 */
export function anomalyPeriod(request: AnomalyRequest, today: Date): { dateDebut: string; dateFin: string } {
  const dateFin = request.dateFin ?? toWireDate(subDays(today, 1));
  const dateDebut =
    request.dateDebut ?? (parseWireDate(dateFin) ? daysBefore(dateFin, DEFAULT_PERIOD_DAYS - 1) : dateFin);
  return checkedPeriod(dateDebut, dateFin, ANOMALY_MAX_DAYS);
}

/**
 * The sites asked for that lie in the scope, read with their label and currency.
 * @throws DomainError forbidden Forbidden; invalid NoSitesSelected.
 */
async function anomalySites(
  database: Database,
  scope: readonly number[],
  requested: readonly number[],
): Promise<ReportSite[]> {
  const ids = restrictToScope(requested, scope);
  if (ids.length === 0) throw new DomainError('invalid', 'NoSitesSelected', "no site in the user's scope");
  const sites = await loadReportSites(database, ids);
  if (sites.length === 0) throw new DomainError('invalid', 'NoSitesSelected', 'none of the sites exists');
  return sites;
}

/** A finding on the wire; `name` falls back to the key when the seller or terminal is unknown. */
function toAnomaly(f: Finding, site: ReportSite | undefined, names: Map<string, string>): Anomaly {
  const s = f.series;
  return {
    siteId: s.siteId,
    site: site?.libelle ?? String(s.siteId),
    currency: site?.currency ?? 'EUR',
    kind: s.kind,
    key: s.key,
    name: names.get(`${s.siteId}|${s.kind}|${s.key}`) ?? s.key,
    measure: s.measure,
    value: f.value,
    peerMedian: f.peer.median,
    peerScope: f.peer.scope,
    peers: f.peer.count,
    historyMedian: f.history.median,
    historyWeeks: f.history.weeks,
    zPeer: f.peer.z,
    zHistory: f.history.z,
    severity: f.severity,
    tickets: s.tickets,
    events: s.period.events,
  };
}

/**
 * The anomalies of the chosen sites (of `scope`) over the period, most severe first.
 * @param today the server's local date, for the default period.
 * @throws DomainError listed in the module's header.
 */
export async function findAnomalies(
  database: Database,
  scope: readonly number[],
  request: AnomalyRequest,
  today: Date = new Date(),
): Promise<AnomalyAnswer> {
  const { dateDebut, dateFin } = anomalyPeriod(request, today);
  const sites = await anomalySites(database, scope, request.siteIds);
  const siteIds = sites.map((s) => s.id);
  const historyDebut = daysBefore(dateDebut, HISTORY_WEEKS * 7);
  const series = await readAnomalySeries(database.pool, { siteIds, dateDebut, dateFin, historyDebut });
  const findings = detectAnomalies(series, ANOMALY_THRESHOLD);
  const names = findings.length > 0 ? await readEntityNames(database.pool, siteIds) : new Map();
  const byId = new Map(sites.map((s) => [s.id, s]));
  return {
    dateDebut,
    dateFin,
    historyDebut,
    historyFin: daysBefore(dateDebut, 1),
    threshold: ANOMALY_THRESHOLD,
    anomalies: findings.map((f) => toAnomaly(f, byId.get(f.series.siteId), names)),
  };
}

/**
 * Rules of /anomalies kept apart from its components, so tests pin them without a browser: the
 * query of GET bo/bi/anomalies built from the selection, the default period (4 weeks ending
 * yesterday), the values of each anomaly's plain-language explanation, and its drill-down into
 * /tickets (seller or terminal, site, period and the matching criterion preselected).
 */
import { subDays } from 'date-fns/subDays';
import { type Anomaly, type AnomalyMeasure, DEFAULT_PERIOD_DAYS } from '../../../contract/anomalies.ts';
import { parseWireDate, toWireDate, wireToDisplay } from '../../../contract/dates.ts';
import type { DateRange } from '../../../contract/periods.ts';
import type { TicketCriterion } from '../../../contract/tickets.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import type { SearchParams } from '../../lib/http.ts';
import type { PeriodChoice } from '../../selection/period.ts';
import { selection } from '../../selection/selection-state.ts';

/** Query of GET bo/bi/anomalies: sites comma-separated (contract/anomalies.ts). */
export function buildAnomalyParams(input: {
  userId: number;
  siteIds: readonly number[];
  range: DateRange;
}): SearchParams {
  return {
    id: input.userId,
    sites: input.siteIds.join(','),
    dateDebut: input.range.dateDebut,
    dateFin: input.range.dateFin,
  };
}

/** The screen's default period as custom dates: the {@link DEFAULT_PERIOD_DAYS} days ending yesterday. */
export function defaultAnomalyPeriod(today: Date = new Date()): PeriodChoice {
  const end = subDays(today, 1);
  return {
    kind: 'custom',
    debut: wireToDisplay(toWireDate(subDays(end, DEFAULT_PERIOD_DAYS - 1))),
    fin: wireToDisplay(toWireDate(end)),
  };
}

/**
 * True when `period` is too short to judge anything (a single day: the shared selection's
 * default is today), so the screen starts from its own default instead.
 */
export function isSingleDay(period: PeriodChoice): boolean {
  return period.kind === 'code'
    ? ['D', 'D-1', 'D-2', 'D-3'].includes(period.code)
    : period.debut === period.fin;
}

/** One measure's value as the explanation shows it, in `language`. */
export function formatMeasure(
  measure: AnomalyMeasure,
  value: number,
  currency: string,
  language: string,
): string {
  if (measure === 'cashVariance') return formatMoney(Math.round(value), currency, language);
  if (measure === 'discountShare') {
    return formatNumber(value / 100, language, {
      style: 'percent',
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    });
  }
  return formatNumber(value, language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** The values of message `anomalies.explain.<measure>`. */
export function explanationValues(
  a: Anomaly,
  language: string,
): { value: string; peerMedian: string; historyMedian: string } {
  return {
    value: formatMeasure(a.measure, a.value, a.currency, language),
    peerMedian: formatMeasure(a.measure, a.peerMedian, a.currency, language),
    historyMedian: formatMeasure(a.measure, a.historyMedian, a.currency, language),
  };
}

/** The criterion of SPEC.md §9 that shows the tickets behind a measure (discounts have none). */
const CRITERION: Record<AnomalyMeasure, TicketCriterion | undefined> = {
  cancellations: 'cancellations',
  corrections: 'corrections',
  discounts: undefined,
  discountShare: undefined,
  cashVariance: 'cashed',
};

/** Search params of /tickets (features/tickets/ticket-link.ts) for an anomaly over `range`. */
export function ticketLinkSearch(
  a: Anomaly,
  range: DateRange,
): { site: number; caisse?: number; vendeur?: string; dateDebut: string; dateFin: string; critere?: string } {
  const criterion = CRITERION[a.measure];
  return {
    site: a.siteId,
    ...(a.kind === 'terminal' ? { caisse: Number(a.key) } : { vendeur: a.key }),
    dateDebut: range.dateDebut,
    dateFin: range.dateFin,
    ...(criterion ? { critere: criterion } : {}),
  };
}

/**
 * A link into /anomalies with its sites and period chosen (`/anomalies?site=1&dateDebut=2026-02-25&dateFin=2026-03-24`,
 * the "new anomaly" alert's mail, issue #28): put into the shared selection, as if picked by
 * hand. False (nothing changed) when the link lacks a valid site or period; a stale link still
 * opens the screen as the user left it.
 */
export function applyAnomalyLink(search: Record<string, unknown>): boolean {
  const site = typeof search.site === 'string' ? Number(search.site) : search.site;
  const { dateDebut, dateFin } = search;
  if (typeof site !== 'number' || !Number.isInteger(site) || site <= 0 || site > 2147483647) return false;
  if (typeof dateDebut !== 'string' || typeof dateFin !== 'string') return false;
  if (!parseWireDate(dateDebut) || !parseWireDate(dateFin) || dateDebut > dateFin) return false;
  Object.assign(selection, {
    groupId: null,
    restaurantIds: [site],
    period: { kind: 'custom', debut: wireToDisplay(dateDebut), fin: wireToDisplay(dateFin) },
  });
  return true;
}

/**
 * Builds the query of `GET bo/getReport` (SPEC.md §7) from the selection, parameter for parameter:
 * id, rapportClassName, typeRapport, dateDebut, dateFin, operation, format, sites[], tpv[],
 * trancheHoraire, heureDebut, heureFin, vendeurs, tri, regroupement, language. Pure, so the tests pin
 * the wire shape.
 */
import { daysInclusive } from '../../contract/dates.ts';
import type { DateRange } from '../../contract/periods.ts';
import {
  encodeSellers,
  type Language,
  type ReportFormat,
  type ReportVariant,
} from '../../contract/reports.ts';
import type { SearchParams } from './http.ts';

/** What a report request is made of, once the selection is resolved. */
export interface ReportRequestInput {
  /** Signed-in user's id (wire `id`). */
  userId: number;
  className: string;
  typeRapport: ReportVariant;
  format: ReportFormat;
  language: Language;
  /** Resolved period, wire dates. */
  range: DateRange;
  /**
   * Separate days instead of the range (SPEC.md §3 `datesMultiples`), wire dates; sent as
   * `datefiscales[]` in place of dateDebut/dateFin. Absent or empty: the range.
   */
  fiscalDates?: readonly string[];
  /** bo/getReport `operation` (SPEC.md §9: VENTE by default). */
  operation?: string;
  /** Reports of the training-mode tickets (bo/getReport `trainingMode=true`, SPEC.md §6). */
  trainingMode?: boolean;
  /** Effective sites: the chosen ones, or all the user's sites when none is chosen (SPEC.md §5). */
  siteIds: readonly number[];
  /** Chosen terminals as `restaurantId:terminalId` keys; empty = every terminal. */
  terminalKeys: readonly string[];
  /** Chosen sellers as `restaurantId:code` keys; empty = every seller. */
  sellerKeys: readonly string[];
  trancheHoraire: boolean;
  /** HH:mm. */
  heureDebut: string;
  /** HH:mm. */
  heureFin: string;
  /** Sort column (bo/getResultsChoices `tris`), or null for the report's own order. */
  sortKey?: string | null;
  /** Sort downwards (wire `key:desc`). */
  sortDescending?: boolean;
  /** Grouping (bo/getResultsChoices `regroupements`), or null for none. */
  groupBy?: string | null;
  /** Keep only rows whose `filtre` dimension is one of `values` (bo/getGroupements); null or no value: no filter. */
  filter?: { filtre: string; values: readonly string[] } | null;
}

/** The part of a `site:item` key after the first colon (seller codes may hold colons). */
function itemOfKey(key: string): string {
  return key.slice(key.indexOf(':') + 1);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/**
 * Query parameters of bo/getReport. Arrays travel as repeated `sites[]=…` / `tpv[]=…` (lib/http).
 * Terminals go as their numbers (`tpv[]`) and sellers as their codes joined by commas, a comma
 * inside a code replaced by SELLER_COMMA_MARKER (SPEC.md §5); both are left out when empty, which
 * the server reads as "every terminal / seller". `operation` is VENTE unless chosen (SPEC.md §9);
 * separate days travel as `datefiscales[]` instead of the range; `trainingMode=true` only when on. `tri`
 * (`key` or `key:desc`) and `regroupement` are sent only when chosen; a filter as `isFilters=true`,
 * `filtre` and repeated `condition[]` values, only when at least one value is chosen.
 */
export function buildReportParams(input: ReportRequestInput): SearchParams {
  const terminals = unique(input.terminalKeys.map((k) => Number(itemOfKey(k)))).filter(Number.isInteger);
  const sellers = unique(input.sellerKeys.map(itemOfKey));
  return {
    id: input.userId,
    rapportClassName: input.className,
    typeRapport: input.typeRapport,
    ...(input.fiscalDates && input.fiscalDates.length > 0
      ? { datefiscales: [...input.fiscalDates] }
      : { dateDebut: input.range.dateDebut, dateFin: input.range.dateFin }),
    operation: input.operation ?? 'VENTE',
    format: input.format,
    sites: [...input.siteIds],
    tpv: terminals.length > 0 ? terminals : undefined,
    trancheHoraire: input.trancheHoraire,
    heureDebut: input.heureDebut,
    heureFin: input.heureFin,
    vendeurs: sellers.length > 0 ? encodeSellers(sellers) : undefined,
    tri: input.sortKey ? `${input.sortKey}${input.sortDescending ? ':desc' : ''}` : undefined,
    regroupement: input.groupBy ?? undefined,
    ...(input.filter && input.filter.values.length > 0
      ? { isFilters: true, filtre: input.filter.filtre, condition: [...input.filter.values] }
      : {}),
    language: input.language,
    ...(input.trainingMode ? { trainingMode: true } : {}),
  };
}

/**
 * Checks made before calling the server, answered with the server's own codes (SPEC.md §8) so the
 * user reads the same message either way: no report chosen (NoReportInState), no site in scope
 * (NoSitesSelected), more than one site where one is allowed (multiSitesTooMuch), a period (or
 * more separate days) longer than the class allows (MaxReportDays with `maxDays`).
 */
export function precheckReport(input: {
  className: string | null;
  siteIds: readonly number[];
  range: DateRange;
  maxDays: number | null;
  /** Separate days chosen instead of the range: their count is what MaxReportDays bounds. */
  fiscalDates?: readonly string[];
  /** One site at most (LIMITATION_SITE, single-site mode): more is `multiSitesTooMuch` (SPEC.md §5). */
  oneSite?: boolean;
}): { code: string; values?: Record<string, number> } | null {
  if (!input.className) return { code: 'NoReportInState' };
  if (input.siteIds.length === 0) return { code: 'NoSitesSelected' };
  if (input.oneSite && input.siteIds.length > 1) return { code: 'multiSitesTooMuch' };
  const days =
    input.fiscalDates && input.fiscalDates.length > 0
      ? new Set(input.fiscalDates).size
      : daysInclusive(input.range.dateDebut, input.range.dateFin);
  if (input.maxDays !== null && days > input.maxDays) {
    return { code: 'MaxReportDays', values: { maxDays: input.maxDays } };
  }
  return null;
}

/**
 * The user's current selection (DESIGN.md §8: UI state in valtio): chosen sites, group, terminals,
 * sellers, period and hours, plus the last report and format chosen on /rapports. Shared by the
 * pickers, /rapports and /home so a choice made on one screen holds on the other.
 *
 * Guarantees: the state is reset on sign-out (SPEC.md §4 "Logout clears report state, sites…"),
 * and `restaurantIds` empty means "all the user's sites" (SPEC.md §5), never "no site".
 */
import { proxy } from 'valtio';
import { DEFAULT_REPORT_HOURS } from '../../contract/periods.ts';
import type { OPERATIONS, ReportVariant } from '../../contract/reports.ts';
import type { PeriodChoice } from './period.ts';

/** Formats offered for download on /rapports (JSON is the on-screen preview, not a file). */
export const DOWNLOAD_FORMATS = ['PDF', 'CSV', 'XLSX'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** Key of a terminal across sites: terminal ids are only unique within their site. */
export function terminalKey(restaurantId: number, terminalId: number): string {
  return `${restaurantId}:${terminalId}`;
}
/** Key of a seller across sites: seller codes are only unique within their site. */
export function sellerKey(restaurantId: number, code: string): string {
  return `${restaurantId}:${code}`;
}

/**
 * Sort, grouping and filter chosen on /rapports (bo/getReport `tri`, `regroupement`, `filtre` and
 * `condition`), for the class `className` only: they name its columns and mean nothing for another.
 */
export interface ReportShaping {
  /** Class the choices were made for; null = none made. */
  className: string | null;
  /** Sort column (bo/getResultsChoices `tris`), or null for the report's own order. */
  sortKey: string | null;
  descending: boolean;
  /** Grouping (bo/getResultsChoices `regroupements`), or null. */
  groupBy: string | null;
  /** Dimension filtered on (e.g. FAMILLE, TVA, PAIEMENT), or null. */
  filtre: string | null;
  /** Values of `filtre` kept (bo/getGroupements values); none = no filter. */
  filterValues: string[];
}

/** No sort, grouping or filter. */
export const NO_SHAPING: Readonly<ReportShaping> = {
  className: null,
  sortKey: null,
  descending: false,
  groupBy: null,
  filtre: null,
  filterValues: [],
};

export interface SelectionState {
  /** Chosen sites (restaurantId); empty = all the user's sites (or all the group's sites). */
  restaurantIds: number[];
  /** Chosen group (regroupement id); null = no group, every site of the user. */
  groupId: number | null;
  /** Chosen terminals as {@link terminalKey}; empty = all terminals. */
  terminals: string[];
  /** Chosen sellers as {@link sellerKey}; empty = all sellers. */
  sellers: string[];
  period: PeriodChoice;
  /** Restrict to an hour range each day (SPEC.md §3 trancheHoraire). */
  trancheHoraire: boolean;
  /** HH:mm, default 12:00 (SPEC.md §9). */
  heureDebut: string;
  /** HH:mm, default 23:00 (SPEC.md §9). */
  heureFin: string;
  /** Last report class chosen on /rapports, and its variant and format (kept across screens). */
  report: { className: string | null; typeRapport: ReportVariant; format: DownloadFormat };
  /** Sort, grouping and filter chosen on /rapports (kept here so a favourite can save and restore them). */
  shaping: ReportShaping;
  /** Operation of /rapports' reports (SPEC.md §3, §9: default VENTE; bo/getReport `operation`). */
  operation: (typeof OPERATIONS)[number];
  /**
   * Several separate days instead of the period (SPEC.md §3 period selection `datesMultiples`,
   * §7 bo/getReport `datefiscales[]`), as /rapports offers it.
   */
  datesMultiples: boolean;
  /** The days of {@link datesMultiples}, wire dates YYYY-MM-DD, sorted, no repeat. */
  dates: string[];
  /** /rapports' single-site mode (SPEC.md §7 "a single-site variant exists": bo/getReportSite). */
  singleSite: boolean;
  /** /rapports' training mode (SPEC.md §6; bo/getReport `trainingMode=true`): reports of the training tickets. */
  trainingMode: boolean;
}

function initialSelection(): SelectionState {
  return {
    restaurantIds: [],
    groupId: null,
    terminals: [],
    sellers: [],
    // SPEC.md §3: dateDebut/dateFin default to today.
    period: { kind: 'code', code: 'D' },
    trancheHoraire: false,
    heureDebut: DEFAULT_REPORT_HOURS.heureDebut,
    heureFin: DEFAULT_REPORT_HOURS.heureFin,
    report: { className: null, typeRapport: 'Daily', format: 'PDF' },
    shaping: { ...NO_SHAPING, filterValues: [] },
    operation: 'VENTE',
    datesMultiples: false,
    dates: [],
    singleSite: false,
    trainingMode: false,
  };
}

/** The selection store. Mutate it directly (valtio); read it in components with `useSnapshot`. */
export const selection = proxy<SelectionState>(initialSelection());

/** Puts the selection back to its defaults (sign-out, SPEC.md §4). */
export function resetSelection(): void {
  Object.assign(selection, initialSelection());
}

/** State of the reference-data load that follows sign-in (SPEC.md §4 "a loading flag"). */
export const referenceLoad = proxy<{ loading: boolean; loaded: boolean; failedCode: string | null }>({
  loading: false,
  loaded: false,
  failedCode: null,
});

/** Resets {@link referenceLoad} (sign-out). */
export function resetReferenceLoad(): void {
  Object.assign(referenceLoad, { loading: false, loaded: false, failedCode: null });
}

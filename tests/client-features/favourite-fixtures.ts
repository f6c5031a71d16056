/**
 * What the favourite tests share, with no DOM and no React (so the DOM-free tests and those
 * against the server may import it as the screen tests do): the report choices of the family
 * sales report, and the bo/getReport input that /rapports builds from a favourite's shaping.
 */
import type { ResultsChoicesAnswer } from '../../src/contract/exports.ts';
import type { ReportRequestInput } from '../../src/client/lib/report-request.ts';
import type { ReportShaping } from '../../src/client/selection/selection-state.ts';

/**
 * bo/getResultsChoices of RapportVentesFamille, cut down to what the favourite screens read:
 * PDF only, no variant nor operation; filter, grouping and sort choices of one entry each
 * (family, family, net sales); conditions from bo/getGroupements.
 */
export const FAMILY_CHOICES: ResultsChoicesAnswer = {
  className: 'RapportVentesFamille',
  localisedTitle: 'Ventes par famille',
  variants: [],
  formats: ['PDF'],
  maxDays: 366,
  operations: [],
  filtres: [{ value: 'FAMILLE', label: 'Famille de produits' }],
  tris: [{ value: 'netSales', label: 'CA TTC' }],
  regroupements: [{ value: 'FAMILLE', label: 'Famille de produits' }],
  conditionsFrom: 'bo/getGroupements',
};

/** Who asks and for what, in {@link shapedReportInput}. */
export interface ShapedReportTarget {
  userId: number;
  className: string;
  range: ReportRequestInput['range'];
  siteIds: number[];
}

/**
 * The input of buildReportParams for a Daily JSON report in French of `target`, every terminal
 * and seller, no hour range (12:00–23:00 kept as the screen's defaults), sorted, grouped and
 * filtered as `shaping` says (no filter when it has no `filtre`).
 */
export function shapedReportInput(shaping: ReportShaping, target: ShapedReportTarget): ReportRequestInput {
  return {
    userId: target.userId,
    className: target.className,
    typeRapport: 'Daily',
    format: 'JSON',
    language: 'fr',
    range: target.range,
    siteIds: target.siteIds,
    terminalKeys: [],
    sellerKeys: [],
    trancheHoraire: false,
    heureDebut: '12:00',
    heureFin: '23:00',
    sortKey: shaping.sortKey,
    sortDescending: shaping.descending,
    groupBy: shaping.groupBy,
    filter: shaping.filtre ? { filtre: shaping.filtre, values: shaping.filterValues } : null,
  };
}

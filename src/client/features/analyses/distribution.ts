/**
 * Distributions screen (/analyses/repartitions, SPEC.md §7 `bo/getRepartition`): the request
 * parameters built from the selection, and the rows turned into what the table and the bar chart
 * show. Pure, so the tests pin both without a browser.
 */
import type { DateRange } from '../../../contract/periods.ts';
import type {
  DistributionAnswer,
  DistributionStatus,
  DistributionType,
} from '../../../contract/distributions.ts';
import type { Language } from '../../../contract/reports.ts';
import type { SearchParams } from '../../lib/http.ts';

/** What one distribution request is made of, once the selection is resolved. */
export interface DistributionRequestInput {
  userId: number;
  type: DistributionType;
  status: DistributionStatus;
  /** Effective sites (the chosen ones, or all the user's sites, SPEC.md §5). */
  siteIds: readonly number[];
  range: DateRange;
  language: Language;
}

/** Query of GET bo/getRepartition: sites travel comma-separated in `site` (contract/distributions.ts). */
export function buildDistributionParams(input: DistributionRequestInput): SearchParams {
  return {
    id: input.userId,
    typeRepartition: input.type,
    statut: input.status,
    site: input.siteIds.join(','),
    dateDebut: input.range.dateDebut,
    dateFin: input.range.dateFin,
    language: input.language,
  };
}

/** One bar of the distribution chart and one row of its table. */
export interface DistributionBar {
  key: string;
  label: string;
  tickets: number;
  /** Integer cents. */
  amountCents: number;
  /** Share of the total in percent (25 = 25 %), rounded to 0.1, as the bar's length. */
  sharePercent: number;
}

/**
 * The answer's rows as bars, in the server's order (largest amount first), except hours of the
 * day (TRANCHE), put back in clock order so the day reads from morning to night. Shares come from
 * the server as fractions; the chart reads percent. A negative share (a part whose returns
 * outweigh its sales) is kept negative so the bar points left.
 */
export function distributionBars(answer: DistributionAnswer): DistributionBar[] {
  const rows =
    answer.typeRepartition === 'TRANCHE'
      ? [...answer.rows].sort((a, b) => a.key.localeCompare(b.key))
      : answer.rows;
  return rows.map((r) => ({
    key: r.key,
    label: r.label,
    tickets: r.tickets,
    amountCents: r.amountCents,
    sharePercent: Math.round(r.share * 1000) / 10,
  }));
}

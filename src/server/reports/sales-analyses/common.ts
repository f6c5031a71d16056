/**
 * What the sales analyses (by hour, day part, family, terminal, seller, payment method, VAT
 * rate, covers, year-on-year comparison) share: the ticket selection of a report request,
 * written once as SQL so every breakdown keeps exactly the tickets the sales report
 * (`RapportVentes`, sales.ts) keeps, and the small helpers that turn aggregated rows into
 * dataset cells.
 *
 * Guarantee: for the same request, every breakdown of ticket totals (hour, day part, terminal,
 * seller, covers) sums to the sales report's total to the cent; breakdowns of ticket lines
 * (family, VAT rate) and of payments sum to it as long as tickets total their lines and their
 * payments, which every load guarantees (schema.ts, demo generator, import).
 */
import { z } from 'zod';
import type { ReportRequest } from '../types.ts';
import { minutesToHhmm } from '../types.ts';

/** A period to select: the request's own, or the same period shifted (year-on-year comparison). */
export interface SelectedPeriod {
  dateDebut: string;
  dateFin: string;
  /** Explicit fiscal dates (datefiscales[]), or null for the whole range. */
  fiscalDates: string[] | null;
}

/** The period of `request`. */
export function periodOf(request: ReportRequest): SelectedPeriod {
  return { dateDebut: request.dateDebut, dateFin: request.dateFin, fiscalDates: request.fiscalDates };
}

/**
 * The FROM clause every analysis starts from: tickets `t`, their site `s`, and `local.tod`, the
 * time of day the ticket was opened in the site's own clock (computed once per ticket, as in
 * sales.ts; hours and day parts read it, and so does the hour-range filter).
 */
export const TICKETS_FROM = `tickets t
  JOIN sites s ON s.id = t.site_id
  CROSS JOIN LATERAL (SELECT (t.opened_at AT TIME ZONE s.time_zone)::time AS tod) local`;

/**
 * The WHERE conditions selecting the tickets of `request` (sites, period or fiscal dates,
 * training mode, terminals, sellers, hour range — the very rules of sales.ts), on the aliases of
 * {@link TICKETS_FROM}. Appends its values to `values` and numbers its placeholders after the
 * ones already there, so a query can select two periods (comparison) with one list of values.
 * The site and date conditions come first and are plain, so the planner reaches tickets through
 * the `(site_id, fiscal_date)` index.
 */
export function ticketConditions(
  request: ReportRequest,
  values: unknown[],
  period: SelectedPeriod = periodOf(request),
): string {
  const $ = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const hours = request.hours;
  const from = hours ? minutesToHhmm(hours.start) : null;
  const to = hours ? minutesToHhmm(hours.end) : null;
  const conditions = [
    `t.site_id = ANY(${$(request.sites.map((s) => s.id))}::int[])`,
    `t.fiscal_date BETWEEN ${$(period.dateDebut)}::date AND ${$(period.dateFin)}::date`,
  ];
  if (period.fiscalDates) conditions.push(`t.fiscal_date = ANY(${$(period.fiscalDates)}::date[])`);
  if (!request.trainingMode) conditions.push('NOT t.training_mode');
  if (request.terminals.length > 0) conditions.push(`t.terminal_id = ANY(${$(request.terminals)}::int[])`);
  if (request.sellers.length > 0) conditions.push(`t.seller_code = ANY(${$(request.sellers)}::text[])`);
  if (from !== null && to !== null) {
    // Same reading as sales.ts: end excluded, a range ending before it starts wraps past
    // midnight, equal bounds mean the whole day.
    if (from < to) conditions.push(`local.tod >= ${$(from)}::time AND local.tod < ${$(to)}::time`);
    else if (from > to) conditions.push(`(local.tod >= ${$(from)}::time OR local.tod < ${$(to)}::time)`);
  }
  return conditions.join('\n    AND ');
}

/**
 * Class parameters shared by the analyses. `operation`: VENTE (default) and TOUTES both mean
 * "every ticket", as for the sales report; cancellation- and correction-only views are other
 * classes, so they are refused rather than silently answered with sales. The other
 * bo/getReport class parameters have no meaning here and are ignored.
 */
export const AnalysisParamsSchema = z.object({
  operation: z.enum(['VENTE', 'TOUTES']),
});
export type AnalysisParams = z.infer<typeof AnalysisParamsSchema>;

/** A bigint/numeric cell as pg answers it (number with the int8 parser, else string) → number. */
export function num(value: number | string | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** `part / whole` as a fraction (0.2 = 20 %), null when the whole is 0 (no share to speak of). */
export function share(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

/** Sum of `pick(row)` over `rows`. */
export function sumOf<T>(rows: readonly T[], pick: (row: T) => number): number {
  let total = 0;
  for (const r of rows) total += pick(r);
  return total;
}

/** `HH:00–HH:00` for the local hours `[from, to)`; 24 reads 24:00. */
export function hourSpan(from: number, to: number): string {
  const h = (n: number) => `${String(n).padStart(2, '0')}:00`;
  return `${h(from)}–${h(to)}`;
}

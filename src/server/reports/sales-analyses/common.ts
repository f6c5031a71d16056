/**
 * What the sales analyses (by hour, day part, family, terminal, seller, payment method, VAT
 * rate, covers, year-on-year comparison) share: their class parameters and the small helpers
 * that turn aggregated rows into dataset cells. They select their tickets with
 * ../ticket-selection.ts, as every report class does, so every breakdown keeps exactly the
 * tickets the sales report (`RapportVentes`, sales.ts) keeps.
 *
 * Guarantee: for the same request, every breakdown of ticket totals (hour, day part, terminal,
 * seller, covers) sums to the sales report's total to the cent; breakdowns of ticket lines
 * (family, VAT rate) and of payments sum to it as long as tickets total their lines and their
 * payments, which every load guarantees (schema.ts, demo generator, import).
 */
import { z } from 'zod';
import { SALE_OPERATIONS } from '../ticket-selection.ts';

/**
 * Class parameters shared by the analyses. `operation`: VENTE (default) and TOUTES both mean
 * "every ticket", as for the sales report; cancellation- and correction-only views are other
 * classes, so they are refused rather than silently answered with sales. The other
 * bo/getReport class parameters have no meaning here and are ignored.
 */
export const AnalysisParamsSchema = z.object({
  operation: z.enum(SALE_OPERATIONS),
});
export type AnalysisParams = z.infer<typeof AnalysisParamsSchema>;

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

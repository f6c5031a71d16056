/**
 * The KPI/BI explorer's choices (measures, dimensions, comparisons) and which go together
 * ({@link measureAllowed}), apart from contract/bi.ts's wire schemas: this module builds no zod
 * schema, so the /bi route's address check (features/bi/bi-choices.ts, in the route tree loaded
 * at start) costs the login page no validation library. contract/bi.ts re-exports all of it.
 */
/**
 * Measures of the explorer. Units: NET, AVERAGE_TICKET and DISCOUNTS cents incl. VAT (DISCOUNTS
 * what the discount lines gave away, positive), ITEMS quantity, others counts.
 */
export const BI_MEASURES = ['NET', 'TICKETS', 'AVERAGE_TICKET', 'COVERS', 'ITEMS', 'DISCOUNTS'] as const;
export type BiMeasure = (typeof BI_MEASURES)[number];

/** Measures that are amounts of money (integer cents): shown and exported as money. */
export const BI_MONEY_MEASURES: readonly BiMeasure[] = ['NET', 'AVERAGE_TICKET', 'DISCOUNTS'];

/** Dimensions of the explorer (labels `bi.dimension.<key>`). */
export const BI_DIMENSIONS = [
  'SITE',
  'GROUP',
  'COMPANY',
  'FAMILY',
  'DAY_PART',
  'WEEKDAY',
  'HOUR',
  'TERMINAL',
  'SELLER',
  'PAYMENT',
  'VAT',
] as const;
export type BiDimension = (typeof BI_DIMENSIONS)[number];

/** Comparison periods: the same number of days just before, or the same weekdays 364 days earlier. */
export const BI_COMPARISONS = ['PREVIOUS', 'YEAR'] as const;
export type BiComparison = (typeof BI_COMPARISONS)[number];

/** Dimensions any per-site, per-day aggregate can be grouped by. */
const SITE_LEVEL: readonly BiDimension[] = ['SITE', 'GROUP', 'COMPANY', 'WEEKDAY'];

/**
 * The aggregate family each breakdown dimension is read from, and the measures that family holds
 * (schema-aggregates.ts): hours and day parts from `daily_hour_sales`, terminals and sellers
 * from their tables (tickets, sales and discounts), families from `daily_family_sales` (sales,
 * quantity, discounts), VAT rates and payment methods only as amounts.
 */
export const BI_BREAKDOWNS: Record<string, { source: string; measures: readonly BiMeasure[] }> = {
  HOUR: { source: 'hour', measures: ['NET', 'TICKETS', 'AVERAGE_TICKET', 'COVERS', 'DISCOUNTS'] },
  DAY_PART: { source: 'hour', measures: ['NET', 'TICKETS', 'AVERAGE_TICKET', 'COVERS', 'DISCOUNTS'] },
  TERMINAL: { source: 'terminal', measures: ['NET', 'TICKETS', 'AVERAGE_TICKET', 'DISCOUNTS'] },
  SELLER: { source: 'seller', measures: ['NET', 'TICKETS', 'AVERAGE_TICKET', 'DISCOUNTS'] },
  FAMILY: { source: 'family', measures: ['NET', 'ITEMS', 'DISCOUNTS'] },
  VAT: { source: 'vat', measures: ['NET'] },
  PAYMENT: { source: 'payment', measures: ['NET'] },
};

/**
 * Whether `measure` can be read by `dimensions` (up to two): every site-level dimension goes
 * with every measure; the breakdown dimensions must all come from one aggregate family that
 * holds the measure. Covers by family, for instance, is not held anywhere.
 */
export function measureAllowed(measure: BiMeasure, dimensions: readonly BiDimension[]): boolean {
  const breakdowns = dimensions.filter((d) => !SITE_LEVEL.includes(d));
  const sources = new Set(breakdowns.map((d) => BI_BREAKDOWNS[d]!.source));
  if (sources.size > 1) return false;
  return breakdowns.every((d) => BI_BREAKDOWNS[d]!.measures.includes(measure));
}

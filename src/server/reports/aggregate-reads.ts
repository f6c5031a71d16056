/**
 * When a report may read the per-day aggregates (db/aggregates.ts, DESIGN.md §5) instead of the
 * tickets, and the SQL conditions that select the aggregate rows of a request.
 *
 * Reports read the aggregates only when the request keeps every ticket of a day
 * ({@link readsAggregates}: no hour range, terminal or seller filter, training tickets left
 * out); otherwise they aggregate the tickets themselves. Both paths give the same figures to the
 * cent (tests/reports/aggregates.test.ts); {@link withRawReads} forces the tickets path so a
 * test can compare them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ReportRequest } from './types.ts';

/** Set while {@link withRawReads} runs: reports then read the tickets, never the aggregates. */
const rawReads = new AsyncLocalStorage<true>();

/**
 * Runs `fn` with every report reading the tickets themselves rather than the aggregates (the
 * path taken with filters), for tests that check both paths agree. Scoped to `fn`'s async
 * context, so concurrent requests elsewhere are not affected.
 */
export function withRawReads<T>(fn: () => Promise<T>): Promise<T> {
  return rawReads.run(true, fn);
}

/**
 * True when `request` can be answered from the per-day aggregates: it keeps every ticket of
 * each selected day except training ones (no hour range, no terminal or seller filter,
 * `trainingMode` false) — the aggregates hold whole days without training tickets. False inside
 * {@link withRawReads}.
 */
export function readsAggregates(request: ReportRequest): boolean {
  return (
    request.hours === null &&
    request.terminals.length === 0 &&
    request.sellers.length === 0 &&
    !request.trainingMode &&
    rawReads.getStore() === undefined
  );
}

/**
 * True when `request` can be answered from `daily_hour_sales`: as {@link readsAggregates}, but
 * an hour range is allowed when both bounds are whole hours (12:00–23:00, 22:00–03:00), since
 * the table keeps each local hour apart. False inside {@link withRawReads}.
 */
export function readsHourAggregates(request: ReportRequest): boolean {
  const hours = request.hours;
  return (
    (hours === null || (hours.start % 60 === 0 && hours.end % 60 === 0)) &&
    request.terminals.length === 0 &&
    request.sellers.length === 0 &&
    !request.trainingMode &&
    rawReads.getStore() === undefined
  );
}

/**
 * The condition on `daily_hour_sales.hour` (alias `alias`) of the request's whole-hour range,
 * read as the tickets path reads it (sales.ts): end excluded, a range ending before it starts
 * wraps past midnight, equal bounds mean the whole day. Empty string when there is no range.
 * Appends its values to `values`.
 */
export function hourRangeCondition(alias: string, request: ReportRequest, values: unknown[]): string {
  const hours = request.hours;
  if (!hours || hours.start === hours.end) return '';
  values.push(Math.floor(hours.start / 60), Math.floor(hours.end / 60));
  const [from, to] = [`$${values.length - 1}`, `$${values.length}`];
  return hours.start < hours.end
    ? ` AND ${alias}.hour >= ${from} AND ${alias}.hour < ${to}`
    : ` AND (${alias}.hour >= ${from} OR ${alias}.hour < ${to})`;
}

/**
 * The WHERE conditions selecting the aggregate rows (alias `alias`) of the sites and days of
 * `period` (period or explicit fiscal dates). Appends its values to `values` and numbers its
 * placeholders after the ones already there. Site and date come first: the primary keys lead
 * with them.
 */
export function aggregateConditions(
  alias: string,
  siteIds: readonly number[],
  period: { dateDebut: string; dateFin: string; fiscalDates: readonly string[] | null },
  values: unknown[],
): string {
  const $ = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const conditions = [
    `${alias}.site_id = ANY(${$(siteIds)}::int[])`,
    `${alias}.fiscal_date BETWEEN ${$(period.dateDebut)}::date AND ${$(period.dateFin)}::date`,
  ];
  if (period.fiscalDates) conditions.push(`${alias}.fiscal_date = ANY(${$(period.fiscalDates)}::date[])`);
  return conditions.join(' AND ');
}

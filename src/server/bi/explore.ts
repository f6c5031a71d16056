/**
 * The BI explorer (issue #19 "/bi"; GET bo/bi/explore): one measure by up to two dimensions over
 * a period and its comparison period, for the chosen sites of the caller's scope, from the
 * per-day aggregates only (bi/explore-sql.ts). Which measure goes with which dimension is the
 * contract's rule (contract/bi.ts measureAllowed); the rest is refused before any read.
 *
 * Units: NET, AVERAGE_TICKET and DISCOUNTS integer cents incl. VAT (an average is round(net ÷ tickets), null
 * without a ticket), TICKETS and COVERS counts, ITEMS a quantity (3 decimals). A row that has no
 * aggregate row in a period has a null value there, so "no data" is never shown as 0.
 */
import {
  type BiDimension,
  type BiExploreAnswer,
  type BiExploreQuery,
  type BiMeasure,
  type BiRow,
  BI_MAX_DAYS,
  measureAllowed,
} from '../../contract/bi.ts';
import { DAY_PARTS } from '../../contract/day-parts.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { biPeriod, biSites, comparisonPeriod } from './bi-sites.ts';
import { type LabelBook, labelOf, loadLabelBook } from './explore-labels.ts';
import { exploreSql } from './explore-sql.ts';

/** What {@link explore} answers for: the query's fields, with the caller's scope. */
export type ExploreRequest = Omit<BiExploreQuery, 'id' | 'format'> & { scope: readonly number[] };

interface SumRow {
  k1: string | null;
  k2: string | null;
  cur_num: number;
  cur_den: number;
  cur_rows: number;
  cmp_num: number;
  cmp_den: number;
  cmp_rows: number;
}

/** The dimensions asked for, in order, without repeats. */
function dimensionsOf(request: Pick<ExploreRequest, 'dimension1' | 'dimension2'>): BiDimension[] {
  const dims = [request.dimension1, request.dimension2].filter((d): d is BiDimension => d !== undefined);
  return [...new Set(dims)];
}

/** The measure from its sums; null when the period had no row. */
function measureValue(measure: BiMeasure, num: number, den: number, rows: number): number | null {
  if (rows === 0) return null;
  if (measure === 'AVERAGE_TICKET') return den > 0 ? Math.round(num / den) : null;
  if (measure === 'ITEMS') return Math.round(num * 1000) / 1000;
  return Math.round(num);
}

/** Natural order of ordinal keys (hours, weekdays, day parts as SPEC.md §9 lists them); null otherwise. */
function ordinal(dimension: BiDimension, key: string | null): number | null {
  if (key === null) return Number.MAX_SAFE_INTEGER;
  if (dimension === 'HOUR' || dimension === 'WEEKDAY') return Number(key);
  if (dimension === 'DAY_PART') return DAY_PARTS.findIndex((p) => p.key === key);
  return null;
}

/**
 * Rows in reading order: by the first dimension then the second, each in its natural order when
 * it has one (hours, weekdays, day parts), else — with one dimension — by value, highest first
 * (then label), and with two by label.
 */
function sortRows(rows: BiRow[], dimensions: readonly BiDimension[]): BiRow[] {
  const compareAt = (a: BiRow, b: BiRow, i: number): number => {
    const d = dimensions[i]!;
    const oa = ordinal(d, a.keys[i] ?? null);
    const ob = ordinal(d, b.keys[i] ?? null);
    if (oa !== null && ob !== null) return oa - ob;
    const byLabel = a.labels[i]!.localeCompare(b.labels[i]!);
    // Equal values read in label order, whatever order the database grouped them in.
    if (dimensions.length === 1) return (b.value ?? -Infinity) - (a.value ?? -Infinity) || byLabel;
    return byLabel;
  };
  return rows.sort((a, b) => {
    for (let i = 0; i < dimensions.length; i++) {
      const c = compareAt(a, b, i);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/** One answer row from its sums. */
function toRow(r: SumRow, measure: BiMeasure, dimensions: readonly BiDimension[], book: LabelBook): BiRow {
  const keys = [r.k1, r.k2].slice(0, dimensions.length);
  return {
    keys,
    labels: dimensions.map((d, i) => labelOf(book, d, keys[i] ?? null)),
    value: measureValue(measure, r.cur_num, r.cur_den, r.cur_rows),
    comparisonValue: measureValue(measure, r.cmp_num, r.cmp_den, r.cmp_rows),
  };
}

/**
 * The explorer's answer for `request`.
 * @throws DomainError invalid `BadRequest` with `details.unsupported` ({ measure, dimensions })
 *   when no aggregate holds the measure by those dimensions; invalid `BadRequest` or
 *   `MaxReportDays` for a bad period (at most {@link BI_MAX_DAYS} days); the errors of biSites
 *   (`Forbidden`, `NoSitesSelected`, `mixedCurrencies`).
 */
export async function explore(db: Queryable, request: ExploreRequest): Promise<BiExploreAnswer> {
  return (await exploreWithClock(db, request)).answer;
}

/** {@link explore}, with the time zone of the first site (an export shows its time there). */
export async function exploreWithClock(
  db: Queryable,
  request: ExploreRequest,
): Promise<{ answer: BiExploreAnswer; timeZone: string }> {
  const dimensions = dimensionsOf(request);
  if (!measureAllowed(request.measure, dimensions)) {
    throw new DomainError(
      'invalid',
      'BadRequest',
      `no aggregate holds ${request.measure} by ${dimensions.join(' and ')}`,
      { unsupported: { measure: request.measure, dimensions } },
    );
  }
  const period = biPeriod(request.dateDebut, request.dateFin, BI_MAX_DAYS);
  const comparison = comparisonPeriod(period, request.comparison);
  const { sites, currency } = await biSites(db, request.sites, request.scope);
  const params = [
    sites.map((s) => s.id),
    period.dateDebut,
    period.dateFin,
    comparison.dateDebut,
    comparison.dateFin,
  ];
  const [grouped, total, book] = await Promise.all([
    db.query<SumRow>(exploreSql(request.measure, dimensions), params),
    db.query<SumRow>(exploreSql(request.measure, dimensions, true), params),
    loadLabelBook(db, sites, dimensions, request.language),
  ]);
  const t = total.rows[0];
  const answer: BiExploreAnswer = {
    data: {
      measure: request.measure,
      dimensions,
      currency,
      period,
      comparison: { ...comparison, kind: request.comparison },
      rows: sortRows(
        grouped.rows.map((r) => toRow(r, request.measure, dimensions, book)),
        dimensions,
      ),
      total: {
        value: t ? measureValue(request.measure, t.cur_num, t.cur_den, t.cur_rows) : null,
        comparisonValue: t ? measureValue(request.measure, t.cmp_num, t.cmp_den, t.cmp_rows) : null,
      },
    },
  };
  return { answer, timeZone: sites[0]!.timeZone };
}

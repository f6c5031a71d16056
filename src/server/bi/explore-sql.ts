/**
 * The SQL of the BI explorer (bi/explore.ts): which aggregate table answers a measure by some
 * dimensions, and the expression of each dimension's key on it. Only per-day aggregates
 * (db/schema-aggregates.ts, `daily_sales`) are read, so a year of a chain groups a few tens of
 * thousands of rows at most; no text of the request reaches the SQL (keys are chosen from
 * fixed tables here, values are parameters).
 */
import { BI_BREAKDOWNS, type BiDimension, type BiMeasure } from '../../contract/bi.ts';
import { DAY_PARTS } from '../../contract/day-parts.ts';
import { GROUP_SITES_SQL } from '../reference/site-groups.ts';

/** An aggregate table and what its columns mean for the measures. */
interface Source {
  table: string;
  /** Net sales, cents incl. VAT. */
  net: string;
  /** Sale tickets, or null when the table does not count them. */
  tickets: string | null;
  covers: string | null;
  items: string | null;
  /** What discount lines gave away, cents incl. VAT, or null when the table does not hold it. */
  discount: string | null;
  /** Key expressions of the dimensions this table breaks down by. */
  keys: Partial<Record<BiDimension, string>>;
}

const DAY_PART_SQL = `CASE ${DAY_PARTS.map((p) => `WHEN a.hour >= ${p.fromHour} AND a.hour < ${p.toHour} THEN '${p.key}'`).join(' ')} END`;

const SOURCES: Record<string, Source> = {
  sales: {
    table: 'daily_sales',
    net: 'a.net_cents',
    tickets: 'a.tickets',
    covers: null,
    items: null,
    discount: null,
    keys: {},
  },
  stats: {
    table: 'daily_ticket_stats',
    net: 'a.covered_cents',
    tickets: null,
    covers: 'a.covers',
    items: null,
    discount: 'a.discount_cents',
    keys: {},
  },
  hour: {
    table: 'daily_hour_sales',
    net: 'a.net_cents',
    tickets: 'a.tickets',
    covers: 'a.covers',
    items: null,
    discount: 'a.discount_cents',
    keys: { HOUR: 'a.hour::text', DAY_PART: DAY_PART_SQL },
  },
  terminal: {
    table: 'daily_terminal_sales',
    net: 'a.net_cents',
    tickets: 'a.tickets',
    covers: null,
    items: null,
    discount: 'a.discount_cents',
    keys: { TERMINAL: `a.site_id || ':' || a.terminal_id` },
  },
  seller: {
    table: 'daily_seller_sales',
    net: 'a.net_cents',
    tickets: 'a.tickets',
    covers: null,
    items: null,
    discount: 'a.discount_cents',
    keys: { SELLER: `a.site_id || ':' || a.seller_code` },
  },
  family: {
    table: 'daily_family_sales',
    net: 'a.net_cents',
    tickets: null,
    covers: null,
    items: 'a.quantity',
    discount: 'a.discount_cents',
    keys: { FAMILY: 'a.family' },
  },
  vat: {
    table: 'daily_vat_sales',
    net: 'a.net_cents',
    tickets: null,
    covers: null,
    items: null,
    discount: null,
    keys: { VAT: 'a.vat_rate::text' },
  },
  payment: {
    table: 'daily_payment_sales',
    net: 'a.amount_cents',
    tickets: null,
    covers: null,
    items: null,
    discount: null,
    keys: { PAYMENT: 'a.method' },
  },
};

/** Keys every per-site, per-day table has. */
const SITE_LEVEL_KEYS: Partial<Record<BiDimension, string>> = {
  SITE: 'a.site_id::text',
  COMPANY: 's.company_id::text',
  GROUP: 'gs.group_id::text',
  WEEKDAY: 'extract(isodow FROM a.fiscal_date)::int::text',
};

/** The table that answers `measure` by `dimensions` (already checked by measureAllowed). */
function sourceFor(measure: BiMeasure, dimensions: readonly BiDimension[]): Source {
  const breakdown = dimensions.find((d) => BI_BREAKDOWNS[d]);
  if (breakdown) return SOURCES[BI_BREAKDOWNS[breakdown]!.source]!;
  if (measure === 'COVERS' || measure === 'DISCOUNTS') return SOURCES.stats!;
  if (measure === 'ITEMS') return SOURCES.family!;
  return SOURCES.sales!;
}

/** Numerator and denominator of `measure` on `source`: the value is num, or num ÷ den for an average. */
function measureColumns(measure: BiMeasure, source: Source): { num: string; den: string } {
  switch (measure) {
    case 'NET':
      return { num: source.net, den: '0' };
    case 'TICKETS':
      return { num: source.tickets!, den: '0' };
    case 'AVERAGE_TICKET':
      return { num: source.net, den: source.tickets! };
    case 'COVERS':
      return { num: source.covers!, den: '0' };
    case 'ITEMS':
      return { num: source.items!, den: '0' };
    case 'DISCOUNTS':
      return { num: source.discount!, den: '0' };
  }
}

/**
 * SELECT of `measure` grouped by `dimensions` (0–2) over two periods at once. Parameters: $1
 * site ids, $2/$3 the period, $4/$5 the comparison period; `totalOnly`: one row, no key. Columns: `k1`, `k2` (text keys or
 * null), `cur_num`, `cur_den`, `cur_rows`, `cmp_num`, `cmp_den`, `cmp_rows`.
 */
export function exploreSql(
  measure: BiMeasure,
  dimensions: readonly BiDimension[],
  totalOnly = false,
): string {
  // The total reads the table of the breakdown with no key (a site in two groups counts once),
  // except for hours and day parts, which together are the whole day: the per-day table gives
  // the same sums from a twentieth of the rows.
  const breakdown = sourceFor(measure, dimensions);
  const source = totalOnly && breakdown === SOURCES.hour ? sourceFor(measure, []) : breakdown;
  const { num, den } = measureColumns(measure, source);
  const grouped = totalOnly ? [] : dimensions;
  const keyOf = (d: BiDimension | undefined) =>
    d === undefined ? 'NULL::text' : (source.keys[d] ?? SITE_LEVEL_KEYS[d]!);
  const joins = [
    grouped.includes('COMPANY') ? 'JOIN sites s ON s.id = a.site_id' : '',
    grouped.includes('GROUP') ? `LEFT JOIN ${GROUP_SITES_SQL} gs ON gs.site_id = a.site_id` : '',
  ].join(' ');
  const cur = 'a.fiscal_date BETWEEN $2::date AND $3::date';
  const cmp = 'a.fiscal_date BETWEEN $4::date AND $5::date';
  // Grouped once by key and period (three sums a row), then the two periods side by side over
  // the few groups: half the aggregate work of filtered sums over every row.
  return `SELECT k1, k2,
       coalesce(sum(n) FILTER (WHERE cur), 0)::float8 AS cur_num,
       coalesce(sum(d) FILTER (WHERE cur), 0)::float8 AS cur_den,
       coalesce(sum(c) FILTER (WHERE cur), 0)::int AS cur_rows,
       coalesce(sum(n) FILTER (WHERE NOT cur), 0)::float8 AS cmp_num,
       coalesce(sum(d) FILTER (WHERE NOT cur), 0)::float8 AS cmp_den,
       coalesce(sum(c) FILTER (WHERE NOT cur), 0)::int AS cmp_rows
  FROM (SELECT ${keyOf(grouped[0])} AS k1, ${keyOf(grouped[1])} AS k2, ${cur} AS cur,
               sum(${num}) AS n, sum(${den}) AS d, count(*) AS c
          FROM ${source.table} a ${joins}
         WHERE a.site_id = ANY($1::int[]) AND (${cur} OR ${cmp})
         GROUP BY 1, 2, 3) g
 GROUP BY 1, 2`;
}

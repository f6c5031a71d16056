/**
 * The per-site sums the key figures (bi/key-figures.ts) are made of, read from the per-day
 * aggregates for a period and the period 364 days earlier in one round trip each: sales per day
 * (`daily_sales`, also the sparkline and the coverage of the year before), covers and
 * cancellations (`daily_ticket_stats`), items (`daily_family_sales`), kept and voided lines
 * (`daily_vat_sales`) and the cash variance of the latest version of each cash count
 * (`cash_counts`, counted − expected of each counted method, as the cash counting report has it).
 */
import type { Queryable } from '../db/queryable.ts';
import type { BiPeriod } from './bi-sites.ts';

/** Which of the two periods a sum belongs to. */
export type PeriodTag = 'cur' | 'prev';

/** Sums of one site over one period. */
export interface SiteSums {
  netCents: number;
  tickets: number;
  covers: number;
  cancellations: number;
  items: number;
  keptLines: number;
  correctedLines: number;
  /** Null when no cash count of the period. */
  cashVarianceCents: number | null;
  /** Fiscal dates with sales. */
  days: number;
  /** Net sales per fiscal date (cents). */
  byDate: Map<string, number>;
}

/** An empty {@link SiteSums}. */
export function emptySums(): SiteSums {
  return {
    netCents: 0,
    tickets: 0,
    covers: 0,
    cancellations: 0,
    items: 0,
    keptLines: 0,
    correctedLines: 0,
    cashVarianceCents: null,
    days: 0,
    byDate: new Map(),
  };
}

const TAG = `CASE WHEN fiscal_date BETWEEN $2::date AND $3::date THEN 'cur' ELSE 'prev' END`;
const WHERE = `site_id = ANY($1::int[])
   AND (fiscal_date BETWEEN $2::date AND $3::date OR fiscal_date BETWEEN $4::date AND $5::date)`;

const COUNTED = (method: string) =>
  `CASE WHEN ${method}_cents IS NULL THEN 0 ELSE ${method}_cents - expected_${method}_cents END`;

const QUERIES = {
  sales: `SELECT site_id, ${TAG} AS tag, fiscal_date::text AS d, tickets::float8 AS a, net_cents::float8 AS b, 0::float8 AS c
            FROM daily_sales WHERE ${WHERE}`,
  stats: `SELECT site_id, ${TAG} AS tag, NULL AS d, sum(covers)::float8 AS a, sum(cancellations)::float8 AS b, 0::float8 AS c
            FROM daily_ticket_stats WHERE ${WHERE} GROUP BY 1, 2`,
  items: `SELECT site_id, ${TAG} AS tag, NULL AS d, sum(quantity)::float8 AS a, 0::float8 AS b, 0::float8 AS c
            FROM daily_family_sales WHERE ${WHERE} GROUP BY 1, 2`,
  lines: `SELECT site_id, ${TAG} AS tag, NULL AS d, sum(kept_lines)::float8 AS a, sum(corrected_lines)::float8 AS b, 0::float8 AS c
            FROM daily_vat_sales WHERE ${WHERE} GROUP BY 1, 2`,
  cash: `SELECT site_id, ${TAG} AS tag, NULL AS d,
                sum(${COUNTED('cash')} + ${COUNTED('cheques')} + ${COUNTED('meal_vouchers')} + ${COUNTED('card_slips')})::float8 AS a,
                count(*)::float8 AS b, 0::float8 AS c
           FROM (SELECT DISTINCT ON (site_id, fiscal_date, terminal_id) *
                   FROM cash_counts WHERE ${WHERE}
                  ORDER BY site_id, fiscal_date, terminal_id, version DESC) latest
          GROUP BY 1, 2`,
} as const;

interface SumRow {
  site_id: number;
  tag: PeriodTag;
  d: string | null;
  a: number;
  b: number;
}

/** Adds one row of `kind` to `sums`. */
function addRow(kind: keyof typeof QUERIES, sums: SiteSums, r: SumRow): void {
  switch (kind) {
    case 'sales':
      sums.tickets += r.a;
      sums.netCents += r.b;
      sums.days += 1;
      sums.byDate.set(r.d!, r.b);
      return;
    case 'stats':
      sums.covers += r.a;
      sums.cancellations += r.b;
      return;
    case 'items':
      sums.items += r.a;
      return;
    case 'lines':
      sums.keptLines += r.a;
      sums.correctedLines += r.b;
      return;
    case 'cash':
      if (r.b > 0) sums.cashVarianceCents = (sums.cashVarianceCents ?? 0) + r.a;
      return;
  }
}

/**
 * Sums per site (`siteIds`) for `period` (`cur`) and `yearBefore` (`prev`): every site has an
 * entry for both, zeros when it had nothing.
 */
export async function readSiteSums(
  db: Queryable,
  siteIds: readonly number[],
  period: BiPeriod,
  yearBefore: BiPeriod,
): Promise<Map<number, Record<PeriodTag, SiteSums>>> {
  const params = [siteIds, period.dateDebut, period.dateFin, yearBefore.dateDebut, yearBefore.dateFin];
  const kinds = Object.keys(QUERIES) as (keyof typeof QUERIES)[];
  const answers = await Promise.all(kinds.map((k) => db.query<SumRow>(QUERIES[k], params)));
  const bySite = new Map(siteIds.map((id) => [id, { cur: emptySums(), prev: emptySums() }]));
  answers.forEach((answer, i) => {
    for (const r of answer.rows) {
      const site = bySite.get(r.site_id);
      if (site) addRow(kinds[i]!, site[r.tag], r);
    }
  });
  return bySite;
}

/**
 * The counts the anomaly test (detect.ts) needs, read in two set-based queries over the period
 * and the {@link HISTORY_WEEKS} weeks before it: one over the tickets and their lines (grouped
 * by seller and, in the same pass, by terminal, with GROUPING SETS), one over the cash counts.
 * Each row is one entity and one bucket: 0 for the period, k (1–8) for the k-th week before it.
 * Tickets and lines are first counted per site, bucket, seller and terminal (a few thousand
 * groups, hashed in memory), then rolled up by seller and by terminal; a missing seller or
 * terminal is keyed '' / -1 meanwhile so the two counts join on plain equality.
 *
 * Tickets and lines are read rather than the daily aggregates: no aggregate holds lines or
 * cancellations per seller or terminal (daily_corrections has voided lines but not the lines
 * they are a share of), and a read of 12 weeks through the `(site_id, fiscal_date)` index stays
 * a few hundred thousand lines on the demo chain. Training-mode tickets are left out, as
 * everywhere; tickets with no seller (or no terminal) count for no seller (terminal).
 */
import { HISTORY_WEEKS } from '../../contract/anomalies.ts';
import type { Queryable } from '../db/queryable.ts';
import type { EntitySeries, RateCounts } from './detect.ts';

/** The span read: the period, and the first day of its own history. */
export interface AnomalySpan {
  siteIds: readonly number[];
  dateDebut: string;
  dateFin: string;
  historyDebut: string;
}

/** Bucket of a fiscal date column: 0 in the period, k for the k-th week before `dateDebut` ($2). */
const BUCKET = (column: string) =>
  `CASE WHEN ${column} >= $2::date THEN 0 ELSE ($2::date - ${column} + 6) / 7 END`;

const TICKET_COUNTS_SQL = `
WITH by_ticket AS (
  SELECT t.site_id, ${BUCKET('t.fiscal_date')} AS bucket,
         coalesce(t.seller_code, '') AS seller_code, coalesce(t.terminal_id, -1) AS terminal_id,
         count(*) FILTER (WHERE t.kind = 'SALE')::int AS tickets,
         count(*) FILTER (WHERE t.kind = 'CANCELLATION')::int AS cancellations
    FROM tickets t
   WHERE t.site_id = ANY($1::int[]) AND t.fiscal_date BETWEEN $3::date AND $4::date
     AND NOT t.training_mode AND t.kind IN ('SALE', 'CANCELLATION')
   GROUP BY 1, 2, 3, 4
), by_line AS (
  SELECT t.site_id, ${BUCKET('t.fiscal_date')} AS bucket,
         coalesce(t.seller_code, '') AS seller_code, coalesce(t.terminal_id, -1) AS terminal_id,
         count(*)::int AS lines,
         count(*) FILTER (WHERE l.corrected)::int AS corrected,
         count(*) FILTER (WHERE l.amount_cents < 0)::int AS discount_lines,
         coalesce(-sum(l.amount_cents) FILTER (WHERE l.amount_cents < 0), 0)::bigint AS discount_cents,
         coalesce(sum(l.amount_cents) FILTER (WHERE l.amount_cents > 0), 0)::bigint AS gross_cents
    FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
   WHERE t.site_id = ANY($1::int[]) AND t.fiscal_date BETWEEN $3::date AND $4::date
     AND NOT t.training_mode AND t.kind = 'SALE'
   GROUP BY 1, 2, 3, 4
), fine AS (
  SELECT k.*, coalesce(n.lines, 0) AS lines, coalesce(n.corrected, 0) AS corrected,
         coalesce(n.discount_lines, 0) AS discount_lines, coalesce(n.discount_cents, 0) AS discount_cents,
         coalesce(n.gross_cents, 0) AS gross_cents
    FROM by_ticket k LEFT JOIN by_line n USING (site_id, bucket, seller_code, terminal_id)
), g AS (
  SELECT site_id, bucket,
         CASE WHEN GROUPING(terminal_id) = 1 THEN 'seller' ELSE 'terminal' END AS kind,
         CASE WHEN GROUPING(terminal_id) = 1 THEN nullif(seller_code, '') ELSE nullif(terminal_id, -1)::text END AS key,
         sum(tickets)::int AS tickets, sum(cancellations)::int AS cancellations, sum(lines)::int AS lines,
         sum(corrected)::int AS corrected, sum(discount_lines)::int AS discount_lines,
         sum(discount_cents)::bigint AS discount_cents, sum(gross_cents)::bigint AS gross_cents
    FROM fine
   GROUP BY GROUPING SETS ((site_id, bucket, seller_code), (site_id, bucket, terminal_id))
)
SELECT * FROM g WHERE key IS NOT NULL`;

const CASH_COUNTS_SQL = `
SELECT site_id, terminal_id::text AS key, bucket, count(*)::int AS counts, sum(abs(variance))::bigint AS abs_cents
  FROM (SELECT DISTINCT ON (c.site_id, c.fiscal_date, c.terminal_id)
               c.site_id, c.terminal_id, ${BUCKET('c.fiscal_date')} AS bucket,
               c.cash_cents - c.expected_cash_cents AS variance
          FROM cash_counts c
         WHERE c.site_id = ANY($1::int[]) AND c.fiscal_date BETWEEN $3::date AND $4::date
         ORDER BY c.site_id, c.fiscal_date, c.terminal_id, c.version DESC) last_version
 WHERE variance IS NOT NULL
 GROUP BY site_id, terminal_id, bucket`;

interface TicketRow {
  site_id: number;
  bucket: number;
  kind: 'seller' | 'terminal';
  key: string;
  tickets: number;
  cancellations: number;
  lines: number;
  corrected: number;
  discount_lines: number;
  discount_cents: string | number;
  gross_cents: string | number;
}

interface CashRow {
  site_id: number;
  key: string;
  bucket: number;
  counts: number;
  abs_cents: string | number;
}

/** Rows of one entity, by bucket. */
type Buckets<R> = Map<string, { siteId: number; kind: 'seller' | 'terminal'; key: string; rows: R[] }>;

function groupByEntity<R extends { site_id: number; bucket: number; key: string }>(
  rows: readonly R[],
  kindOf: (row: R) => 'seller' | 'terminal',
): Buckets<R> {
  const entities: Buckets<R> = new Map();
  for (const row of rows) {
    const kind = kindOf(row);
    const id = `${row.site_id}|${kind}|${row.key}`;
    let entity = entities.get(id);
    if (!entity) {
      entity = { siteId: row.site_id, kind, key: row.key, rows: [] };
      entities.set(id, entity);
    }
    entity.rows.push(row);
  }
  return entities;
}

/** Per ticket measure, how a bucket's row becomes its counts. */
const TICKET_MEASURES = {
  cancellations: (r: TicketRow) => ({ events: r.cancellations, base: r.tickets, volume: r.tickets }),
  corrections: (r: TicketRow) => ({ events: r.corrected, base: r.lines, volume: r.lines }),
  discounts: (r: TicketRow) => ({ events: r.discount_lines, base: r.tickets, volume: r.tickets }),
  discountShare: (r: TicketRow) => ({
    events: Number(r.discount_cents),
    base: Number(r.gross_cents),
    volume: r.tickets,
  }),
} as const satisfies Record<string, (r: TicketRow) => RateCounts>;

const NONE: RateCounts = { events: 0, base: 0, volume: 0 };

/** The series of every entity and measure found in the ticket rows. */
function ticketSeries(rows: readonly TicketRow[]): EntitySeries[] {
  const series: EntitySeries[] = [];
  for (const entity of groupByEntity(rows, (r) => r.kind).values()) {
    const period = entity.rows.find((r) => r.bucket === 0);
    const history = entity.rows.filter((r) => r.bucket > 0 && r.bucket <= HISTORY_WEEKS);
    for (const [measure, counts] of Object.entries(TICKET_MEASURES)) {
      series.push({
        siteId: entity.siteId,
        kind: entity.kind,
        key: entity.key,
        measure: measure as keyof typeof TICKET_MEASURES,
        period: period ? counts(period) : NONE,
        history: history.map(counts),
        tickets: period?.tickets ?? 0,
      });
    }
  }
  return series;
}

/** The cashVariance series of every terminal found in the cash-count rows. */
function cashSeries(rows: readonly CashRow[]): EntitySeries[] {
  const counts = (r: CashRow): RateCounts => ({
    events: Number(r.abs_cents),
    base: r.counts,
    volume: r.counts,
  });
  return [...groupByEntity(rows, () => 'terminal').values()].map((entity) => {
    const period = entity.rows.find((r) => r.bucket === 0);
    return {
      siteId: entity.siteId,
      kind: 'terminal' as const,
      key: entity.key,
      measure: 'cashVariance' as const,
      period: period ? counts(period) : NONE,
      history: entity.rows.filter((r) => r.bucket > 0 && r.bucket <= HISTORY_WEEKS).map(counts),
      tickets: period?.counts ?? 0,
    };
  });
}

/** Every entity's series over `span`, for every measure (detect.ts). */
export async function readAnomalySeries(db: Queryable, span: AnomalySpan): Promise<EntitySeries[]> {
  const values = [span.siteIds, span.dateDebut, span.historyDebut, span.dateFin];
  const tickets = await db.query<TicketRow>(TICKET_COUNTS_SQL, values);
  const cash = await db.query<CashRow>(CASH_COUNTS_SQL, values);
  return [...ticketSeries(tickets.rows), ...cashSeries(cash.rows)];
}

/** Names of sellers and terminals of `siteIds`, keyed `site|kind|key`. */
export async function readEntityNames(
  db: Queryable,
  siteIds: readonly number[],
): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT site_id || '|seller|' || code AS id, nom AS name FROM sellers WHERE site_id = ANY($1::int[])
     UNION ALL
     SELECT site_id || '|terminal|' || terminal_id, libelle FROM terminals WHERE site_id = ANY($1::int[])`,
    [siteIds],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

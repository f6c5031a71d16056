/**
 * Pre-aggregated sales (DESIGN.md §5): `daily_sales` holds one row per site and fiscal date so
 * the sales report of a year reads ~365 rows per site instead of every ticket. Every load (demo
 * generator, CSV import) calls {@link refreshDailySales} inside its own transaction, so readers
 * never see tickets without their aggregate or the reverse.
 */
import type pg from 'pg';

/** Anything that runs a query: a pool client inside a transaction, a client, or a pool. */
export type Queryable = Pick<pg.ClientBase, 'query'>;

/**
 * Recomputes `daily_sales` of `siteId` for the fiscal dates `fromDate`..`toDate` (inclusive,
 * `YYYY-MM-DD`) from `tickets`, in one statement: days with tickets are inserted or updated
 * (only when a figure changed, so an unchanged re-import writes nothing), days left without any
 * ticket are deleted.
 *
 * Figures: `tickets` counts SALE tickets; `net_cents`, `net_excl_cents`, `tax_cents` sum every
 * ticket's totals (RETURN and CANCELLATION tickets carry negative totals, so they count
 * negatively). Training-mode tickets are left out of every figure.
 * @returns the number of daily rows inserted, updated or deleted.
 */
export async function refreshDailySales(
  client: Queryable,
  siteId: number,
  fromDate: string,
  toDate: string,
): Promise<number> {
  const { rows } = await client.query<{ changed: number }>(
    `WITH agg AS (
       SELECT fiscal_date,
              count(*) FILTER (WHERE kind = 'SALE')::int AS tickets,
              sum(total_cents)::bigint AS net_cents,
              sum(total_excl_cents)::bigint AS net_excl_cents,
              sum(tax_cents)::bigint AS tax_cents
         FROM tickets
        WHERE site_id = $1 AND fiscal_date BETWEEN $2::date AND $3::date AND NOT training_mode
        GROUP BY fiscal_date
     ), removed AS (
       DELETE FROM daily_sales d
        WHERE d.site_id = $1 AND d.fiscal_date BETWEEN $2::date AND $3::date
          AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.fiscal_date = d.fiscal_date)
       RETURNING 1
     ), upserted AS (
       INSERT INTO daily_sales (site_id, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents)
       SELECT $1, fiscal_date, tickets, net_cents, net_excl_cents, tax_cents FROM agg
       ON CONFLICT (site_id, fiscal_date) DO UPDATE
          SET tickets = excluded.tickets, net_cents = excluded.net_cents,
              net_excl_cents = excluded.net_excl_cents, tax_cents = excluded.tax_cents
        WHERE (daily_sales.tickets, daily_sales.net_cents, daily_sales.net_excl_cents, daily_sales.tax_cents)
              IS DISTINCT FROM (excluded.tickets, excluded.net_cents, excluded.net_excl_cents, excluded.tax_cents)
       RETURNING 1
     )
     SELECT ((SELECT count(*) FROM removed) + (SELECT count(*) FROM upserted))::int AS changed`,
    [siteId, fromDate, toDate],
  );
  return rows[0]?.changed ?? 0;
}

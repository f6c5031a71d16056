/**
 * Pre-aggregated sales (DESIGN.md §5): `daily_sales` (schema.ts) and the per-day breakdowns of
 * schema-aggregates.ts (by local hour, terminal, seller, family, VAT rate, payment method, the
 * covers/Z figures, and the voided lines by terminal and seller) hold a few rows per site and fiscal date, so the sales reports of a year
 * read thousands of rows instead of every ticket line. Every load (demo generator, CSV import)
 * calls {@link refreshDailySales} inside its own transaction, so readers never see tickets
 * without their aggregates or the reverse.
 *
 * Which reports read these tables, and when, is the reports' business (reports/aggregate-reads.ts);
 * this module only keeps the tables true to the tickets.
 */
import type { Queryable } from './queryable.ts';

/**
 * Options of a refresh. `lineGroups` names a table (usually the load's temporary table) of
 * `(ticket_id bigint, family text, vat_rate numeric, quantity numeric, net bigint, excl bigint,
 * lines int)`: the lines of tickets summed per ticket, family and VAT rate, none of them voided.
 * The family and VAT breakdowns are then built from it instead of joining every ticket line —
 * valid only when it holds the lines of EVERY ticket of the site in the refreshed range (a load
 * whose days had no ticket before it; the CSV import checks this and passes it only then).
 */
export interface RefreshOptions {
  lineGroups?: string;
}

/**
 * Recomputes `daily_sales` of `siteId` for the fiscal dates `fromDate`..`toDate` (inclusive,
 * `YYYY-MM-DD`) from `tickets`, in one statement: days with tickets are inserted or updated
 * (only when a figure changed, so an unchanged re-import writes nothing), days left without any
 * ticket are deleted.
 *
 * Figures: `tickets` counts SALE tickets; `net_cents`, `net_excl_cents`, `tax_cents` sum every
 * ticket's totals (RETURN and CANCELLATION tickets carry negative totals, so they count
 * negatively). Training-mode tickets are left out of every figure.
 *
 * Then rebuilds the per-day breakdowns of schema-aggregates.ts for the same site and dates
 * ({@link refreshDailyBreakdowns}), so callers keep one call per load.
 * @returns the number of `daily_sales` rows inserted, updated or deleted (the breakdowns are
 * rewritten whole for the range and not counted).
 */
export async function refreshDailySales(
  client: Queryable,
  siteId: number,
  fromDate: string,
  toDate: string,
  options: RefreshOptions = {},
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
  await refreshDailyBreakdowns(client, siteId, fromDate, toDate, options);
  return rows[0]?.changed ?? 0;
}

/** The breakdown tables of schema-aggregates.ts, for deletes and ANALYZE. */
export const BREAKDOWN_TABLES = [
  'daily_hour_sales',
  'daily_terminal_sales',
  'daily_seller_sales',
  'daily_family_sales',
  'daily_vat_sales',
  'daily_payment_sales',
  'daily_ticket_stats',
  'daily_corrections',
] as const;

/** The tickets of the refreshed site and range, as every report selects them (alias `t`). */
const SELECTED = `t.site_id = $1 AND t.fiscal_date BETWEEN $2::date AND $3::date AND NOT t.training_mode`;

/**
 * Whether line `l` of ticket `t` is a discount line (schema-aggregates.ts, `discount_cents`): kept,
 * its amount running against its ticket — negative on a SALE (the POS "Remise …" lines), positive
 * on a RETURN or CANCELLATION, which takes back the discount of the ticket it undoes. What it gave
 * away is −`amount_cents`, so sums of it are positive and a cancelled sale's discount nets out.
 */
export const DISCOUNT_LINE = `NOT l.corrected AND CASE WHEN t.kind = 'SALE' THEN l.amount_cents < 0 ELSE l.amount_cents > 0 END`;

/**
 * Rebuilds the breakdown tables (schema-aggregates.ts) of `siteId` for the fiscal dates
 * `fromDate`..`toDate` (inclusive, `YYYY-MM-DD`): deletes the range, then inserts it again from
 * `tickets`, `ticket_lines` (all lines, then the discount lines, then the voided ones) and
 * `payments`; with `options.lineGroups` the family and VAT pass reads that table instead of
 * `ticket_lines` (see {@link RefreshOptions} for when that is valid), and the families' discounts
 * come from the pass over the discount lines. A re-run on unchanged data leaves the same rows. The local
 * hour is read in the site's time zone as it is now. Run it inside the load's transaction (see
 * the module comment).
 */
export async function refreshDailyBreakdowns(
  client: Queryable,
  siteId: number,
  fromDate: string,
  toDate: string,
  options: RefreshOptions = {},
): Promise<void> {
  const values = [siteId, fromDate, toDate];
  // The planner expects far more groups than a site's days × families × rates really make, and
  // with the default 4 MB it sorts the lines on disk to group them; with room to hash them in
  // memory it groups them faster. Local to the load's transaction.
  await client.query(`SELECT set_config('work_mem', '64MB', true)`);
  // Deletes before inserts, in separate statements: within one statement the order of the
  // CTEs is unspecified, and an insert meeting a not-yet-deleted key would fail.
  await client.query(
    `WITH ${BREAKDOWN_TABLES.map(
      (table, i) =>
        `d${i} AS (DELETE FROM ${table} WHERE site_id = $1 AND fiscal_date BETWEEN $2::date AND $3::date)`,
    ).join(', ')}
     SELECT 1`,
    values,
  );
  // Families first: with line groups, the tickets' pass then sets their discounts.
  await refreshLineBreakdowns(client, values, options);
  await refreshTicketBreakdowns(client, values, options);
  // Voided lines: none in a load's line groups (see RefreshOptions), so only the lines' path
  // looks for them.
  if (!options.lineGroups) {
    await client.query(
      `INSERT INTO daily_corrections (site_id, fiscal_date, terminal_id, seller_code, lines, quantity, amount_cents, articles)
       SELECT $1, t.fiscal_date, t.terminal_id, t.seller_code, count(*)::int, sum(l.quantity),
              sum(round(l.quantity * l.unit_price_cents))::bigint, array_agg(DISTINCT l.article ORDER BY l.article)
         FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id AND l.corrected
        WHERE ${SELECTED}
        GROUP BY t.fiscal_date, t.terminal_id, t.seller_code`,
      values,
    );
  }
  await client.query(
    `INSERT INTO daily_payment_sales (site_id, fiscal_date, method, payments, amount_cents)
     SELECT $1, t.fiscal_date, p.method, count(*)::int, sum(p.amount_cents)::bigint
       FROM tickets t JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id
      WHERE ${SELECTED}
      GROUP BY t.fiscal_date, p.method`,
    values,
  );
}

/** Local hour at which ticket `t` opened, on the clock of its site `s`. */
const LOCAL_HOUR = 'extract(hour FROM (t.opened_at AT TIME ZONE s.time_zone))::int';

/**
 * The discount lines of `values`' tickets (alias `dg`), summed by fiscal date and the tickets'
 * keys (hour, terminal, seller; `by_ticket`) and, with `byFamily`, also by fiscal date and family
 * in the same pass (GROUPING SETS; `by_ticket` false), for a load whose line groups do not tell
 * discounts apart.
 */
function discountGroupsSql(byFamily: boolean): string {
  const keys = `t.fiscal_date, ${LOCAL_HOUR}, t.terminal_id, t.seller_code`;
  return `SELECT t.fiscal_date, ${LOCAL_HOUR} AS hour, t.terminal_id, t.seller_code,
                 ${byFamily ? 'l.family, GROUPING(l.family) = 1' : 'NULL::text, true'} AS by_ticket,
                 -sum(l.amount_cents)::bigint AS cents
            FROM tickets t JOIN sites s ON s.id = t.site_id
            JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
           WHERE ${SELECTED} AND ${DISCOUNT_LINE}
           GROUP BY ${byFamily ? `GROUPING SETS ((${keys}), (t.fiscal_date, l.family))` : keys}`;
}

/**
 * The per-ticket breakdowns (hour, terminal, seller, the day's ticket stats) of `values`
 * ($1 site, $2..$3 fiscal dates): one pass over the tickets grouped by every ticket-level key at
 * once, one over their discount lines grouped by the same keys, then both folded per table. The
 * two are stacked (UNION ALL) rather than joined: a join on a CTE is planned on guesses, and
 * the nested loop the planner chose over them slowed the demo chain's load down several times.
 * With `options.lineGroups` (run after refreshLineBreakdowns), the same pass over the discount
 * lines sets the families' discounts, which the line groups could not tell.
 */
async function refreshTicketBreakdowns(
  client: Queryable,
  values: unknown[],
  options: RefreshOptions,
): Promise<void> {
  const byFamily = options.lineGroups !== undefined;
  const familyDiscounts = byFamily
    ? `, fd AS (
         UPDATE daily_family_sales a SET discount_cents = dg.cents
           FROM dg
          WHERE NOT dg.by_ticket AND a.site_id = $1 AND a.fiscal_date = dg.fiscal_date
            AND a.family IS NOT DISTINCT FROM dg.family
       )`
    : '';
  await client.query(
    `WITH dg AS (
       ${discountGroupsSql(byFamily)}
     )${familyDiscounts}, g AS (
       SELECT t.fiscal_date, ${LOCAL_HOUR} AS hour,
              t.terminal_id, t.seller_code,
              (count(*) FILTER (WHERE t.kind = 'SALE'))::int AS tickets,
              coalesce(sum(t.covers), 0)::int AS covers,
              sum(t.total_cents)::bigint AS net, sum(t.total_excl_cents)::bigint AS excl,
              sum(t.tax_cents)::bigint AS tax,
              coalesce(sum(t.total_cents) FILTER (WHERE t.covers IS NOT NULL), 0)::bigint AS covered,
              (count(*) FILTER (WHERE t.kind = 'CANCELLATION'))::int AS cancellations,
              coalesce(-sum(t.total_cents) FILTER (WHERE t.kind = 'CANCELLATION'), 0)::bigint AS cancelled,
              (count(*) FILTER (WHERE t.employee_meal))::int AS meals,
              coalesce(sum(t.total_cents) FILTER (WHERE t.employee_meal), 0)::bigint AS meal_cents,
              0::bigint AS discount,
              min(t.opened_at) AS first_at, max(t.opened_at) AS last_at
         FROM tickets t JOIN sites s ON s.id = t.site_id
        WHERE ${SELECTED}
        GROUP BY 1, 2, 3, 4
        UNION ALL
       SELECT fiscal_date, hour, terminal_id, seller_code, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, cents, NULL, NULL
         FROM dg WHERE by_ticket
     ), h AS (
       INSERT INTO daily_hour_sales (site_id, fiscal_date, hour, tickets, covers, net_cents, net_excl_cents, tax_cents, discount_cents)
       SELECT $1, fiscal_date, hour, sum(tickets), sum(covers), sum(net), sum(excl), sum(tax), sum(discount)
         FROM g GROUP BY fiscal_date, hour
     ), te AS (
       INSERT INTO daily_terminal_sales (site_id, fiscal_date, terminal_id, tickets, net_cents, net_excl_cents, discount_cents)
       SELECT $1, fiscal_date, terminal_id, sum(tickets), sum(net), sum(excl), sum(discount)
         FROM g GROUP BY fiscal_date, terminal_id
     ), se AS (
       INSERT INTO daily_seller_sales (site_id, fiscal_date, seller_code, tickets, net_cents, net_excl_cents, discount_cents)
       SELECT $1, fiscal_date, seller_code, sum(tickets), sum(net), sum(excl), sum(discount)
         FROM g GROUP BY fiscal_date, seller_code
     )
     INSERT INTO daily_ticket_stats (site_id, fiscal_date, covers, covered_cents, cancellations, cancelled_cents,
                                     employee_meals, employee_meal_cents, discount_cents, first_opened_at, last_opened_at)
     SELECT $1, fiscal_date, sum(covers), sum(covered), sum(cancellations), sum(cancelled),
            sum(meals), sum(meal_cents), sum(discount), min(first_at), max(last_at)
       FROM g GROUP BY fiscal_date`,
    values,
  );
}

/**
 * The family and VAT breakdowns of `values` ($1 site, $2..$3 fiscal dates), from the ticket
 * lines — the families' discounts in the same pass — or, with `options.lineGroups`, from the
 * load's groups: one row per ticket, family and rate instead of one per line, no line voided, no
 * discount told apart (refreshTicketBreakdowns adds those).
 */
async function refreshLineBreakdowns(
  client: Queryable,
  values: unknown[],
  options: RefreshOptions,
): Promise<void> {
  const lines = options.lineGroups
    ? `SELECT t.fiscal_date, l.family, l.vat_rate,
              sum(l.quantity) AS quantity,
              sum(l.net)::bigint AS net, sum(l.excl)::bigint AS excl,
              sum(l.net - l.excl)::bigint AS tax,
              sum(l.lines)::int AS kept, 0 AS corrected, 0::bigint AS corrected_cents, 0::bigint AS discount
         FROM tickets t JOIN ${options.lineGroups} l ON l.ticket_id = t.ticket_id
        WHERE ${SELECTED}
        GROUP BY 1, 2, 3`
    : `SELECT t.fiscal_date, l.family, l.vat_rate,
              coalesce(sum(l.quantity) FILTER (WHERE NOT l.corrected), 0) AS quantity,
              sum(l.amount_cents)::bigint AS net, sum(l.amount_excl_cents)::bigint AS excl,
              sum(l.tax_cents)::bigint AS tax,
              (count(*) FILTER (WHERE NOT l.corrected))::int AS kept,
              (count(*) FILTER (WHERE l.corrected))::int AS corrected,
              coalesce(sum(round(l.quantity * l.unit_price_cents)) FILTER (WHERE l.corrected), 0)::bigint AS corrected_cents,
              coalesce(-sum(l.amount_cents) FILTER (WHERE ${DISCOUNT_LINE}), 0)::bigint AS discount
         FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
        WHERE ${SELECTED}
        GROUP BY 1, 2, 3`;
  await client.query(
    `WITH g AS (
       ${lines}
     ), f AS (
       INSERT INTO daily_family_sales (site_id, fiscal_date, family, quantity, net_cents, net_excl_cents, tax_cents, discount_cents)
       SELECT $1, fiscal_date, family, sum(quantity), sum(net), sum(excl), sum(tax), sum(discount)
         FROM g GROUP BY fiscal_date, family
     )
     INSERT INTO daily_vat_sales (site_id, fiscal_date, vat_rate, net_cents, net_excl_cents, tax_cents,
                                  kept_lines, corrected_lines, corrected_cents)
     SELECT $1, fiscal_date, vat_rate, sum(net), sum(excl), sum(tax), sum(kept), sum(corrected), sum(corrected_cents)
       FROM g GROUP BY fiscal_date, vat_rate`,
    values,
  );
}

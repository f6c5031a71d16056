/**
 * The state of one fiscal date per site (GET exports/status, SPEC.md §7, /analyses/listExports):
 * tickets received, the last load of sales data covering it, the reports generated covering it.
 */
import type { ExportStatusSite } from '../../contract/exports.ts';
import type { Database } from '../db/connect.ts';
import { editionsWritten } from './editions.ts';

interface StatusRow {
  id: number;
  libelle: string;
  currency: string;
  tickets: number;
  net: string | number | null;
  first_at: Date | null;
  last_at: Date | null;
  loaded_at: Date | null;
  source: string | null;
}

interface ReportsRow {
  id: number;
  reports: number;
  last_report_at: Date | null;
}

/**
 * The exports/status lines of `siteIds` for `fiscalDate` (wire date), by site name. Training-mode
 * tickets are left out, as in every report; a report counts when its status is OK and its period
 * (range or explicit dates) holds the date.
 *
 * Two statements: the sites with their tickets and last load (tickets and data_loads aggregated
 * by `site_id` in subqueries joined to the sites), then the reports per site. On a Citus cluster
 * `tickets` and `data_loads` are distributed by `site_id` and `report_editions` stays on the
 * coordinator, and Citus joins no distributed table to a local one, nor plans a lateral subquery
 * from the reference table `sites` into a distributed one (decision record 0042, 2026-12-07).
 */
export async function exportStatus(
  database: Database,
  siteIds: readonly number[],
  fiscalDate: string,
): Promise<ExportStatusSite[]> {
  await editionsWritten();
  const { rows } = await database.pool.query<StatusRow>(
    `SELECT s.id, s.libelle, s.currency, coalesce(t.tickets, 0) AS tickets, t.net, t.first_at, t.last_at,
            l.loaded_at, l.source
       FROM sites s
       LEFT JOIN (
         SELECT k.site_id, count(*)::int AS tickets, sum(k.total_cents)::bigint AS net,
                min(k.opened_at) AS first_at, max(k.opened_at) AS last_at
           FROM tickets k WHERE k.site_id = ANY($1::int[]) AND k.fiscal_date = $2::date AND NOT k.training_mode
          GROUP BY k.site_id) t ON t.site_id = s.id
       LEFT JOIN (
         SELECT DISTINCT ON (d.site_id) d.site_id, d.loaded_at, d.source FROM data_loads d
          WHERE d.site_id = ANY($1::int[]) AND $2::date BETWEEN d.first_fiscal_date AND d.last_fiscal_date
          ORDER BY d.site_id, d.loaded_at DESC) l ON l.site_id = s.id
      WHERE s.id = ANY($1::int[]) AND s.libelle <> 'NON REMPLI'
      ORDER BY s.libelle`,
    [siteIds, fiscalDate],
  );
  const { rows: reportRows } = await database.pool.query<ReportsRow>(
    `SELECT q.id, count(*)::int AS reports, max(r.generated_at) AS last_report_at
       FROM (SELECT DISTINCT unnest($1::int[]) AS id) q
       JOIN report_editions r ON q.id = ANY(r.site_ids)
      WHERE r.status = 'OK' AND $2::date BETWEEN r.date_debut AND r.date_fin
        AND (r.fiscal_dates IS NULL OR $2::date = ANY(r.fiscal_dates))
      GROUP BY q.id`,
    [rows.map((r) => r.id), fiscalDate],
  );
  const reports = new Map(reportRows.map((r) => [r.id, r]));
  return rows.map((r) => ({
    restaurantId: r.id,
    libelle: r.libelle,
    tickets: r.tickets,
    netCents: r.net === null ? 0 : Number(r.net),
    currency: r.currency,
    firstTicketAt: r.first_at?.toISOString() ?? null,
    lastTicketAt: r.last_at?.toISOString() ?? null,
    lastLoadAt: r.loaded_at?.toISOString() ?? null,
    lastLoadSource: r.source,
    reports: reports.get(r.id)?.reports ?? 0,
    lastReportAt: reports.get(r.id)?.last_report_at?.toISOString() ?? null,
    state: r.tickets === 0 ? 'NO_DATA' : reports.has(r.id) ? 'REPORTED' : 'RECEIVED',
  }));
}

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
  reports: number;
  last_report_at: Date | null;
}

/**
 * The exports/status lines of `siteIds` for `fiscalDate` (wire date), by site name. Training-mode
 * tickets are left out, as in every report; a report counts when its status is OK and its period
 * (range or explicit dates) holds the date.
 */
export async function exportStatus(
  database: Database,
  siteIds: readonly number[],
  fiscalDate: string,
): Promise<ExportStatusSite[]> {
  await editionsWritten();
  const { rows } = await database.pool.query<StatusRow>(
    `SELECT s.id, s.libelle, s.currency, t.tickets, t.net, t.first_at, t.last_at, l.loaded_at, l.source,
            e.reports, e.last_report_at
       FROM sites s
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS tickets, sum(k.total_cents)::bigint AS net,
                min(k.opened_at) AS first_at, max(k.opened_at) AS last_at
           FROM tickets k WHERE k.site_id = s.id AND k.fiscal_date = $2::date AND NOT k.training_mode) t
       LEFT JOIN LATERAL (
         SELECT d.loaded_at, d.source FROM data_loads d
          WHERE d.site_id = s.id AND $2::date BETWEEN d.first_fiscal_date AND d.last_fiscal_date
          ORDER BY d.loaded_at DESC LIMIT 1) l ON true
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS reports, max(r.generated_at) AS last_report_at FROM report_editions r
          WHERE r.status = 'OK' AND s.id = ANY(r.site_ids) AND $2::date BETWEEN r.date_debut AND r.date_fin
            AND (r.fiscal_dates IS NULL OR $2::date = ANY(r.fiscal_dates))) e
      WHERE s.id = ANY($1::int[]) AND s.libelle <> 'NON REMPLI'
      ORDER BY s.libelle`,
    [siteIds, fiscalDate],
  );
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
    reports: r.reports,
    lastReportAt: r.last_report_at?.toISOString() ?? null,
    state: r.tickets === 0 ? 'NO_DATA' : r.reports === 0 ? 'RECEIVED' : 'REPORTED',
  }));
}

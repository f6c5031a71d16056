/**
 * The exports calls (issue #4 point 6, SPEC.md §2 /analyses/listExports, §7 GET exports/status):
 * - GET exports/status?dateFiscale: per site of the caller's scope, the state of one fiscal
 *   date — tickets received, the last load of sales data covering it, the reports generated
 *   covering it;
 * - GET exports/list: the generated reports (editions) the caller may see, newest first.
 * Downloading an edition again is GET exports/download (src/server/reports/routes.ts, which
 * owns report generation).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import {
  EditionsAnswerSchema,
  ExportStatusAnswerSchema,
  type ExportStatusSite,
} from '../../contract/exports.ts';
import { LanguageSchema } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { ApiHttpError } from '../plugins/errors.ts';
import { editionsWritten, listEditions } from '../reports/editions.ts';
import { errorResponses, ownSession, sessionOf, UserIdParam } from './common.ts';

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

/** Registers the exports routes on an instance prefixed with the API base. */
export const exportRoutes: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/exports/status',
    {
      config: { rights: 'GET exports/status' },
      schema: {
        summary: 'State of one fiscal date per site: tickets received, last load, reports generated',
        tags: ['exports'],
        querystring: z.object({
          dateFiscale: z.string().optional().describe('fiscal date YYYY-MM-DD; default today (SPEC.md §4)'),
          id: UserIdParam.optional(),
        }),
        response: { 200: ExportStatusAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session =
        request.query.id === undefined ? sessionOf(request) : ownSession(request, request.query.id);
      const dateFiscale = request.query.dateFiscale ?? toWireDate(new Date());
      if (!parseWireDate(dateFiscale)) {
        throw new ApiHttpError(
          400,
          'BadRequest',
          `dateFiscale must be a date YYYY-MM-DD, got "${dateFiscale}"`,
        );
      }
      return { dateFiscale, sites: await exportStatus(database, session.siteIds, dateFiscale) };
    },
  );

  api.get(
    '/exports/list',
    {
      config: { rights: 'GET exports/list' },
      schema: {
        summary: 'Generated reports (editions) the caller may see, newest first',
        description:
          "An edition is listed when every site it covers is in the caller's scope, whoever generated it; " +
          "mine=true keeps the caller's own. Titles in `language`.",
        tags: ['exports'],
        querystring: z.object({
          id: UserIdParam,
          language: LanguageSchema.default('fr'),
          limit: z.coerce.number().int().min(1).max(200).default(50),
          offset: z.coerce.number().int().min(0).default(0),
          mine: z.enum(['true', 'false']).default('false'),
        }),
        response: { 200: EditionsAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const q = request.query;
      return listEditions(database.pool, session.siteIds, q.language, {
        limit: q.limit,
        offset: q.offset,
        userId: q.mine === 'true' ? session.userId : undefined,
      });
    },
  );
};

/**
 * The exports calls (issue #4 point 6, SPEC.md §2 /analyses/listExports, §7 GET exports/status):
 * - GET exports/status?dateFiscale: per site of the caller's scope, the state of one fiscal
 *   date — tickets received, the last load of sales data covering it, the reports generated
 *   covering it;
 * - GET exports/list: the generated reports (editions) the caller may see, newest first.
 * The reads are the domain's (reports/export-status.ts, reports/editions.ts).
 * Downloading an edition again is GET exports/download (src/server/routes/reports-routes.ts, which
 * owns report generation).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import { EditionsAnswerSchema, ExportStatusAnswerSchema } from '../../contract/exports.ts';
import { LanguageSchema } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { listEditions } from '../reports/editions.ts';
import { exportStatus } from '../reports/export-status.ts';
import { errorResponses, ownSession, sessionOf, UserIdParam } from './common.ts';
import { PAGE_MAX } from '../../contract/integers.ts';

const StatusQuerySchema = z.object({
  dateFiscale: z.string().optional().describe('fiscal date YYYY-MM-DD; default today (SPEC.md §4)'),
  id: UserIdParam.optional(),
});

const ListQuerySchema = z.object({
  id: UserIdParam,
  language: LanguageSchema.default('fr'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(PAGE_MAX).default(0),
  mine: z.enum(['true', 'false']).default('false'),
});

/** Registers the exports routes on an instance prefixed with the API base. */
export async function exportRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * exports/status of `dateFiscale` (default today) for the caller's sites.
   * @throws ApiHttpError 400 BadRequest for a malformed date.
   */
  async function getExportStatus(
    request: FastifyRequest<{ Querystring: z.infer<typeof StatusQuerySchema> }>,
  ) {
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
  }

  /** exports/list: a page of the editions the caller may see (`mine=true`: the caller's own). */
  async function listExports(request: FastifyRequest<{ Querystring: z.infer<typeof ListQuerySchema> }>) {
    const session = ownSession(request, request.query.id);
    const q = request.query;
    return listEditions(database.pool, session.siteIds, q.language, {
      limit: q.limit,
      offset: q.offset,
      userId: q.mine === 'true' ? session.userId : undefined,
    });
  }

  api.get(
    '/exports/status',
    {
      config: { rights: 'GET exports/status' },
      schema: {
        summary: 'State of one fiscal date per site: tickets received, last load, reports generated',
        tags: ['exports'],
        querystring: StatusQuerySchema,
        response: { 200: ExportStatusAnswerSchema, ...errorResponses },
      },
    },
    getExportStatus,
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
        querystring: ListQuerySchema,
        response: { 200: EditionsAnswerSchema, ...errorResponses },
      },
    },
    listExports,
  );
}

/**
 * The report calls of SPEC.md §7:
 * - GET bo/getReport, its single-site variant GET bo/getReportSite (one `restaurantId`), and its
 *   POST variant (JSON body): a report as PDF, CSV, XLSX or the JSON dataset, recorded as an
 *   edition (reports/editions.ts) with its outcome and size;
 * - GET bo/getResultsData: the user's last generated report (the "report in state") again;
 * - GET exports/download: a generated report again, from the exports list;
 * - the calls before a report (bo/rapport/metrics, bo/getResultsChoices, bo/getGroupements:
 *   report-choices.ts) and the all-reports ZIP (bo/getAllReportsSpecBK: report-archive.ts).
 * The parameters and their mapping are report-params.ts's; how a report is answered (headers,
 * streaming, empty reports) report-answer.ts's; the rules and error codes of a request are the
 * domain's (reports/request.ts, reports/shaping.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LanguageSchema,
  REPORT_FORMATS,
  type ReportPostBody,
  ReportPostBodySchema,
} from '../../contract/reports.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { editionRequest, lastEditionRequest } from '../reports/editions.ts';
import { closePdfPool } from '../reports/render/pdf-pool.ts';
import type { RawReportInput, ReportSiteCache } from '../reports/request.ts';
import type { Database } from '../db/connect.ts';
import { ownSession, UserIdParam } from './common.ts';
import { type ReportAnswerContext, sendReport } from './report-answer.ts';
import { reportArchiveRoutes } from './report-archive.ts';
import { reportChoiceRoutes } from './report-choices.ts';
import {
  inputFromBody,
  inputFromQuery,
  reportAnswer,
  ReportQuerySchema,
  ReportSiteQuerySchema,
} from './report-params.ts';
import { BIGINT_ID_MAX } from '../../contract/integers.ts';

const ResultsDataQuerySchema = z.object({
  id: UserIdParam,
  language: LanguageSchema.optional(),
  format: z.enum(REPORT_FORMATS).default('JSON'),
});

const DownloadQuerySchema = z.object({
  id: UserIdParam,
  edition: z.coerce.number().int().positive().max(BIGINT_ID_MAX),
  format: z.enum(REPORT_FORMATS).optional(),
});

type Query<S extends z.ZodType> = FastifyRequest<{ Querystring: z.infer<S> }>;

/**
 * Registers the report routes on an instance prefixed with the API base.
 * @param options.database the open database.
 * @param options.distribution the GET distribution name, shown on PDFs when the sites' companies
 *   have no brand.
 */
export async function reportRoutes(
  app: FastifyInstance,
  options: {
    database: Database;
    distribution?: string;
    /** The server's report-site cache (app.ts, db/changes.ts). */
    reportSites?: ReportSiteCache;
  },
) {
  const context: ReportAnswerContext = {
    database: options.database,
    distribution: options.distribution ?? 'Comptoir',
    reportSites: options.reportSites,
  };
  app.addHook('onClose', closePdfPool);
  await app.register(reportRequestRoutes, context);
  await app.register(reportAgainRoutes, context);
  await app.register(reportChoiceRoutes, { database: options.database });
  await app.register(reportArchiveRoutes, context);
}

/** GET and POST bo/getReport, GET bo/getReportSite: a report generated now, recorded as an edition. */
async function reportRequestRoutes(app: FastifyInstance, context: ReportAnswerContext) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** GET bo/getReport. */
  async function getReport(request: Query<typeof ReportQuerySchema>, reply: FastifyReply) {
    return sendReport(
      reply,
      context,
      ownSession(request, request.query.id),
      inputFromQuery(request.query),
      true,
    );
  }

  /** GET bo/getReportSite: bo/getReport for exactly one site, `restaurantId` or the only sites[] value. */
  async function getReportSite(request: Query<typeof ReportSiteQuerySchema>, reply: FastifyReply) {
    const session = ownSession(request, request.query.id);
    const input = inputFromQuery(request.query);
    const { restaurantId } = request.query;
    const sites = [...new Set([...(restaurantId ? [restaurantId] : []), ...input.sites])];
    if (sites.length === 0) throw new ApiHttpError(400, 'NoSitesSelected', 'restaurantId is required');
    if (sites.length > 1) {
      throw new ApiHttpError(400, 'multiSitesTooMuch', 'this report covers one site only', { sites });
    }
    return sendReport(reply, context, session, { ...input, sites }, true);
  }

  /** POST bo/getReport. */
  async function postReport(request: FastifyRequest<{ Body: ReportPostBody }>, reply: FastifyReply) {
    return sendReport(
      reply,
      context,
      ownSession(request, request.body.id),
      inputFromBody(request.body),
      true,
    );
  }

  api.get(
    '/bo/getReport',
    {
      config: { rights: 'GET bo/getReport' },
      // Renders a document and records it: no HEAD twin doing that for headers (DOCUMENT_GETS).
      exposeHeadRoute: false,
      schema: {
        summary: 'A report (PDF, CSV, XLSX, or the JSON dataset) for sites and a period',
        tags: ['reports'],
        querystring: ReportQuerySchema,
        response: reportAnswer,
      },
    },
    getReport,
  );

  api.get(
    '/bo/getReportSite',
    {
      config: { rights: 'GET bo/getReportSite' },
      // Renders a document and records it: no HEAD twin doing that for headers (DOCUMENT_GETS).
      exposeHeadRoute: false,
      schema: {
        summary: 'The single-site variant of bo/getReport',
        description:
          'Same parameters and answers as GET bo/getReport, for exactly one site given as `restaurantId` ' +
          '(or as the only sites[] value). SPEC.md §7 names a single-site variant without its path; this ' +
          'is it. Two sites or more answer 400 multiSitesTooMuch (SPEC.md §5), none 400 NoSitesSelected.',
        tags: ['reports'],
        querystring: ReportSiteQuerySchema,
        response: reportAnswer,
      },
    },
    getReportSite,
  );

  api.post(
    '/bo/getReport',
    {
      config: { rights: 'POST bo/getReport' },
      schema: {
        summary: 'Same as GET bo/getReport with a JSON body',
        tags: ['reports'],
        body: ReportPostBodySchema,
        response: reportAnswer,
      },
    },
    postReport,
  );
}

/** GET bo/getResultsData and GET exports/download: a report generated before, run again. */
async function reportAgainRoutes(app: FastifyInstance, context: ReportAnswerContext) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = context;

  /** GET bo/getResultsData: the last report again, not recorded; 409 NoReportInState before any. */
  async function getResultsData(request: Query<typeof ResultsDataQuerySchema>, reply: FastifyReply) {
    const session = ownSession(request, request.query.id);
    const stored = await lastEditionRequest(database.pool, session.userId);
    if (!stored) throw new ApiHttpError(409, 'NoReportInState', 'no report generated yet');
    const input: RawReportInput = {
      ...stored,
      language: request.query.language ?? stored.language,
      format: request.query.format,
    };
    return sendReport(reply, context, session, input, false);
  }

  /** GET exports/download: edition `edition` again, recorded; 404 NotFound outside the scope. */
  async function downloadEdition(request: Query<typeof DownloadQuerySchema>, reply: FastifyReply) {
    const session = ownSession(request, request.query.id);
    const stored = await editionRequest(database.pool, request.query.edition, session.siteIds);
    if (!stored) throw new ApiHttpError(404, 'NotFound', `no edition ${request.query.edition}`);
    return sendReport(
      reply,
      context,
      session,
      { ...stored, format: request.query.format ?? stored.format },
      true,
    );
  }

  api.get(
    '/bo/getResultsData',
    {
      config: { rights: 'GET bo/getResultsData' },
      // Renders a document and records it: no HEAD twin doing that for headers (DOCUMENT_GETS).
      exposeHeadRoute: false,
      schema: {
        summary: "The user's last generated report again (the report in state)",
        description:
          'Runs again, on the current data and scope, the last report the caller generated through ' +
          'bo/getReport (any variant and format), in `language` (default: the language it was generated in). ' +
          'format=JSON (default) answers the dataset; format=PDF (the mobile client) the PDF. 409 ' +
          'NoReportInState when the caller generated no report yet (SPEC.md §8). Not recorded as a new edition.',
        tags: ['reports'],
        querystring: ResultsDataQuerySchema,
        response: reportAnswer,
      },
    },
    getResultsData,
  );

  api.get(
    '/exports/download',
    {
      config: { rights: 'GET exports/download' },
      // Renders a document and records it: no HEAD twin doing that for headers (DOCUMENT_GETS).
      exposeHeadRoute: false,
      schema: {
        summary: 'Download a generated report again (exports list)',
        description:
          'Runs again, on the current data, the request of edition `edition` (GET exports/list) and sends it ' +
          'as bo/getReport would, in its own format unless `format` is given (a JSON edition is downloaded ' +
          'as a document this way). Recorded as a new edition of the caller. 404 NotFound for an edition ' +
          "that does not exist or covers a site outside the caller's scope.",
        tags: ['exports'],
        querystring: DownloadQuerySchema,
        response: reportAnswer,
      },
    },
    downloadEdition,
  );
}

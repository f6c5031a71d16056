/**
 * The report calls of SPEC.md §7: GET bo/rapport/metrics (the classes a user can run, titled in
 * the request's language), GET bo/getReport and its POST variant (a report as PDF, CSV, XLSX or
 * the JSON dataset). The rules and error codes are those of request.ts.
 *
 * Wire quirks handled once, here: list parameters arrive as `sites[]=1&sites[]=2` (the client
 * of SPEC.md §7), as `sites=1&sites=2`, or as one comma-separated value; Fastify's query parser
 * gives a string for one occurrence and an array for several, under the key as written
 * (`sites[]` or `sites`). Both keys are read and merged into one array.
 *
 * Downloads carry `Content-Type`, `Content-Disposition: attachment; filename="…"` (translated
 * base name), and `Content-Length` for buffered formats (PDF, XLSX, JSON) so the client can
 * show progress; CSV streams.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  decodeSellers,
  LanguageSchema,
  MetricsAnswerSchema,
  REPORT_FORMATS,
  ReportPostBodySchema,
} from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { message } from '../i18n.ts';
import { errorResponses, ownSession, UserIdParam } from '../routes/common.ts';
import { REPORT_CLASSES } from './registry.ts';
import { contentDisposition, CONTENT_TYPES, renderReport, reportFileName } from './render/index.ts';
import { closePdfPool } from './render/pdf-pool.ts';
import { type RawReportInput, resolveReport } from './request.ts';
import { renderOptionsFor, runReport } from './run.ts';

/** A query value that may come once (string) or several times (array); absent → []. */
const many = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

/** Several values, each possibly comma-separated (`sites=1,2`), flattened, empties dropped. */
const manyCommaSeparated = many.transform((values) =>
  values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== ''),
);

const intList = manyCommaSeparated.pipe(
  z.array(z.string().regex(/^\d+$/, 'a whole number').transform(Number)),
);

/** `true`/`false`/`1`/`0` as a boolean (query strings carry text). */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const ReportQuerySchema = z
  .object({
    id: UserIdParam,
    rapportClassName: z.string().describe('report class, e.g. RapportVentes (see bo/rapport/metrics)'),
    typeRapport: z.string().default('Daily').describe('variant: Daily, Graph or Cumulative'),
    format: z.enum(REPORT_FORMATS).default('PDF'),
    language: LanguageSchema.default('fr').describe('language of titles, labels and number formats'),
    dateDebut: z.string().optional().describe('first fiscal date, YYYY-MM-DD'),
    dateFin: z.string().optional().describe('last fiscal date, YYYY-MM-DD (included)'),
    'datefiscales[]': many.describe('explicit fiscal dates instead of dateDebut..dateFin'),
    datefiscales: many.describe('same as datefiscales[]'),
    'sites[]': intList.describe('restaurantIds; none = every site of the user (SPEC.md §5)'),
    sites: intList.describe('same as sites[] (also comma-separated)'),
    'tpv[]': intList.describe('terminal numbers; none = every terminal'),
    tpv: intList.describe('same as tpv[]'),
    vendeurs: many.describe('seller codes, comma-separated; a comma inside a code travels as {{comma}}'),
    operation: z.string().default('VENTE'),
    trancheHoraire: flag.describe('only tickets opened between heureDebut and heureFin (site local time)'),
    heureDebut: z.string().default('12:00').describe('HH:mm, included'),
    heureFin: z.string().default('23:00').describe('HH:mm, excluded; before heureDebut wraps past midnight'),
    trainingMode: flag.describe('include training-mode tickets'),
    filtre: z.string().optional(),
    'condition[]': many,
    condition: many,
    tri: z.string().optional(),
    regroupement: z.string().optional(),
    isFilters: flag,
  })
  .catchall(z.unknown())
  .describe('bo/getReport parameters (SPEC.md §7); merim_* settings are accepted and ignored');

type ReportQuery = z.infer<typeof ReportQuerySchema>;

function inputFromQuery(q: ReportQuery): RawReportInput {
  return {
    rapportClassName: q.rapportClassName,
    typeRapport: q.typeRapport,
    format: q.format,
    language: q.language,
    dateDebut: q.dateDebut,
    dateFin: q.dateFin,
    datefiscales: [...q['datefiscales[]'], ...q.datefiscales],
    sites: [...q['sites[]'], ...q.sites],
    tpv: [...q['tpv[]'], ...q.tpv],
    vendeurs: q.vendeurs.flatMap(decodeSellers),
    trancheHoraire: q.trancheHoraire,
    heureDebut: q.heureDebut,
    heureFin: q.heureFin,
    trainingMode: q.trainingMode,
    operation: q.operation,
    filtre: q.filtre,
    condition: [...q['condition[]'], ...q.condition],
    tri: q.tri,
    regroupement: q.regroupement,
    isFilters: q.isFilters,
  };
}

function inputFromBody(b: z.infer<typeof ReportPostBodySchema>): RawReportInput {
  return {
    rapportClassName: b.rapportClassName,
    typeRapport: b.typeRapport,
    format: b.format,
    language: b.language,
    dateDebut: b.dateDebut,
    dateFin: b.dateFin,
    datefiscales: [],
    sites: b.sites,
    tpv: [],
    vendeurs: [],
    trancheHoraire: b.trancheHoraire,
    heureDebut: b.heureDebut,
    heureFin: b.heureFin,
    trainingMode: false,
    operation: b.operation,
    filtre: undefined,
    condition: [],
    tri: undefined,
    regroupement: undefined,
    isFilters: false,
  };
}

/** Documented answer of bo/getReport: the dataset as JSON, or a document. */
const reportAnswer = {
  200: z
    .unknown()
    .describe(
      'format=JSON: the dataset (DatasetSchema: columns, rows, totals; money in integer cents); ' +
        'PDF, CSV (UTF-8 with BOM) or XLSX: the document as an attachment',
    ),
  ...errorResponses,
};

/**
 * Registers the report routes on an instance prefixed with the API base.
 * @param options.database the open database.
 * @param options.distribution the GET distribution name, shown on PDFs when the sites' companies
 *   have no brand.
 */
export const reportRoutes: FastifyPluginAsync<{ database: Database; distribution?: string }> = async (
  app,
  options,
) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;
  const distribution = options.distribution ?? 'Comptoir';
  app.addHook('onClose', closePdfPool);

  api.get(
    '/bo/rapport/metrics',
    {
      config: { rights: 'GET bo/rapport/metrics' },
      schema: {
        summary: 'Report classes (editions) with their title, variants, formats and maximum days',
        tags: ['reports'],
        querystring: z.object({ id: UserIdParam, language: LanguageSchema.default('fr') }),
        response: { 200: MetricsAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      ownSession(request, request.query.id);
      const { language } = request.query;
      return {
        editions: REPORT_CLASSES.map((c) => ({
          className: c.className,
          localisedTitle: message(language, c.titleId),
          variants: [...c.variants],
          formats: [...c.formats],
          maxDays: c.maxDays,
        })),
      };
    },
  );

  /** Runs and sends one report for the signed-in user. */
  const answer = async (request: FastifyRequest, reply: FastifyReply, id: number, input: RawReportInput) => {
    const session = ownSession(request, id);
    const report = await resolveReport(input, session.siteIds, database);
    const dataset = await runReport(report, database);
    const body = await renderReport(dataset, input.format, renderOptionsFor(report, distribution));
    const fileName = reportFileName(report.cls.fileNameId, dataset, input.language, input.format);
    reply.header('Content-Type', CONTENT_TYPES[input.format]);
    reply.header('Content-Disposition', contentDisposition(fileName));
    switch (body.kind) {
      case 'buffer':
        reply.header('Content-Length', body.data.length);
        return reply.send(body.data);
      case 'stream':
        return reply.send(body.data);
      case 'dataset': {
        const json = JSON.stringify(body.data);
        reply.header('Content-Length', Buffer.byteLength(json));
        return reply.send(json);
      }
    }
  };

  api.get(
    '/bo/getReport',
    {
      config: { rights: 'GET bo/getReport' },
      schema: {
        summary: 'A report (PDF, CSV, XLSX, or the JSON dataset) for sites and a period',
        tags: ['reports'],
        querystring: ReportQuerySchema,
        response: reportAnswer,
      },
    },
    async (request, reply) => answer(request, reply, request.query.id, inputFromQuery(request.query)),
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
    async (request, reply) => answer(request, reply, request.body.id, inputFromBody(request.body)),
  );
};

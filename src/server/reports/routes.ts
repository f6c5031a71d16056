/**
 * The report calls of SPEC.md §7:
 * - GET bo/rapport/metrics: the classes a user can run (editions), titled in the request's
 *   language, each with how many the user generated and when last (report_editions);
 * - GET bo/getReport, its single-site variant GET bo/getReportSite (one `restaurantId`), and its
 *   POST variant (JSON body): a report as PDF, CSV, XLSX or the JSON dataset;
 * - GET bo/getResultsData: the user's last generated report (the "report in state") again;
 * - GET bo/getResultsChoices: what a class offers and the values of its parameters;
 * - GET bo/getGroupements: the values a filter takes for a site and period;
 * - GET bo/getAllReportsSpecBK: every report of one site and period, as PDFs in one ZIP.
 * The rules and error codes of a request are request.ts's; filtre, condition, tri, regroupement
 * and isFilters are shaping.ts's.
 *
 * Every report generated through bo/getReport (any variant) is recorded as an edition
 * (editions.ts) with its outcome and size.
 *
 * Empty reports (SPEC.md §8 CheckReportParam): JSON answers the empty dataset (200, no rows; the
 * screen says there is nothing to show and keeps the parameters in view), while a PDF, CSV or
 * XLSX of an empty report answers 400 CheckReportParam instead of a blank document — a manager
 * who downloads a file expects figures, and a blank file would look like a fault.
 *
 * Wire quirks handled once, here: list parameters arrive as `sites[]=1&sites[]=2` (the client
 * of SPEC.md §7), as `sites=1&sites=2`, or as one comma-separated value; Fastify's query parser
 * gives a string for one occurrence and an array for several, under the key as written
 * (`sites[]` or `sites`). Both keys are read and merged into one array.
 *
 * Downloads carry `Content-Type`, `Content-Disposition: attachment; filename="…"` (translated
 * base name), and `Content-Length` for buffered formats (PDF, XLSX, JSON) so the client can
 * show progress; CSV and ZIP stream.
 */
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import yazl from 'yazl';
import { z } from 'zod';
import { daysInclusive, parseWireDate, wireToDisplay } from '../../contract/dates.ts';
import { GroupementsAnswerSchema, ResultsChoicesAnswerSchema } from '../../contract/exports.ts';
import {
  type Dataset,
  decodeSellers,
  type Language,
  LANGUAGES,
  LanguageSchema,
  MetricsAnswerSchema,
  REPORT_FORMATS,
  ReportPostBodySchema,
} from '../../contract/reports.ts';
import type { Session } from '../auth/session.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { message } from '../i18n.ts';
import { ApiHttpError } from '../plugins/errors.ts';
import { errorResponses, ownSession, QueryIntList, QueryList, UserIdParam } from '../routes/common.ts';
import { groupements, resultsChoices, columnsOf, filtresOf } from './choices.ts';
import {
  editionCounts,
  inBackground,
  lastEditionRequest,
  recordEdition,
  setEditionBytes,
} from './editions.ts';
import { editionRequest } from './editions.ts';
import { findReportClass, REPORT_CLASSES } from './registry.ts';
import { contentDisposition, CONTENT_TYPES, renderReport, reportFileName } from './render/index.ts';
import { datasetJsonBytes } from './render/json.ts';
import { closePdfPool } from './render/pdf-pool.ts';
import { isStreamed } from './render/streamed.ts';
import {
  loadReportSites,
  type RawReportInput,
  type ReportSiteCache,
  type ResolvedReport,
  reportInput,
  resolveReport,
} from './request.ts';
import { renderOptionsFor, runReport } from './run.ts';
import { shapeDataset } from './shaping.ts';

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
    'datefiscales[]': QueryList.describe('explicit fiscal dates instead of dateDebut..dateFin'),
    datefiscales: QueryList.describe('same as datefiscales[]'),
    'sites[]': QueryIntList.describe('restaurantIds; none = every site of the user (SPEC.md §5)'),
    sites: QueryIntList.describe('same as sites[] (also comma-separated)'),
    'tpv[]': QueryIntList.describe('terminal numbers; none = every terminal'),
    tpv: QueryIntList.describe('same as tpv[]'),
    vendeurs: QueryList.describe('seller codes, comma-separated; a comma inside a code travels as {{comma}}'),
    operation: z
      .string()
      .default('VENTE')
      .describe('VENTE, TOUTES, ANNULATION, CORRECTION (see bo/getResultsChoices)'),
    trancheHoraire: flag.describe('only tickets opened between heureDebut and heureFin (site local time)'),
    heureDebut: z.string().default('12:00').describe('HH:mm, included'),
    heureFin: z.string().default('23:00').describe('HH:mm, excluded; before heureDebut wraps past midnight'),
    trainingMode: flag.describe('include training-mode tickets'),
    filtre: z
      .string()
      .optional()
      .describe('dimension (SITE, CAISSE, VENDEUR, FAMILLE, TVA, PAIEMENT, DATE) or column key to filter on'),
    'condition[]': QueryList.describe('values of filtre to keep (see bo/getGroupements)'),
    condition: QueryList.describe('same as condition[]'),
    tri: z.string().optional().describe('column key to sort rows by; `key:desc` or `-key` sorts downwards'),
    regroupement: z.string().optional().describe('dimension or text/date column to merge rows by'),
    isFilters: flag.describe('apply filtre/condition (true) or not'),
  })
  .catchall(z.unknown())
  .describe('bo/getReport parameters (SPEC.md §7); merim_* settings are accepted and ignored');

type ReportQuery = z.infer<typeof ReportQuerySchema>;

const ReportSiteQuerySchema = ReportQuerySchema.extend({
  restaurantId: z.coerce.number().int().positive().optional().describe('the one site of the report'),
}).describe(
  'bo/getReport parameters for ONE site: restaurantId (or a single sites[] value); more than one ' +
    'site answers 400 multiSitesTooMuch, none 400 NoSitesSelected',
);

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
    datefiscales: b.datefiscales,
    sites: b.sites,
    tpv: b.tpv,
    // A list keeps commas inside codes; a text is the GET's encoded `vendeurs`.
    vendeurs: Array.isArray(b.vendeurs) ? b.vendeurs : decodeSellers(b.vendeurs),
    trancheHoraire: b.trancheHoraire,
    heureDebut: b.heureDebut,
    heureFin: b.heureFin,
    trainingMode: b.trainingMode,
    operation: b.operation,
    filtre: b.filtre,
    condition: b.condition,
    tri: b.tri,
    regroupement: b.regroupement,
    isFilters: b.isFilters,
  };
}

/** Documented answer of bo/getReport: the dataset as JSON, or a document. */
const reportAnswer = {
  200: z
    .unknown()
    .describe(
      'format=JSON: the dataset (contract/reports.ts DatasetAnswerSchema: columns, rows, totals; money in ' +
        'integer cents; each row an array of its cells in the order of columns), with no ' +
        'rows when the report is empty; PDF, CSV (UTF-8 with BOM) or XLSX: the document as an attachment, ' +
        'or 400 CheckReportParam when the report is empty',
    ),
  ...errorResponses,
};

/** The language to use when a call gives none: the user's stored one, else French (SPEC.md §4). */
function userLanguage(session: Session): Language {
  return (LANGUAGES as readonly string[]).includes(session.language ?? '')
    ? (session.language as Language)
    : 'fr';
}

/**
 * Registers the report routes on an instance prefixed with the API base.
 * @param options.database the open database.
 * @param options.distribution the GET distribution name, shown on PDFs when the sites' companies
 *   have no brand.
 */
export const reportRoutes: FastifyPluginAsync<{
  database: Database;
  distribution?: string;
  /** The server's report-site cache (app.ts, db/changes.ts). */
  reportSites?: ReportSiteCache;
}> = async (app, options) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;
  const { pool } = database;
  const distribution = options.distribution ?? 'Comptoir';
  app.addHook('onClose', closePdfPool);

  api.get(
    '/bo/rapport/metrics',
    {
      config: { rights: 'GET bo/rapport/metrics' },
      schema: {
        summary: 'Report classes (editions) with their title, variants, formats, maximum days and use',
        description:
          'One entry per report class the server offers. `generated` and `lastGeneratedAt` come from the ' +
          "report editions: how many of that class the caller generated and when last. The caller's list of " +
          'generated reports themselves is GET exports/list.',
        tags: ['reports'],
        querystring: z.object({ id: UserIdParam, language: LanguageSchema.default('fr') }),
        response: { 200: MetricsAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { language } = request.query;
      const counts = await editionCounts(pool, session.userId);
      return {
        editions: REPORT_CLASSES.map((c) => ({
          className: c.className,
          localisedTitle: message(language, c.titleId),
          variants: [...c.variants],
          formats: [...c.formats],
          maxDays: c.maxDays,
          generated: counts.get(c.className)?.generated ?? 0,
          lastGeneratedAt: counts.get(c.className)?.lastGeneratedAt ?? null,
        })),
      };
    },
  );

  /** The shaped dataset of a checked report. */
  const datasetOf = async (report: ResolvedReport): Promise<Dataset> =>
    shapeDataset(await runReport(report, database), report.shaping, report.request.language);

  /**
   * Runs `input` for `session` and sends it; records the edition when `record` (bo/getReport).
   * @throws ApiHttpError of request.ts and shaping.ts; 400 CheckReportParam for an empty
   *   document; 500 errorPdf when a PDF cannot be laid out.
   */
  const answer = async (
    reply: FastifyReply,
    session: Session,
    input: RawReportInput,
    record: boolean,
  ): Promise<FastifyReply> => {
    const report = await resolveReport(input, session.siteIds, database, { sites: options.reportSites });
    const dataset = await datasetOf(report);
    // A streamed dataset (large CSV/XLSX, render/streamed.ts) holds only its first rows so far.
    const rowCount = isStreamed(dataset) ? null : dataset.rows.length;
    // The edition is written while the answer goes out (editions.ts inBackground): one round
    // trip fewer before the user sees the report; later readers wait for it.
    const save = (status: 'OK' | 'EMPTY' | 'FAILED', bytes: number | null): Promise<number | null> =>
      record
        ? inBackground(
            () =>
              recordEdition(pool, {
                userId: session.userId,
                login: session.login,
                report,
                input,
                status,
                bytes,
                rows: rowCount,
              }),
            (err) => reply.log.error({ err }, 'report edition not recorded'),
          )
        : Promise.resolve(null);
    if (dataset.rows.length === 0 && input.format !== 'JSON') {
      void save('EMPTY', null);
      throw new ApiHttpError(400, 'CheckReportParam', 'the report is empty: check its parameters');
    }
    let body: Awaited<ReturnType<typeof renderReport>>;
    try {
      body = await renderReport(dataset, input.format, renderOptionsFor(report, distribution));
    } catch (error) {
      void save('FAILED', null);
      if (input.format === 'PDF') {
        reply.log.error({ err: error }, 'PDF rendering failed');
        throw new ApiHttpError(500, 'errorPdf', 'the PDF could not be created');
      }
      throw error;
    }
    const fileName = reportFileName(report.cls.fileNameId, dataset, input.language, input.format);
    reply.header('Content-Type', CONTENT_TYPES[input.format]);
    reply.header('Content-Disposition', contentDisposition(fileName));
    switch (body.kind) {
      case 'buffer':
        void save('OK', body.data.length);
        reply.header('Content-Length', body.data.length);
        return reply.send(body.data);
      case 'stream': {
        const edition = save('OK', null);
        let bytes = 0;
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            done(null, chunk);
          },
        });
        // pipeline, not pipe: a connection closed halfway destroys the renderer's stream too, so
        // a class reading a cursor gives its database connection back (render/streamed.ts).
        pipeline(body.data, counted)
          .then(() =>
            inBackground(
              async () => {
                const id = await edition;
                if (id !== null) await setEditionBytes(pool, id, bytes);
              },
              (err) => reply.log.error({ err }, 'report size not recorded'),
            ),
          )
          .catch((err: unknown) => {
            if (!reply.raw.destroyed) reply.log.error({ err }, 'report stream failed');
          });
        return reply.send(counted);
      }
      case 'dataset': {
        // Encoded to UTF-8 once, here: sent as a string, the text was encoded again on its way
        // out (a year of finance figures, 490 kB with accented labels: 4.1 → 1.0 ms after onSend).
        const json = datasetJsonBytes(body.data);
        // An empty dataset is answered (the screen says so) but recorded as EMPTY, like a document.
        void save(dataset.rows.length === 0 ? 'EMPTY' : 'OK', json.length);
        reply.header('Content-Length', json.length);
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
    async (request, reply) =>
      answer(reply, ownSession(request, request.query.id), inputFromQuery(request.query), true),
  );

  api.get(
    '/bo/getReportSite',
    {
      config: { rights: 'GET bo/getReportSite' },
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
    async (request, reply) => {
      const session = ownSession(request, request.query.id);
      const input = inputFromQuery(request.query);
      const { restaurantId } = request.query;
      const sites = [...new Set([...(restaurantId ? [restaurantId] : []), ...input.sites])];
      if (sites.length === 0) throw new ApiHttpError(400, 'NoSitesSelected', 'restaurantId is required');
      if (sites.length > 1) {
        throw new ApiHttpError(400, 'multiSitesTooMuch', 'this report covers one site only', { sites });
      }
      return answer(reply, session, { ...input, sites }, true);
    },
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
    async (request, reply) =>
      answer(reply, ownSession(request, request.body.id), inputFromBody(request.body), true),
  );

  api.get(
    '/bo/getResultsData',
    {
      config: { rights: 'GET bo/getResultsData' },
      schema: {
        summary: "The user's last generated report again (the report in state)",
        description:
          'Runs again, on the current data and scope, the last report the caller generated through ' +
          'bo/getReport (any variant and format), in `language` (default: the language it was generated in). ' +
          'format=JSON (default) answers the dataset; format=PDF (the mobile client) the PDF. 409 ' +
          'NoReportInState when the caller generated no report yet (SPEC.md §8). Not recorded as a new edition.',
        tags: ['reports'],
        querystring: z.object({
          id: UserIdParam,
          language: LanguageSchema.optional(),
          format: z.enum(REPORT_FORMATS).default('JSON'),
        }),
        response: reportAnswer,
      },
    },
    async (request, reply) => {
      const session = ownSession(request, request.query.id);
      const stored = await lastEditionRequest(pool, session.userId);
      if (!stored) throw new ApiHttpError(409, 'NoReportInState', 'no report generated yet');
      const input: RawReportInput = {
        ...stored,
        language: request.query.language ?? stored.language,
        format: request.query.format,
      };
      return answer(reply, session, input, false);
    },
  );

  api.get(
    '/exports/download',
    {
      config: { rights: 'GET exports/download' },
      schema: {
        summary: 'Download a generated report again (exports list)',
        description:
          'Runs again, on the current data, the request of edition `edition` (GET exports/list) and sends it ' +
          'as bo/getReport would, in its own format unless `format` is given (a JSON edition is downloaded ' +
          'as a document this way). Recorded as a new edition of the caller. 404 NotFound for an edition ' +
          "that does not exist or covers a site outside the caller's scope.",
        tags: ['exports'],
        querystring: z.object({
          id: UserIdParam,
          edition: z.coerce.number().int().positive(),
          format: z.enum(REPORT_FORMATS).optional(),
        }),
        response: reportAnswer,
      },
    },
    async (request, reply) => {
      const session = ownSession(request, request.query.id);
      const stored = await editionRequest(pool, request.query.edition, session.siteIds);
      if (!stored) throw new ApiHttpError(404, 'NotFound', `no edition ${request.query.edition}`);
      return answer(reply, session, { ...stored, format: request.query.format ?? stored.format }, true);
    },
  );

  api.get(
    '/bo/getResultsChoices',
    {
      config: { rights: 'GET bo/getResultsChoices' },
      schema: {
        summary: 'What a report class offers: variants, formats, maximum days, and its parameter values',
        description:
          'Values (with labels in `language`) accepted by operation, filtre, tri and regroupement for the ' +
          'class; condition values come from bo/getGroupements. 400 ErrorUnknownRap for a class the server lacks.',
        tags: ['reports'],
        querystring: z.object({
          id: UserIdParam,
          RapportGeneralClassName: z.string().optional().describe('report class (SPEC.md §7 spelling)'),
          rapportClassName: z.string().optional().describe('same, as bo/getReport spells it'),
          language: LanguageSchema.default('fr'),
        }),
        response: { 200: ResultsChoicesAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      ownSession(request, request.query.id);
      const name = request.query.RapportGeneralClassName ?? request.query.rapportClassName ?? '';
      const cls = findReportClass(name);
      if (!cls) throw new ApiHttpError(400, 'ErrorUnknownRap', `unknown report class "${name}"`);
      return resultsChoices(cls, request.query.language, database);
    },
  );

  api.get(
    '/bo/getGroupements',
    {
      config: { rights: 'GET bo/getGroupements' },
      schema: {
        summary: 'The values a filter (filtre) takes in the data of a site and period',
        description:
          'For a class and one of its filtres (bo/getResultsChoices), the values present in the data of ' +
          'restaurantId (none: every site of the caller) over dateDebut..dateFin: the sites, terminals, ' +
          'sellers, product families, VAT rates, payment methods or fiscal dates, with labels. These are the ' +
          'condition values of bo/getReport.',
        tags: ['reports'],
        querystring: z.object({
          id: UserIdParam,
          rapportGeneralClassName: z.string(),
          filtre: z.string(),
          restaurantId: z.coerce.number().int().positive().optional(),
          dateDebut: z.string(),
          dateFin: z.string(),
          language: LanguageSchema.default('fr'),
        }),
        response: { 200: GroupementsAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const q = request.query;
      const cls = findReportClass(q.rapportGeneralClassName);
      if (!cls)
        throw new ApiHttpError(400, 'ErrorUnknownRap', `unknown report class "${q.rapportGeneralClassName}"`);
      const filtres = filtresOf(cls, await columnsOf(cls, q.language, database));
      if (!filtres.includes(q.filtre)) {
        throw new ApiHttpError(400, 'BadRequest', `${cls.className} cannot be filtered by "${q.filtre}"`, {
          filtres,
        });
      }
      const { dateDebut, dateFin } = checkedPeriod(q.dateDebut, q.dateFin, cls.maxDays);
      if (q.restaurantId !== undefined && !session.siteIds.includes(q.restaurantId)) {
        throw new ApiHttpError(403, 'Forbidden', `site ${q.restaurantId} is outside the user's scope`);
      }
      const siteIds = q.restaurantId !== undefined ? [q.restaurantId] : session.siteIds;
      return {
        filtre: q.filtre,
        groupements: await groupements(database, {
          filtre: q.filtre,
          siteIds,
          dateDebut,
          dateFin,
          language: q.language,
        }),
      };
    },
  );

  api.get(
    '/bo/getAllReportsSpecBK',
    {
      config: { rights: 'GET bo/getAllReportsSpecBK' },
      schema: {
        summary: 'Every report of one site and period, as PDFs in one ZIP archive',
        description:
          'One PDF per report class that offers PDF (its Daily variant), named as bo/getReport names it, in ' +
          "`language` (default: the user's language). Streamed. A class whose maximum days the period exceeds, " +
          'a class without PDF, and a class with nothing to report for that site and period are left out and ' +
          'listed, with the reason, in a LISEZMOI/README/LIESMICH text file inside the archive (so the rest ' +
          'still arrives). 400 MaxReportDays only when the period exceeds every class. Each PDF is recorded ' +
          'as an edition (listed by exports/list, never the report in state of bo/getResultsData).',
        tags: ['reports'],
        querystring: z.object({
          id: UserIdParam,
          site: z.coerce.number().int().positive().describe('restaurantId'),
          dateDebut: z.string(),
          dateFin: z.string(),
          language: LanguageSchema.optional(),
        }),
        response: {
          200: z
            .unknown()
            .describe('application/zip: one PDF per report class plus the text file of what was left out'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const session = ownSession(request, request.query.id);
      const q = request.query;
      const language = q.language ?? userLanguage(session);
      const widest = Math.max(...REPORT_CLASSES.map((c) => c.maxDays));
      const { dateDebut, dateFin } = checkedPeriod(q.dateDebut, q.dateFin, widest);
      if (!session.siteIds.includes(q.site)) {
        throw new ApiHttpError(403, 'Forbidden', `site ${q.site} is outside the user's scope`);
      }
      const days = daysInclusive(dateDebut, dateFin);
      const siteName = (await loadReportSites(database, [q.site]))[0]?.libelle ?? String(q.site);
      const zip = new yazl.ZipFile();
      const archiveName = `${message(language, 'exports.archive.filename')}_${q.site}_${dateDebut}_${dateFin}.zip`;
      reply.header('Content-Type', 'application/zip');
      reply.header('Content-Disposition', contentDisposition(archiveName));
      reply.send(zip.outputStream);

      const left: Array<{ title: string; reason: string }> = [];
      const included: string[] = [];
      const used = new Set<string>();
      for (const cls of REPORT_CLASSES) {
        // The caller went away (closed the page): stop generating for nobody.
        if (request.raw.destroyed || reply.raw.destroyed) break;
        const title = message(language, cls.titleId);
        const leave = (reasonId: string, values?: Record<string, string | number>) =>
          left.push({ title, reason: message(language, `exports.archive.reason.${reasonId}`, values) });
        if (!cls.formats.includes('PDF')) {
          leave('notAPdf');
          continue;
        }
        if (days > cls.maxDays) {
          leave('MaxReportDays', { maxDays: cls.maxDays });
          continue;
        }
        const input = reportInput({
          rapportClassName: cls.className,
          typeRapport: cls.variants.includes('Daily') ? 'Daily' : cls.variants[0]!,
          format: 'PDF',
          language,
          dateDebut,
          dateFin,
          sites: [q.site],
        });
        try {
          const report = await resolveReport(input, session.siteIds, database, {
            sites: options.reportSites,
          });
          const dataset = await datasetOf(report);
          if (dataset.rows.length === 0) {
            leave('empty');
            continue;
          }
          const body = await renderReport(dataset, 'PDF', renderOptionsFor(report, distribution));
          if (body.kind !== 'buffer') throw new Error('a PDF renders to a buffer');
          let name = reportFileName(cls.fileNameId, dataset, language, 'PDF');
          for (let n = 2; used.has(name); n++) name = name.replace(/(_\d+)?\.pdf$/, `_${n}.pdf`);
          used.add(name);
          zip.addBuffer(body.data, name, { mtime: report.request.generatedAt });
          included.push(name);
          await recordEdition(pool, {
            userId: session.userId,
            login: session.login,
            report,
            input,
            status: 'OK',
            bytes: body.data.length,
            rows: dataset.rows.length,
            origin: 'archive',
          });
        } catch (error) {
          reply.log.error({ err: error, className: cls.className }, 'report left out of the archive');
          const refused = error instanceof ApiHttpError || error instanceof DomainError;
          leave(refused ? 'refused' : 'error', { code: refused ? error.code : 'InternalError' });
        }
      }
      const lines = [
        message(language, 'exports.archive.readme.title', {
          site: siteName,
          dateDebut: wireToDisplay(dateDebut),
          dateFin: wireToDisplay(dateFin),
        }),
        '',
        message(language, 'exports.archive.readme.included', { count: included.length }),
        ...included.map((n) => `  - ${n}`),
        '',
        message(language, 'exports.archive.readme.left', { count: left.length }),
        ...left.map((l) => `  - ${l.title}: ${l.reason}`),
        '',
      ];
      zip.addBuffer(
        Buffer.from(lines.join('\r\n'), 'utf8'),
        `${message(language, 'exports.archive.readme.filename')}.txt`,
      );
      zip.end();
      return reply;
    },
  );
};

/**
 * `dateDebut..dateFin` checked as wire dates in order, at most `maxDays` long.
 * @throws ApiHttpError 400 BadRequest for a bad or inverted date; 400 MaxReportDays beyond `maxDays`.
 */
function checkedPeriod(
  dateDebut: string,
  dateFin: string,
  maxDays: number,
): { dateDebut: string; dateFin: string } {
  if (!parseWireDate(dateDebut) || !parseWireDate(dateFin)) {
    throw new ApiHttpError(400, 'BadRequest', 'dateDebut and dateFin must be dates YYYY-MM-DD');
  }
  const days = daysInclusive(dateDebut, dateFin);
  if (days < 1)
    throw new ApiHttpError(400, 'BadRequest', `dateFin ${dateFin} is before dateDebut ${dateDebut}`);
  if (days > maxDays) {
    throw new ApiHttpError(400, 'MaxReportDays', `${days} days requested, at most ${maxDays}`, {
      maxDays,
      days,
    });
  }
  return { dateDebut, dateFin };
}

/**
 * GET bo/getAllReportsSpecBK (SPEC.md §7): every report of one site and period, as PDFs in one
 * ZIP, streamed. What goes in the archive is the domain's (reports/archive.ts); this file checks
 * the caller, sets the headers and streams the archive while it is written.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Language, LANGUAGES, LanguageSchema } from '../../contract/reports.ts';
import type { Session } from '../auth/session.ts';
import { openReportArchive } from '../reports/archive.ts';
import { contentDisposition } from '../reports/render/index.ts';
import { documentAnswer, errorResponses, ownSession, UserIdParam } from './common.ts';
import { PdfBusyError } from '../reports/render/pdf-pool.ts';
import { answerBusy, type ReportAnswerContext } from './report-answer.ts';
import { INT4_MAX } from '../../contract/integers.ts';

const ArchiveQuerySchema = z.object({
  id: UserIdParam,
  site: z.coerce.number().int().positive().max(INT4_MAX).describe('restaurantId'),
  dateDebut: z.string(),
  dateFin: z.string(),
  language: LanguageSchema.optional(),
});

/** The language to use when a call gives none: the user's stored one, else French (SPEC.md §4). */
function userLanguage(session: Session): Language {
  return (LANGUAGES as readonly string[]).includes(session.language ?? '')
    ? (session.language as Language)
    : 'fr';
}

/** Registers bo/getAllReportsSpecBK. */
export async function reportArchiveRoutes(app: FastifyInstance, options: ReportAnswerContext) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /**
   * Checks the request (errors answer before any byte), then streams the archive as it is written;
   * every PDF slot taken: 503 ServerBusy with Retry-After, as bo/getReport's PDF (decision 0022).
   */
  async function getAllReports(
    request: FastifyRequest<{ Querystring: z.infer<typeof ArchiveQuerySchema> }>,
    reply: FastifyReply,
  ) {
    const session = ownSession(request, request.query.id);
    const q = request.query;
    const archive = await openReportArchive(
      {
        userId: session.userId,
        login: session.login,
        scopeSiteIds: session.siteIds,
        siteId: q.site,
        dateDebut: q.dateDebut,
        dateFin: q.dateFin,
        language: q.language ?? userLanguage(session),
      },
      {
        database: options.database,
        distribution: options.distribution,
        reportSites: options.reportSites,
        onLeftOut: (err, className) => reply.log.error({ err, className }, 'report left out of the archive'),
      },
    ).catch((error: unknown) => {
      if (error instanceof PdfBusyError) return error;
      throw error;
    });
    if (archive instanceof PdfBusyError) return answerBusy(reply, archive);
    reply.header('Content-Type', 'application/zip');
    reply.header('Content-Disposition', contentDisposition(archive.fileName));
    reply.send(archive.stream);
    // The caller went away (closed the page): stop generating for nobody.
    await archive.write(() => !request.raw.destroyed && !reply.raw.destroyed);
    return reply;
  }

  api.get(
    '/bo/getAllReportsSpecBK',
    {
      config: { rights: 'GET bo/getAllReportsSpecBK' },
      // Renders a document: no HEAD twin doing that for headers (DOCUMENT_GETS).
      exposeHeadRoute: false,
      schema: {
        summary: 'Every report of one site and period, as PDFs in one ZIP archive',
        description:
          'One PDF per report class that offers PDF (its Daily variant), named as bo/getReport names it, in ' +
          "`language` (default: the user's language). Streamed. A class whose maximum days the period exceeds, " +
          'a class without PDF, and a class with nothing to report for that site and period are left out and ' +
          'listed, with the reason, in a LISEZMOI/README/LIESMICH text file inside the archive (so the rest ' +
          'still arrives). 400 MaxReportDays only when the period exceeds every class. Each PDF is recorded ' +
          'as an edition (listed by exports/list, never the report in state of bo/getResultsData). The ' +
          'archive is complete or refused as a whole: when the server is already preparing its maximum of ' +
          'PDFs, 503 ServerBusy with Retry-After before any byte (never a ZIP short of a PDF).',
        tags: ['reports'],
        querystring: ArchiveQuerySchema,
        response: {
          200: documentAnswer(
            z
              .unknown()
              .describe('application/zip: one PDF per report class plus the text file of what was left out'),
            ['application/zip'],
          ),
          ...errorResponses,
        },
      },
    },
    getAllReports,
  );
}

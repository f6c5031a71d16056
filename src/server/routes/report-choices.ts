/**
 * What the report screen asks before it runs a report (SPEC.md §7):
 * - GET bo/rapport/metrics: the classes a user can run (editions), titled in the request's
 *   language, each with how many the user generated and when last (report_editions);
 * - GET bo/getResultsChoices: what a class offers and the values of its parameters;
 * - GET bo/getGroupements: the values a filter takes for a site and period.
 * The rules and their errors are the domain's (reports/choices.ts, reports/editions.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GroupementsAnswerSchema, ResultsChoicesAnswerSchema } from '../../contract/exports.ts';
import { LanguageSchema, MetricsAnswerSchema } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { message } from '../i18n.ts';
import { filterValues, resultsChoicesOf } from '../reports/choices.ts';
import { editionCounts } from '../reports/editions.ts';
import { REPORT_CLASSES } from '../reports/registry.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';
import { INT4_MAX } from '../../contract/integers.ts';

const MetricsQuerySchema = z.object({ id: UserIdParam, language: LanguageSchema.default('fr') });

const ResultsChoicesQuerySchema = z.object({
  id: UserIdParam,
  RapportGeneralClassName: z.string().optional().describe('report class (SPEC.md §7 spelling)'),
  rapportClassName: z.string().optional().describe('same, as bo/getReport spells it'),
  language: LanguageSchema.default('fr'),
});

const GroupementsQuerySchema = z.object({
  id: UserIdParam,
  rapportGeneralClassName: z.string(),
  filtre: z.string(),
  restaurantId: z.coerce.number().int().positive().max(INT4_MAX).optional(),
  dateDebut: z.string(),
  dateFin: z.string(),
  language: LanguageSchema.default('fr'),
});

/**
 * Registers bo/rapport/metrics, bo/getResultsChoices and bo/getGroupements.
 * @param options.database the open database.
 */
export async function reportChoiceRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;

  /** bo/rapport/metrics: every class with its title, variants, formats, maximum days and use. */
  async function getReportMetrics(
    request: FastifyRequest<{ Querystring: z.infer<typeof MetricsQuerySchema> }>,
  ) {
    const session = ownSession(request, request.query.id);
    const { language } = request.query;
    const counts = await editionCounts(database.pool, session.userId);
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
  }

  /** bo/getResultsChoices: the class named either way, in `language`. */
  async function getResultsChoices(
    request: FastifyRequest<{ Querystring: z.infer<typeof ResultsChoicesQuerySchema> }>,
  ) {
    ownSession(request, request.query.id);
    const name = request.query.RapportGeneralClassName ?? request.query.rapportClassName ?? '';
    return resultsChoicesOf(name, request.query.language, database);
  }

  /** bo/getGroupements: the values of `filtre` in the data of `restaurantId` (none: the scope). */
  async function getGroupements(
    request: FastifyRequest<{ Querystring: z.infer<typeof GroupementsQuerySchema> }>,
  ) {
    const session = ownSession(request, request.query.id);
    const q = request.query;
    const groupements = await filterValues(database, session.siteIds, {
      className: q.rapportGeneralClassName,
      filtre: q.filtre,
      siteId: q.restaurantId,
      dateDebut: q.dateDebut,
      dateFin: q.dateFin,
      language: q.language,
    });
    return { filtre: q.filtre, groupements };
  }

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
        querystring: MetricsQuerySchema,
        response: { 200: MetricsAnswerSchema, ...errorResponses },
      },
    },
    getReportMetrics,
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
        querystring: ResultsChoicesQuerySchema,
        response: { 200: ResultsChoicesAnswerSchema, ...errorResponses },
      },
    },
    getResultsChoices,
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
        querystring: GroupementsQuerySchema,
        response: { 200: GroupementsAnswerSchema, ...errorResponses },
      },
    },
    getGroupements,
  );
}

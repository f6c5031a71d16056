/**
 * GET bo/getRepartition (SPEC.md §7): how the sales of some sites over a period split across one
 * dimension, for the distributions screen (/analyses/repartitions). The figures, rules and
 * errors are the domain's (reports/sales-distribution.ts); the wire names are
 * src/contract/distributions.ts's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  type DistributionAnswer,
  DistributionAnswerSchema,
  DistributionQuerySchema,
} from '../../contract/distributions.ts';
import type { Database } from '../db/connect.ts';
import { salesDistribution } from '../reports/sales-distribution.ts';
import { callerSession, errorResponses } from './common.ts';

/** Registers GET bo/getRepartition on an instance prefixed with the API base. */
export async function distributionRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;

  /** The distribution of `site` (comma-separated restaurantIds; none = the scope) over the period. */
  async function getRepartition(
    request: FastifyRequest<{ Querystring: z.infer<typeof DistributionQuerySchema> }>,
  ): Promise<DistributionAnswer> {
    const q = request.query;
    const session = callerSession(request, q.id);
    return salesDistribution(database, session.siteIds, {
      type: q.typeRepartition,
      status: q.statut,
      siteIds: q.site ? [...new Set(q.site.split(',').map(Number))] : [],
      dateDebut: q.dateDebut,
      dateFin: q.dateFin,
      language: q.language,
    });
  }

  api.get(
    '/bo/getRepartition',
    {
      config: { rights: 'GET bo/getRepartition' },
      schema: {
        summary: 'How sales split by payment method, family, VAT rate, terminal, seller or hour (cents)',
        tags: ['reports'],
        querystring: DistributionQuerySchema,
        response: { 200: DistributionAnswerSchema, ...errorResponses },
      },
    },
    getRepartition,
  );
}

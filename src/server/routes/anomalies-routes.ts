/**
 * GET bo/bi/anomalies (issue #19, right RAPPORTS_ANOMALIES): sellers and terminals whose
 * cancellations, corrections, discounts or cash variances stand out against their peers and
 * their own history. Shapes in src/contract/anomalies.ts; the method and its errors in
 * anomalies/anomalies.ts (400 BadRequest / MaxReportDays / NoSitesSelected, 403 Forbidden).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type AnomalyAnswer,
  AnomalyAnswerSchema,
  type AnomalyQuery,
  AnomalyQuerySchema,
} from '../../contract/anomalies.ts';
import { findAnomalies } from '../anomalies/anomalies.ts';
import type { Database } from '../db/connect.ts';
import { errorResponses, ownSession } from './common.ts';

/** Registers GET bo/bi/anomalies on an instance prefixed with the API base. */
export async function anomalyRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { database } = options;

  /** The anomalies of `sites` (none = the scope) over the period (none = the last 4 weeks). */
  async function getAnomalies(
    request: FastifyRequest<{ Querystring: AnomalyQuery }>,
  ): Promise<AnomalyAnswer> {
    const q = request.query;
    const session = ownSession(request, q.id);
    return findAnomalies(database, session.siteIds, {
      siteIds: q.sites ? [...new Set(q.sites.split(',').map(Number))] : [],
      dateDebut: q.dateDebut,
      dateFin: q.dateFin,
    });
  }

  api.get(
    '/bo/bi/anomalies',
    {
      config: { rights: 'GET bo/bi/anomalies' },
      schema: {
        summary: 'Sellers and terminals standing out against their peers and their own 8 previous weeks',
        description:
          'Robust z-score (median, MAD) of cancellations, corrections, discounts and cash variances; ' +
          'flagged when both z-scores reach 3.5 (decision 0019). Most severe first.',
        tags: ['bi'],
        querystring: AnomalyQuerySchema,
        response: { 200: AnomalyAnswerSchema, ...errorResponses },
      },
    },
    getAnomalies,
  );
}

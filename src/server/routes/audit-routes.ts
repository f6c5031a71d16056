/**
 * HTTP of the audit log (issue #18): GET bo/infra/getAudit, filtered by author, kind and period,
 * newest first. There is no route that changes the log: entries are only ever added by the
 * changes they record (audit/audit-log.ts), and the table refuses UPDATE and DELETE.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuditAnswerSchema, AuditQuerySchema } from '../../contract/administration.ts';
import { readAudit } from '../administration/audit-reads.ts';
import type { Database } from '../db/connect.ts';
import { errorResponses } from './common.ts';

/** Registers GET bo/infra/getAudit. */
export async function auditRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/infra/getAudit',
    {
      config: { rights: 'GET bo/infra/getAudit' },
      schema: {
        summary: 'Entries of the audit log (who, when, what, before → after, from where), newest first',
        description:
          'Filters: userId (the author), kind (user, profile, group…), dateDebut/dateFin (YYYY-MM-DD, inclusive, ' +
          'days in Europe/Paris); limit ≤ 500 from offset; total counts every match. ' +
          '400 InvalidField (details.field dateFin) when the period ends before it starts.',
        tags: ['administration'],
        querystring: AuditQuerySchema,
        response: { 200: AuditAnswerSchema, ...errorResponses },
      },
    },
    async function getAudit(request) {
      return readAudit(pool, request.query);
    },
  );
}

/**
 * The KPI/BI area (issue #19; SPEC.md §2 /bi, /totalKPI, /tracker): GET bo/bi/explore (one
 * measure by up to two dimensions, JSON or a CSV/XLSX attachment), GET bo/bi/totalKPI (the
 * chain's key figures by company, group and site) and GET bo/bi/tracker (today hour by hour per
 * site). Shapes in src/contract/bi.ts; the reads in src/server/bi/. Every call answers for the
 * chosen sites of the caller's scope: 403 `Forbidden` when none of the chosen sites is in it,
 * 400 `mixedCurrencies` when they trade in several currencies.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  BiExploreAnswerSchema,
  BiExploreQuerySchema,
  BiKpiAnswerSchema,
  BiKpiQuerySchema,
  BiTrackerAnswerSchema,
  BiTrackerQuerySchema,
} from '../../contract/bi.ts';
import { exploreWithClock } from '../bi/explore.ts';
import { exportExplore } from '../bi/explore-export.ts';
import { keyFigures } from '../bi/key-figures.ts';
import { tracker } from '../bi/tracker.ts';
import type { Database } from '../db/connect.ts';
import { errorResponses, ownSession } from './common.ts';

/** Registers GET bo/bi/explore, GET bo/bi/totalKPI and GET bo/bi/tracker. */
export async function biRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/bi/explore',
    {
      config: { rights: 'GET bo/bi/explore' },
      schema: {
        summary: 'One measure by up to two dimensions over a period and its comparison period',
        description:
          'format=JSON (default) answers the rows; CSV or XLSX the same rows as an attachment. ' +
          '400 BadRequest with details.unsupported when no aggregate holds the measure by those ' +
          'dimensions (e.g. COVERS by FAMILY); 400 MaxReportDays beyond 731 days.',
        tags: ['bi'],
        querystring: BiExploreQuerySchema,
        response: { 200: BiExploreAnswerSchema, ...errorResponses },
      },
    },
    async function getExplore(
      request: FastifyRequest<{ Querystring: z.infer<typeof BiExploreQuerySchema> }>,
      reply: FastifyReply,
    ) {
      const session = ownSession(request, request.query.id);
      const { id: _id, format, ...query } = request.query;
      const { answer, timeZone } = await exploreWithClock(pool, { ...query, scope: session.siteIds });
      if (format === 'JSON') return answer;
      const document = await exportExplore(answer, format, query.language, timeZone);
      reply.header('Content-Type', document.contentType);
      reply.header('Content-Disposition', document.disposition);
      return reply.send(document.body);
    },
  );

  api.get(
    '/bo/bi/totalKPI',
    {
      config: { rights: 'GET bo/bi/totalKPI' },
      schema: {
        summary: "The chain's key figures over a period, vs the year before and the forecast",
        description:
          'One line for the chain, then per company, group and site: net sales, tickets, average ' +
          'ticket, covers, items per ticket, cancellation and correction rates, cash variance, ' +
          'the same figures 364 days earlier with how complete they are, the forecast, and the ' +
          'net sales per day (sparkline). 400 MaxReportDays beyond 366 days.',
        tags: ['bi'],
        querystring: BiKpiQuerySchema,
        response: { 200: BiKpiAnswerSchema, ...errorResponses },
      },
    },
    async function getTotalKpi(request) {
      const session = ownSession(request, request.query.id);
      return keyFigures(pool, { ...request.query, scope: session.siteIds });
    },
  );

  api.get(
    '/bo/bi/tracker',
    {
      config: { rights: 'GET bo/bi/tracker' },
      schema: {
        summary: "Today's sales hour by hour per site, vs the forecast and the same weekday a year earlier",
        tags: ['bi'],
        querystring: BiTrackerQuerySchema,
        response: { 200: BiTrackerAnswerSchema, ...errorResponses },
      },
    },
    async function getTracker(request) {
      const session = ownSession(request, request.query.id);
      return tracker(pool, { sites: request.query.sites, scope: session.siteIds });
    },
  );
}

/**
 * GET withCredentials/collab/previsions (SPEC.md §7, issue #19): the sales forecast of the
 * chosen sites per fiscal date and day part, with its reliability measured on the last 8
 * weeks (forecast/previsions.ts; method: docs/decisions/0017-sales-forecast-method.md).
 * Chosen sites none of which is in the scope: 403 `Forbidden`; empty scope: 400 `NoSites`;
 * more than 62 days: 400 `MaxReportDays`.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseWireDate } from '../../contract/dates.ts';
import { ForecastAnswerSchema } from '../../contract/forecast.ts';
import type { Database } from '../db/connect.ts';
import { installForecastCache } from '../forecast/forecast.ts';
import { previsions } from '../forecast/previsions.ts';
import {
  callerSession,
  DEFAULT_WINDOW_TEXT,
  defaultWindow,
  errorResponses,
  QueryIntList,
  UserIdParam,
} from './common.ts';

const WireDate = z.string().refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date');

const PrevisionsQuery = z.object({
  id: UserIdParam.optional().describe(
    'id of the signed-in user; SPEC.md §7 does not name it, absent = the caller',
  ),
  sites: QueryIntList.pipe(z.array(z.number().int().min(1).max(2_147_483_647)).max(1_000)).describe(
    'restaurantIds, comma-separated or repeated; empty or absent = every site of the scope',
  ),
  dateDebut: WireDate.optional().describe(`first fiscal date (YYYY-MM-DD); ${DEFAULT_WINDOW_TEXT}`),
  dateFin: WireDate.optional().describe(
    `last fiscal date (YYYY-MM-DD), at most 62 days after dateDebut; ${DEFAULT_WINDOW_TEXT}`,
  ),
});

/**
 * Registers GET withCredentials/collab/previsions and installs the forecast cache of the pool on
 * the change feed; the job queue keeps every site's model fitted (`forecast.warm`, decision 0030).
 */
export async function forecastRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  // The server's change feed (app.ts). The warm-up is the job queue's `forecast.warm` (jobs/kinds.ts).
  installForecastCache(pool, app.changes);

  api.get(
    '/withCredentials/collab/previsions',
    {
      config: { rights: 'GET withCredentials/collab/previsions' },
      schema: {
        summary:
          'Sales forecast per site, fiscal date and day part (cents incl. VAT), with its measured reliability',
        tags: ['forecast'],
        querystring: PrevisionsQuery,
        response: { 200: ForecastAnswerSchema, ...errorResponses },
      },
    },
    async function getPrevisions(request) {
      const session = callerSession(request, request.query.id);
      const { dateDebut, dateFin } = defaultWindow(request.query);
      return previsions(pool, {
        siteIds: request.query.sites,
        scope: session.siteIds,
        dateDebut,
        dateFin,
        userCurrency: session.currency,
      });
    },
  );
}

/**
 * GET bo/home/{widget} (SPEC.md §7): the home dashboard's widgets. This issue has one widget,
 * `ventes` (home/home-sales.ts): sales of the chosen sites for the fiscal dates datePerso-1 and
 * datePerso. An unknown widget answers 404 `NotFound`; chosen sites none of which is in the
 * scope, 403 `Forbidden` (others are dropped); no site in the scope at all, 400 `NoSites`.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HomeSalesAnswerSchema } from '../../contract/api.ts';
import { parseWireDate } from '../../contract/dates.ts';
import type { Database } from '../db/connect.ts';
import { homeSales } from '../home/home-sales.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

/** Widgets of GET bo/home/{widget} this server answers. */
export const HOME_WIDGETS = ['ventes'] as const;

const HomeQuery = z.object({
  id: UserIdParam,
  sites: z
    .string()
    .regex(/^(\d+(,\d+)*)?$/, 'comma-separated site ids')
    .optional()
    .describe('restaurantIds, comma-separated; empty or absent = every site of the scope'),
  datePerso: z
    .string()
    .refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date')
    .optional()
    .describe("fiscal date (YYYY-MM-DD); default today's fiscal date of the first site"),
  // Sent by the client of SPEC.md §7; accepted, not used by the `ventes` widget.
  exploitant: z.string().optional(),
  service: z.string().optional(),
  horodatage: z.string().optional(),
  heureCourante: z.string().optional(),
  client: z.string().optional(),
  vendeurs: z.string().optional(),
});

/** Registers GET bo/home/{widget}. */
export async function homeRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/home/:widget',
    {
      config: { rights: 'GET bo/home/:widget' },
      schema: {
        summary: 'Home dashboard widget; `ventes`: sales (cents incl. VAT) for datePerso-1 and datePerso',
        tags: ['home'],
        params: z.object({ widget: z.string().describe(`one of ${HOME_WIDGETS.join(', ')}`) }),
        querystring: HomeQuery,
        response: { 200: HomeSalesAnswerSchema, ...errorResponses },
      },
    },
    async function getHomeWidget(request) {
      const session = ownSession(request, request.query.id);
      if (!(HOME_WIDGETS as readonly string[]).includes(request.params.widget)) {
        throw new ApiHttpError(404, 'NotFound', `unknown home widget ${request.params.widget}`);
      }
      return homeSales(pool, {
        siteIds: request.query.sites ? request.query.sites.split(',').map(Number) : [],
        scope: session.siteIds,
        fiscalDate: request.query.datePerso,
        userCurrency: session.currency,
      });
    },
  );
}

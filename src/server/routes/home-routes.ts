/**
 * GET bo/home/{widget} (SPEC.md §7): the home dashboard's widgets (contract/home.ts), each
 * computed by its domain module under src/server/home/.
 *
 * Rights (issue #17 item 8): the route's API_RIGHTS entry is `session` (any signed-in user may
 * call it), and each widget then needs the right of the data it shows, checked by its domain
 * function (contract/home.ts HOME_WIDGET_RIGHTS), 403 `Forbidden` otherwise:
 *
 * | widget       | needs one of                | shows                                               |
 * | ------------ | --------------------------- | --------------------------------------------------- |
 * | `ventes`     | RAPPORTS, BI                | sales by day part vs last year and forecast         |
 * | `coffre`     | COFFRE, RECUS, COMPTAGE     | safe (COFFRE), cash counts (COMPTAGE), receipts (RECUS) |
 * | `previsions` | RAPPORTS, BI                | forecast of datePerso + 7 days, reliability         |
 * | `evenements` | RAPPORTS, BI, EVENEMENTS    | local events of the next 14 days                    |
 *
 * An unknown widget answers 404 `NotFound`; chosen sites none of which is in the scope, 403
 * `Forbidden` (others are dropped); no site in the scope at all, 400 `NoSites`.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseWireDate } from '../../contract/dates.ts';
import { ID_LIST_TEXT } from '../../contract/integers.ts';
import { HOME_WIDGETS, type HomeWidget, HomeWidgetAnswerSchema, isHomeWidget } from '../../contract/home.ts';
import type { Database } from '../db/connect.ts';
import { homeEvents } from '../home/home-events.ts';
import { homeForecast } from '../home/home-forecast.ts';
import { homeSafe } from '../home/home-safe.ts';
import { homeSales } from '../home/home-sales.ts';
import type { HomeRequest } from '../home/widget-context.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';
import type { Session } from '../auth/session.ts';

/** The domain function of each widget. */
const WIDGETS: Record<
  HomeWidget,
  (db: Database['pool'], request: HomeRequest) => Promise<z.infer<typeof HomeWidgetAnswerSchema>>
> = {
  ventes: homeSales,
  coffre: homeSafe,
  previsions: homeForecast,
  evenements: homeEvents,
};

const HomeQuery = z.object({
  id: UserIdParam,
  sites: z
    .string()
    .max(100_000)
    .regex(ID_LIST_TEXT, 'comma-separated site ids')
    .refine(
      (s) => s === '' || s.split(',').every((id) => Number(id) <= 2_147_483_647),
      'site ids ≤ 2147483647',
    )
    .optional()
    .describe('restaurantIds, comma-separated; empty or absent = every site of the scope'),
  datePerso: z
    .string()
    .refine((d) => parseWireDate(d) !== null, 'a YYYY-MM-DD date')
    .optional()
    .describe("fiscal date (YYYY-MM-DD); default today's fiscal date of the first site"),
  exploitant: z
    .string()
    .max(100)
    .optional()
    .describe(
      "operator code (SPEC.md §6): when not empty, the caller's own codeExploitant, else 403 Forbidden; " +
        "the operator's data is the caller's site scope (decision 0033)",
    ),
  // Sent by the client of SPEC.md §7; accepted, not used by these widgets.
  service: z.string().optional(),
  horodatage: z.string().optional(),
  heureCourante: z.string().optional(),
  client: z.string().optional(),
  vendeurs: z.string().optional(),
});

/**
 * SPEC.md §6 "a user with an operator code (codeExploitant) has it added to home requests": the
 * operator's data is what the caller's profile scopes (decision 0033), so `exploitant` narrows
 * nothing further, but it must name the caller's own operator: asking for another's is refused.
 * @throws ApiHttpError 403 Forbidden with `details.exploitant` when a non-empty `exploitant` is
 *   not the caller's own code (or the caller has none).
 */
function requireOwnOperator(session: Session, exploitant: string | undefined): void {
  const asked = exploitant?.trim();
  if (!asked || asked === session.codeExploitant) return;
  throw new ApiHttpError(403, 'Forbidden', "exploitant is not the caller's operator code", {
    exploitant: asked,
  });
}

/** Registers GET bo/home/{widget}. */
export async function homeRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/home/:widget',
    {
      config: { rights: 'GET bo/home/:widget' },
      schema: {
        summary: 'Home dashboard widget (contract/home.ts); each widget needs the right of its data',
        tags: ['home'],
        params: z.object({ widget: z.string().describe(`one of ${HOME_WIDGETS.join(', ')}`) }),
        querystring: HomeQuery,
        response: { 200: HomeWidgetAnswerSchema, ...errorResponses },
      },
    },
    async function getHomeWidget(request) {
      const session = ownSession(request, request.query.id);
      requireOwnOperator(session, request.query.exploitant);
      const { widget } = request.params;
      if (!isHomeWidget(widget)) throw new ApiHttpError(404, 'NotFound', `unknown home widget ${widget}`);
      return WIDGETS[widget](pool, {
        siteIds: request.query.sites ? request.query.sites.split(',').map(Number) : [],
        scope: session.siteIds,
        rights: session.droits,
        fiscalDate: request.query.datePerso,
        userCurrency: session.currency,
      });
    },
  );
}

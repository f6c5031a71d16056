/**
 * GET bo/home/{widget} (SPEC.md §7): the home dashboard's widgets. This issue has one widget,
 * `ventes`: sales of the chosen sites for the fiscal dates datePerso-1 and datePerso, read from
 * `daily_sales` (kept by every load), so the home screen costs two rows per site.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { subDays } from 'date-fns/subDays';
import { subMinutes } from 'date-fns/subMinutes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HomeSalesAnswerSchema } from '../../contract/api.ts';
import { hhmmToMinutes, parseWireDate, toWireDate, WIRE_DATE } from '../../contract/dates.ts';
import { restrictToScope } from '../auth/scope.ts';
import type { Database } from '../db/connect.ts';
import { ApiHttpError } from '../plugins/errors.ts';
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

/**
 * Today's fiscal date of a site: the calendar date in its time zone of the instant `now`
 * moved back by its business-day start (a ticket at 02:00 with a 05:00 start is yesterday's).
 */
export function currentFiscalDate(now: Date, timeZone: string, dayStart: string): string {
  const local = new TZDate(now.getTime(), timeZone);
  return format(subMinutes(local, hhmmToMinutes(dayStart) ?? 0), WIRE_DATE);
}

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
    async (request) => {
      const session = ownSession(request, request.query.id);
      if (!(HOME_WIDGETS as readonly string[]).includes(request.params.widget)) {
        throw new ApiHttpError(404, 'NotFound', `unknown home widget ${request.params.widget}`);
      }
      const requested = request.query.sites ? request.query.sites.split(',').map(Number) : [];
      const siteIds = restrictToScope(requested, session.siteIds);
      if (siteIds.length === 0)
        throw new ApiHttpError(400, 'NoSites', 'no site of your scope in the selection');

      const { rows: sites } = await pool.query<{ time_zone: string; day_start: string; currency: string }>(
        'SELECT time_zone, day_start, currency FROM sites WHERE id = ANY($1) ORDER BY id',
        [siteIds],
      );
      const first = sites[0]!;
      const day = request.query.datePerso ?? currentFiscalDate(new Date(), first.time_zone, first.day_start);
      const previous = toWireDate(subDays(parseWireDate(day)!, 1));
      const currencies = new Set(sites.map((s) => s.currency));
      const currency = currencies.size === 1 ? first.currency : session.currency;

      const { rows } = await pool.query<{ fiscal_date: string; tickets: number; net: number }>(
        `SELECT fiscal_date, sum(tickets)::bigint AS tickets, sum(net_cents)::bigint AS net
         FROM daily_sales WHERE site_id = ANY($1) AND fiscal_date = ANY($2::date[])
        GROUP BY fiscal_date`,
        [siteIds, [previous, day]],
      );
      const byDate = new Map(rows.map((r) => [r.fiscal_date, r]));
      return {
        data: {
          currency,
          days: [previous, day].map((fiscalDate) => {
            const r = byDate.get(fiscalDate);
            const tickets = r?.tickets ?? 0;
            const netSales = r?.net ?? 0;
            return {
              fiscalDate,
              tickets,
              netSales,
              averageTicket: tickets > 0 ? Math.round(netSales / tickets) : 0,
            };
          }),
        },
      };
    },
  );
}

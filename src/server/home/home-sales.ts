/**
 * The `ventes` widget of the home dashboard (SPEC.md §7 GET bo/home/{widget}): sales of the
 * chosen sites for the fiscal dates datePerso-1 and datePerso, read from `daily_sales` (kept by
 * every load), so the home screen costs two rows per site whatever the number of tickets.
 */
import { subDays } from 'date-fns/subDays';
import type { HomeSalesAnswer } from '../../contract/api.ts';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import { restrictToScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';

/** What {@link homeSales} reads for. */
export interface HomeSalesRequest {
  /** restaurantIds asked for; empty = every site of `scope`. */
  siteIds: readonly number[];
  /** The user's site scope (SPEC.md §6), ascending. */
  scope: readonly number[];
  /** Fiscal date `YYYY-MM-DD`; absent = today's fiscal date of the first site (ascending id). */
  fiscalDate?: string | undefined;
  /** Currency shown when the chosen sites trade in several (the user's own). */
  userCurrency: string;
  /** The instant "today" is taken at (default now). */
  now?: Date;
}

interface HomeSite {
  time_zone: string;
  day_start: string;
  currency: string;
}

interface DaySales {
  fiscal_date: string;
  tickets: number;
  net: number;
}

/**
 * Sales of the chosen sites of the scope on the day before `fiscalDate` and on `fiscalDate`, in
 * that order: tickets, net sales and average ticket in cents including VAT (`round(net /
 * tickets)`, 0 without a ticket); a day without sales answers zeros. The currency is the sites'
 * when they share one, else the user's.
 * @throws DomainError forbidden `Forbidden` when sites are chosen and none is in the scope
 *   (auth/scope.ts restrictToScope; chosen sites outside it are dropped otherwise); invalid
 *   `NoSites` when none is chosen and the scope is empty.
 */
export async function homeSales(db: Queryable, request: HomeSalesRequest): Promise<HomeSalesAnswer> {
  const siteIds = restrictToScope(request.siteIds, request.scope);
  if (siteIds.length === 0)
    throw new DomainError('invalid', 'NoSites', 'no site of your scope in the selection');

  const { rows: sites } = await db.query<HomeSite>(
    'SELECT time_zone, day_start, currency FROM sites WHERE id = ANY($1) ORDER BY id',
    [siteIds],
  );
  const first = sites[0]!;
  const day =
    request.fiscalDate ?? currentFiscalDate(request.now ?? new Date(), first.time_zone, first.day_start);
  const previous = toWireDate(subDays(parseWireDate(day)!, 1));
  const currencies = new Set(sites.map((s) => s.currency));
  const currency = currencies.size === 1 ? first.currency : request.userCurrency;

  const { rows } = await db.query<DaySales>(
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
}

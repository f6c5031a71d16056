/**
 * What every widget of the home dashboard (SPEC.md §7 GET bo/home/{widget}) starts from: the
 * widget's right (issue #17 item 8: a widget needs the right of the data it shows, not only a
 * session), the chosen sites cut to the user's scope (SPEC.md §6), their facts, the fiscal date
 * asked for (or today's of the first site) and the currency the amounts are shown in.
 */
import { addDays } from 'date-fns/addDays';
import { type HomeWidget, HOME_WIDGET_RIGHTS, maySeeWidget } from '../../contract/home.ts';
import { parseWireDate, toWireDate } from '../../contract/dates.ts';
import { restrictToScope } from '../auth/scope.ts';
import { type SiteFacts, siteFacts } from '../counting/sites.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { currentFiscalDate } from '../reference/fiscal-date.ts';

/** What a widget is asked for (the route maps SPEC.md §7's wire parameters to this). */
export interface HomeRequest {
  /** restaurantIds asked for; empty = every site of `scope`. */
  siteIds: readonly number[];
  /** The user's site scope (SPEC.md §6), ascending. */
  scope: readonly number[];
  /** The user's rights (session droits). */
  rights: readonly string[];
  /** Fiscal date `YYYY-MM-DD` (datePerso); absent = today's fiscal date of the first site. */
  fiscalDate?: string | undefined;
  /** Currency shown when the chosen sites trade in several (the user's own). */
  userCurrency: string;
  /** The instant "today" is taken at (default now). */
  now?: Date;
}

/** The resolved request every widget reads with. */
export interface WidgetContext {
  /** Sites of the scope chosen, ascending. */
  siteIds: number[];
  /** Their facts, ascending id. */
  sites: SiteFacts[];
  /** datePerso, or today's fiscal date of the first site. */
  fiscalDate: string;
  /** The sites' currency when they share one, else the user's. */
  currency: string;
  rights: readonly string[];
}

/**
 * Checks that a user holding `rights` may see `widget` (contract/home.ts HOME_WIDGET_RIGHTS).
 * @throws DomainError forbidden `Forbidden` with `details.anyOf` (the rights that would do).
 */
export function requireWidgetRight(widget: HomeWidget, rights: readonly string[]): void {
  if (!maySeeWidget(widget, rights)) {
    throw new DomainError('forbidden', 'Forbidden', `the ${widget} widget needs one of its rights`, {
      anyOf: HOME_WIDGET_RIGHTS[widget],
    });
  }
}

/** `date` (wire) moved by `days` (negative = back), as a wire date. */
export function shiftDate(date: string, days: number): string {
  return toWireDate(addDays(parseWireDate(date)!, days));
}

/**
 * The chosen sites of the scope with their facts, the fiscal date and the currency.
 * @throws DomainError forbidden `Forbidden` when sites are chosen and none is in the scope
 *   (auth/scope.ts restrictToScope; chosen sites outside it are dropped otherwise); invalid
 *   `NoSites` when none is chosen and the scope is empty.
 */
export async function widgetContext(db: Queryable, request: HomeRequest): Promise<WidgetContext> {
  const siteIds = restrictToScope(request.siteIds, request.scope);
  if (siteIds.length === 0)
    throw new DomainError('invalid', 'NoSites', 'no site of your scope in the selection');
  const sites = [...(await siteFacts(db, siteIds)).values()];
  const first = sites[0];
  if (!first) throw new DomainError('invalid', 'NoSites', 'the chosen sites no longer exist');
  const fiscalDate =
    request.fiscalDate ?? currentFiscalDate(request.now ?? new Date(), first.timeZone, first.dayStart);
  const currencies = new Set(sites.map((s) => s.currency));
  return {
    siteIds: sites.map((s) => s.id),
    sites,
    fiscalDate,
    currency: currencies.size === 1 ? first.currency : request.userCurrency,
    rights: request.rights,
  };
}

/**
 * The facts /sync shows of a write waiting on the device (issue #32 D.4), from the outbox item's
 * `summary` (lib/outbox: raw values, never translated text: `site` a restaurantId, `date` a wire
 * date, `terminal` a terminal number, `amount` a decimal text such as "25.40" in the currency's
 * major unit, `seller` a seller's name): the site by its name, the date DD/MM/YYYY and the amount
 * as money, as every other screen shows them. A value the device cannot name (a site no longer in
 * the reference data) shows as it was stored.
 */
import { formatDate, formatMoney } from '../../lib/format.ts';

/** What the facts are read with: the user's sites and terminals, currency (ISO 4217) and locale. */
export interface SummaryContext {
  sites: readonly { restaurantId: number; libelle: string }[];
  terminals: readonly { restaurantId: number; caisses: readonly { id: number; libelle: string }[] }[];
  currency: string;
  locale: string;
}

/** One fact: its key (`sync.field.<key>` names it) and its value as shown. */
export interface SummaryFact {
  key: string;
  value: string;
}

/** `summary`'s entries, in their order, each value shown as the screens show it. */
export function summaryFacts(
  summary: Readonly<Record<string, string | number>>,
  ctx: SummaryContext,
): SummaryFact[] {
  const siteId = Number(summary.site);
  return Object.entries(summary).map(([key, raw]) => ({ key, value: shownValue(key, raw, siteId, ctx) }));
}

function shownValue(key: string, raw: string | number, siteId: number, ctx: SummaryContext): string {
  switch (key) {
    case 'site':
      return ctx.sites.find((s) => s.restaurantId === Number(raw))?.libelle ?? String(raw);
    case 'date':
      return formatDate(String(raw));
    case 'amount': {
      const cents = Math.round(Number(raw) * 100);
      return Number.isFinite(cents) ? formatMoney(cents, ctx.currency, ctx.locale) : String(raw);
    }
    case 'terminal': {
      const caisses = ctx.terminals.find((t) => t.restaurantId === siteId)?.caisses ?? [];
      return caisses.find((c) => c.id === Number(raw))?.libelle ?? String(raw);
    }
    default:
      return String(raw);
  }
}

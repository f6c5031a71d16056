/**
 * How the explorer's figures read: NET, AVERAGE_TICKET and DISCOUNTS as money (cents in the answer), ITEMS
 * with up to three decimals, counts whole, the change as a signed percentage. An empty value
 * (no data in that period) reads as a dash, never as 0.
 */
import { BI_MONEY_MEASURES, type BiMeasure } from '../../../contract/bi.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';

/** Text of a dash for "no data" (not a zero). */
export const NO_VALUE = '—';

/** `value` of `measure` as text in `locale`; `currency` for money. */
export function formatMeasure(
  measure: BiMeasure,
  value: number | null,
  currency: string,
  locale: string,
): string {
  if (value === null) return NO_VALUE;
  if (BI_MONEY_MEASURES.includes(measure)) return formatMoney(value, currency, locale);
  return formatNumber(value, locale, { maximumFractionDigits: measure === 'ITEMS' ? 3 : 0 });
}

/** Change from `before` to `now` as a fraction; null without a base. */
export function variation(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return (now - before) / before;
}

/** A change as a signed percentage (`+12.5 %`), or a dash. */
export function formatVariation(change: number | null, locale: string): string {
  if (change === null) return NO_VALUE;
  return formatNumber(change, locale, {
    style: 'percent',
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
}

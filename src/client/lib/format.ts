/**
 * Display formats (DESIGN.md §8): money in the user's currency through `Intl`, dates shown
 * DD/MM/YYYY while they travel YYYY-MM-DD (SPEC.md §9), numbers in the interface's language.
 */
import { wireToDisplay } from '../../contract/dates.ts';

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `cents` (integer, minor units) as money in `currency` (ISO 4217) for `locale` (fr, en, de). */
export function formatMoney(cents: number, currency: string, locale: string): string {
  const key = `${locale}|${currency}`;
  let nf = moneyFormats.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, { style: 'currency', currency });
    moneyFormats.set(key, nf);
  }
  return nf.format(cents / 100);
}

/** A wire date `YYYY-MM-DD` shown as `DD/MM/YYYY`; any other text is returned unchanged. */
export function formatDate(wire: string): string {
  return wireToDisplay(wire);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number with the grouping and decimal marks of `locale`. The formatter of each locale and
 * `options` is made once: making one costs far more than formatting (a report table formats
 * thousands of cells).
 */
export function formatNumber(n: number, locale: string, options?: Intl.NumberFormatOptions): string {
  const key = options ? `${locale}|${JSON.stringify(options)}` : locale;
  let nf = numberFormats.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, nf);
  }
  return nf.format(n);
}

/** Text of an absent figure (no data, no base to compare with): a dash, never 0. */
export const NO_FIGURE = '—';

/** `cents` as money like {@link formatMoney}, or {@link NO_FIGURE} for null. */
export function formatMoneyOrDash(cents: number | null, currency: string, locale: string): string {
  return cents === null ? NO_FIGURE : formatMoney(cents, currency, locale);
}

/**
 * A change given as a fraction (0.125 for +12.5 %) as a signed percentage with at most one
 * decimal (`+12.5%`, `-3%`, `0%`), or {@link NO_FIGURE} for null. The KPI/BI screens' "vs last
 * year" and "vs forecast" columns.
 */
export function formatChange(change: number | null, locale: string): string {
  if (change === null) return NO_FIGURE;
  return formatNumber(change, locale, {
    style: 'percent',
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  });
}

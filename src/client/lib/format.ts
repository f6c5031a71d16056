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

/**
 * Amounts typed by a store manager ("12,50", "12.50", "1 234,5", "12 €") to integer cents
 * (DESIGN.md §5: money is integer cents, never floats on the wire).
 */

/** Cents of a typed amount; `null` for an empty field; `'invalid'` for anything else. */
export function parseMoneyToCents(text: string): number | null | 'invalid' {
  const cleaned = text.replace(/[\s\u00a0\u202f€]/g, '');
  if (cleaned === '') return null;
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(cleaned);
  if (!match) return 'invalid';
  const units = Number(match[1]);
  const decimals = (match[2] ?? '').padEnd(2, '0');
  const cents = units * 100 + Number(decimals || '0');
  return Number.isSafeInteger(cents) ? cents : 'invalid';
}

/** Cents as the amount a user would type back ("12,50" in French, "12.50" otherwise). */
export function centsToInput(cents: number | null, locale: string): string {
  if (cents === null) return '';
  const text = (cents / 100).toFixed(2);
  return locale === 'en' ? text : text.replace('.', ',');
}

/**
 * Exact decimal arithmetic for money (DESIGN.md §5: amounts are integer cents, never floats).
 * Files carry prices such as `2.555` or `-11062.06` and quantities such as `0.5`: parsing them to
 * binary floats and multiplying drifts by a cent here and there over half a million lines, so
 * they are kept as scaled integers (BigInt) and rounded once, half away from zero, to the cent.
 */

/** A decimal number `units / 10^scale`, e.g. `2.555` is `{ units: 2555n, scale: 3 }`. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const POW10: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

/**
 * Parses a plain decimal number written with `separator` as decimal mark (`.` or `,`):
 * optional sign, digits, optional fraction; surrounding spaces are ignored. No thousands
 * separators, no exponent.
 * @returns the exact value, or null when `text` is not such a number.
 */
export function parseDecimal(text: string, separator: string): Decimal | null {
  const t = text.trim();
  if (t.length === 0 || t.length > 30) return null;
  let i = 0;
  let negative = false;
  const first = t.charCodeAt(0);
  if (first === 45 /* - */ || first === 43 /* + */) {
    negative = first === 45;
    i = 1;
  }
  const start = i;
  const mark = separator.charCodeAt(0);
  let at = -1;
  for (; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (at < 0 && c === mark) at = i;
    else return null;
  }
  // Slices rather than a digit-by-digit string: this runs for two fields of every line.
  const digits = at < 0 ? t.slice(start) : t.slice(start, at) + t.slice(at + 1);
  if (digits.length === 0) return null;
  // Up to 15 digits a double holds exactly, and BigInt of a number is cheaper than of a string.
  const units = digits.length <= 15 ? BigInt(Number(digits)) : BigInt(digits);
  return { units: negative ? -units : units, scale: at < 0 ? 0 : t.length - at - 1 };
}

/** `n / d` rounded half away from zero (`d > 0`). */
export function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d; // truncates toward zero
  const r = n - q * d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** `value` rounded half away from zero to the cent, in cents. */
export function toCents(value: Decimal): number {
  if (value.scale <= 2) return Number(value.units * pow10(2 - value.scale));
  return Number(roundDiv(value.units, pow10(value.scale - 2)));
}

/** Line amount in cents: `quantity × unitPrice`, exact, rounded half away from zero to the cent. */
export function lineAmountCents(quantity: Decimal, unitPrice: Decimal): number {
  return toCents({ units: quantity.units * unitPrice.units, scale: quantity.scale + unitPrice.scale });
}

/**
 * Amount excluding VAT in cents for an amount including VAT: `round(amount / (1 + vatRate))`,
 * half away from zero. The VAT is then `amount − excl`, so excl + VAT always equals the amount.
 * @param vatRate a fraction (`0.2` = 20 %), exact.
 */
export function exclVatCents(amountCents: number, vatRate: Decimal): number {
  const one = pow10(vatRate.scale);
  return Number(roundDiv(BigInt(amountCents) * one, one + vatRate.units));
}

/** The canonical text of `value` (`-1.5`, `0.055`), as PostgreSQL's `numeric` input reads it. */
export function decimalText(value: Decimal): string {
  if (value.scale === 0) return value.units.toString();
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const cut = digits.length - value.scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** A decimal from a JS number written in its shortest form (for rates given in a JSON mapping). */
export function decimalFromNumber(value: number): Decimal {
  const d = parseDecimal(String(value), '.');
  if (!d) throw new Error(`${value} is not a plain decimal number`);
  return d;
}

/**
 * `n / d` rounded half away from zero, for integers where `n` stays within ±2^53 (`d > 0`):
 * the Number twin of {@link roundDiv} for hot loops (the demo generator).
 */
export function roundDivInt(n: number, d: number): number {
  const q = Math.trunc(n / d);
  const r = n - q * d;
  if (2 * Math.abs(r) >= d) return n < 0 ? q - 1 : q + 1;
  return q;
}

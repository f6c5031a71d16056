/**
 * The JSON answer of bo/getReport and its variants: a dataset as UTF-8 bytes (RFC 8259 §8.1).
 */

/** A character outside Latin-1: V8 then holds the whole JSON text in two bytes per character. */
const WIDE_CHARACTER = /[\u0100-\uffff]/;
const encoder = new TextEncoder();

/**
 * `value` as JSON text (JSON.stringify) encoded in UTF-8.
 *
 * A text of Latin-1 characters only (most reports: digits, dates, accented site names) is
 * encoded by Buffer.from, the fast path for V8's one-byte strings. One character beyond Latin-1
 * (’, œ, € in an article name) makes V8 hold the whole text as UTF-16, and Buffer.from's UTF-8
 * encoding of it is slow (a year of corrections, 1.4 MB: 2.7 ms); TextEncoder.encodeInto (the
 * simdutf encoder) does it in 1.7 ms into a buffer sized for the text: a quarter more bytes than
 * characters, which every French or German text fits in, and Buffer.from again for a text it
 * does not fit. The probe costs nothing measurable: V8 answers it at once on a one-byte string
 * and at the first wide character on a two-byte one.
 * @returns the bytes (a view of a buffer that can be up to a quarter larger).
 * @throws TypeError from JSON.stringify (a BigInt or a cycle in `value`).
 */
export function jsonBytes(value: unknown): Buffer {
  const text = JSON.stringify(value);
  if (!WIDE_CHARACTER.test(text)) return Buffer.from(text);
  const bytes = Buffer.allocUnsafe(text.length + (text.length >> 2) + 16);
  const { read, written } = encoder.encodeInto(text, bytes);
  return read === text.length ? bytes.subarray(0, written) : Buffer.from(text);
}

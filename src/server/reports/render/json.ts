/**
 * The JSON answer of bo/getReport and its variants: a dataset as UTF-8 bytes (RFC 8259 §8.1).
 */
import { transcode } from 'node:buffer';
import type { Dataset } from '../../../contract/reports.ts';

/** A character outside Latin-1: V8 then holds the whole JSON text in two bytes per character. */
const WIDE_CHARACTER = /[\u0100-\uffff]/;

/**
 * Rows serialised per JSON.stringify call by {@link datasetJsonBytes}. Measured on a year of the
 * demo chain (fr): 256 rows a slice took 0.72 ms for sales by day (whole: 0.85), 0.92 for a month
 * of Z (1.07), 4.95 for corrections (5.74); 64 and 1,024 were slower than 256.
 */
export const ROWS_PER_SLICE = 256;

/**
 * `text` encoded in UTF-8.
 *
 * A text of Latin-1 characters only (most reports: digits, dates, accented site names) is
 * encoded by Buffer.from, the fast path for V8's one-byte strings. One character beyond Latin-1
 * (’, œ, € in an article name) makes V8 hold the whole text as UTF-16, and Buffer.from's UTF-8
 * encoding of that is slow: on a year of corrections of the demo chain (1.4 MB, one row in twelve
 * with ’ or œ) it took 2.6 ms, TextEncoder.encodeInto 1.4 ms, and copying the UTF-16 code units
 * out (Buffer.from(…, 'utf16le'), a plain copy) then re-encoding them with ICU's converter
 * (buffer.transcode) 0.65 ms. JSON.stringify writes a lone surrogate as an escape (ES2019
 * well-formed JSON.stringify), so the texts given here are well-formed UTF-16 and the converter
 * never needs its substitution character. The probe costs nothing measurable: V8 answers it at
 * once on a one-byte string and at the first wide character on a two-byte one.
 * @throws Error from buffer.transcode on a Node.js built without ICU (the official builds have it).
 */
function utf8(text: string): Buffer {
  if (!WIDE_CHARACTER.test(text)) return Buffer.from(text);
  return transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8');
}

/**
 * `dataset` as JSON in UTF-8 (RFC 8259 §8.1): JSON.stringify's text of it, with `rows` written last.
 *
 * The rows are serialised {@link ROWS_PER_SLICE} at a time and each slice is encoded on its own,
 * and so is everything but the rows (title, columns, totals). So one wide character (an en dash
 * in a title, ’ in an article name) makes only its own slice a two-byte text, not the whole answer
 * (a year of finance figures, 490 kB: 1.98 → 0.96 ms); and V8 builds several short texts faster
 * than one long one. The slices are whole rows (array elements), so no character is cut. With
 * {@link utf8}, a year of corrections (1.4 MB, 592 rows of 6,885 with a wide character): 5.7 ms
 * in one text with TextEncoder, 4.6–5.7 ms in slices with TextEncoder, 3.7–3.9 ms in slices with
 * ICU's converter.
 * @returns the bytes, one buffer.
 * @throws TypeError from JSON.stringify (a BigInt or a cycle in a row).
 */
export function datasetJsonBytes(dataset: Dataset): Buffer {
  const { rows, ...head } = dataset;
  const headText = JSON.stringify(head);
  const parts: Buffer[] = [utf8(headText === '{}' ? '{"rows":[' : `${headText.slice(0, -1)},"rows":[`)];
  const comma = Buffer.from(',');
  for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
    if (start > 0) parts.push(comma);
    // "[row,row,…]" without its brackets: one byte each.
    parts.push(utf8(JSON.stringify(rows.slice(start, start + ROWS_PER_SLICE))).subarray(1, -1));
  }
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}

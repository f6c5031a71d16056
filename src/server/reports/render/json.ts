/**
 * The JSON answer of bo/getReport and its variants: a dataset as UTF-8 bytes (RFC 8259 §8.1), its
 * rows as arrays of cells in the order of its columns (contract/reports.ts DatasetAnswerSchema,
 * docs/decisions/0012).
 */
import { transcode } from 'node:buffer';
import type { Dataset } from '../../../contract/reports.ts';

type Cell = Dataset['rows'][number][string];
/** A row's cells in column order (a missing key gives undefined, which JSON writes as null). */
type RowCells = (row: Dataset['rows'][number]) => Array<Cell | undefined>;

/** Extractors made so far, by their column keys joined with NUL (see {@link rowCells}). */
const extractors = new Map<string, RowCells>();
/** Column sets kept: classes × variants × groupings stay far below it. */
const MAX_EXTRACTORS = 512;

/**
 * The function that reads a row's cells in the order of `keys`: `(r) => [r["k1"], r["k2"], …]`,
 * made once per column set and kept. Each read is a property load at a fixed name, which V8 caches
 * per row shape; a loop over the keys reads by a varying name, a lookup by name each time
 * (decision record 0012 holds the measurements). The source is
 * made of the keys only, each written as a JSON string literal (also a valid JavaScript string
 * literal), so no key can be read as code; the keys are the report classes' own column keys.
 */
function rowCells(keys: readonly string[]): RowCells {
  const id = keys.join('\u0000');
  let extract = extractors.get(id);
  if (!extract) {
    extract = new Function(
      'r',
      `return [${keys.map((k) => `r[${JSON.stringify(k)}]`).join(',')}];`,
    ) as RowCells;
    if (extractors.size >= MAX_EXTRACTORS) extractors.clear();
    extractors.set(id, extract);
  }
  return extract;
}

/** A character outside Latin-1: V8 then holds the whole JSON text in two bytes per character. */
const WIDE_CHARACTER = /[\u0100-\uffff]/;

/**
 * Rows serialised per JSON.stringify call by {@link datasetJsonBytes}: slices of this size were
 * faster than the whole rows at once, and than smaller or larger slices, on the report families
 * with the largest answers.
 */
export const ROWS_PER_SLICE = 256;

/**
 * A part of the answer ready to be written in UTF-8: a text of Latin-1 characters only (most
 * reports: digits, dates, accented site names), written straight into the answer's buffer
 * (Buffer#write, the fast path for V8's one-byte strings), or the bytes of a text with a wider
 * character, already encoded.
 *
 * One character beyond Latin-1 (’, œ, € in an article name) makes V8 hold the whole text as
 * UTF-16, and Node's UTF-8 encoding of that (Buffer.from, TextEncoder.encodeInto) is slow;
 * copying the UTF-16 code units out (Buffer.from(…, 'utf16le'), a plain copy) then re-encoding
 * them with ICU's converter (buffer.transcode) is faster than either. JSON.stringify writes a lone
 * surrogate as an escape (ES2019 well-formed JSON.stringify), so the texts given here are
 * well-formed UTF-16 and the converter never needs its substitution character. The probe costs
 * nothing measurable: V8 answers it at once on a one-byte string and at the first wide character
 * on a two-byte one.
 * @throws Error from buffer.transcode on a Node.js built without ICU (the official builds have it).
 */
function part(text: string): Part {
  if (!WIDE_CHARACTER.test(text)) return { text, bytes: Buffer.byteLength(text) };
  const encoded = transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8');
  return { encoded, bytes: encoded.length };
}

/** A part of the answer: Latin-1 text still to be written, or UTF-8 bytes; `bytes` its size. */
type Part = { text: string; bytes: number } | { encoded: Buffer; bytes: number };

/**
 * `dataset` as JSON in UTF-8 (RFC 8259 §8.1): JSON.stringify's text of it, with `rows` written last
 * and each row as the array of its cells in the order of `columns` ({@link rowCells}; read back
 * with contract/reports.ts DatasetAnswerSchema): about half the size of rows written as objects
 * (decision record 0012).
 *
 * The rows are serialised {@link ROWS_PER_SLICE} at a time and each slice is encoded on its own,
 * and so is everything but the rows (title, columns, totals). So one wide character (an en dash
 * in a title, ’ in an article name) makes only its own slice a two-byte text, not the whole answer;
 * and V8 builds several short texts faster than one long one. The slices are whole rows (array
 * elements), so no character is cut. The parts are written into one buffer of the answer's size: no buffer per
 * slice, and no copy of them all into the answer (Buffer.concat).
 * @returns the bytes, one buffer.
 * @throws TypeError from JSON.stringify (a BigInt or a cycle in a row).
 */
export function datasetJsonBytes(dataset: Dataset): Buffer {
  const { rows, ...head } = dataset;
  const cells = rowCells(dataset.columns.map((c) => c.key));
  const headText = JSON.stringify(head);
  const parts = [part(headText === '{}' ? '{"rows":[' : `${headText.slice(0, -1)},"rows":[`)];
  const comma = part(',');
  for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
    if (start > 0) parts.push(comma);
    // "[row,row,…]" without its brackets: one byte each.
    const end = Math.min(rows.length, start + ROWS_PER_SLICE);
    const slice = new Array<Array<Cell | undefined>>(end - start);
    for (let i = start; i < end; i++) slice[i - start] = cells(rows[i]!);
    parts.push(part(JSON.stringify(slice).slice(1, -1)));
  }
  parts.push(part(']}'));
  let size = 0;
  for (const p of parts) size += p.bytes;
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const p of parts) offset += 'text' in p ? out.write(p.text, offset) : p.encoded.copy(out, offset);
  return out;
}

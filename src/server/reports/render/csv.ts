/**
 * CSV renderer, generic over any dataset (DESIGN.md §6), with csv-stringify, for spreadsheet
 * programs of the user's language: `;` and decimal comma in French and German, `,` and decimal
 * point in English, a UTF-8 BOM (so Excel reads the accents), CRLF line ends (RFC 4180), a
 * header row of translated labels, then the rows and a totals row. Money is written in currency
 * units with two decimals and no symbol or grouping, so the program reads it as a number; text
 * that would run as a formula is neutralised.
 *
 * A report over a purged period (issue #30, decision 0040) opens with one comment line per purged
 * period, before the header: a first field `# ` and the translated heading ("# Archived period",
 * never quoted), then the sentence the screen and the PDF show (where the detail was archived and
 * the totals kept, to the cent), quoted as any field. A spreadsheet shows it in the first row; a
 * program skips the lines that start with `#` (csv-parse `comment: '#'` with `comment_no_infix`,
 * pandas `comment='#'`, DuckDB `comment='#'`): the header is the first line that does not.
 *
 * The output is a stream: rows are stringified as the answer is sent, never held as one string.
 */
import { Readable } from 'node:stream';
import { stringify as stringifyRecords } from 'csv-stringify/sync';
import type { Dataset, DatasetColumn, Language } from '../../../contract/reports.ts';
import { decimalSeparator, formatCentsPlain, formatDate, message } from '../../i18n.ts';
import type { DatasetRow } from '../types.ts';
import { archivedNotices, neutraliseFormula, totalsRow } from './cells.ts';
import { claimRest, isStreamed } from './streamed.ts';

/** The field separator of CSV files in `language`. */
export function csvDelimiter(language: Language): string {
  return language === 'en' ? ',' : ';';
}

function csvCell(
  value: string | number | null | undefined,
  column: DatasetColumn,
  language: Language,
): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return column.type === 'date' ? formatDate(value) : neutraliseFormula(value);
  const sep = decimalSeparator(language);
  switch (column.type) {
    case 'money':
      return formatCentsPlain(language, value);
    case 'percent':
      return (value * 100).toFixed(2).replace('.', sep);
    default:
      return String(value).replace('.', sep);
  }
}

/** Rows stringified together into one chunk of the answer. */
const CHUNK_ROWS = 2_000;

/**
 * The CSV text of `dataset`, a chunk per batch of rows: header and first rows, the rest as it is
 * read, totals. Whole batches go through csv-stringify at once: one chunk of a few hundred
 * kilobytes instead of one per line keeps the answer's streams (byte count, compression) from
 * paying their per-chunk cost a million times.
 */
async function* chunks(dataset: Dataset, language: Language, progress: () => void): AsyncGenerator<string> {
  const options = { delimiter: csvDelimiter(language), record_delimiter: 'windows' } as const;
  const rest = claimRest(dataset);
  // Dates repeat on thousands of rows (a month of tickets has 31): each is formatted once.
  const dates = new Map<string, string>();
  const cell = (value: string | number | null | undefined, column: DatasetColumn) => {
    if (column.type !== 'date' || typeof value !== 'string') return csvCell(value, column, language);
    let text = dates.get(value);
    if (text === undefined) {
      text = csvCell(value, column, language);
      if (dates.size < 10_000) dates.set(value, text);
    }
    return text;
  };
  const line = (row: DatasetRow) => dataset.columns.map((c) => cell(row[c.key], c));
  const notices = archivedNotices(dataset, language).map((text) => [
    `# ${message(language, 'reports.archived.heading')}`,
    neutraliseFormula(text),
  ]);
  try {
    yield stringifyRecords(
      [
        ...notices,
        dataset.columns.map((c) => neutraliseFormula(c.label)),
        ...dataset.rows.slice(0, CHUNK_ROWS).map(line),
      ],
      { ...options, bom: true },
    );
    for (let i = CHUNK_ROWS; i < dataset.rows.length; i += CHUNK_ROWS)
      yield stringifyRecords(dataset.rows.slice(i, i + CHUNK_ROWS).map(line), options);
    if (rest)
      for (let next = await rest.batches.next(); !next.done; next = await rest.batches.next()) {
        progress();
        yield stringifyRecords(next.value.map(line), options);
      }
  } finally {
    // Also when stopped early (answer destroyed): close the cursor, give its connection back.
    await rest?.batches.return?.();
  }
  const totals = totalsRow({ ...dataset, totals: rest ? rest.totals() : dataset.totals }, language);
  yield stringifyRecords([dataset.columns.map((c, i) => csvCell(totals[i], c, language))], options);
}

/** No batch taken for this long means the answer was abandoned: stop reading rows. */
export const STALLED_MS = 120_000;

/**
 * A stream of `dataset` as CSV text (UTF-8 with BOM) in `language`'s conventions. A streamed
 * dataset (render/streamed.ts) is written as its rows are read, with backpressure: the next
 * batch is read from the database only when the answer has taken the previous ones. Destroying
 * the stream (or leaving it unread for {@link STALLED_MS}) stops the reading.
 */
export function renderCsv(dataset: Dataset, language: Language): Readable {
  let stall: NodeJS.Timeout | undefined;
  const watch = () => {
    clearTimeout(stall);
    stall = setTimeout(() => output.destroy(new Error('CSV answer stalled')), STALLED_MS).unref();
  };
  // Bytes, not objects: the answer's byte count and compression see plain chunks.
  const output = Readable.from(chunks(dataset, language, watch), { objectMode: false });
  if (isStreamed(dataset)) watch();
  output.on('close', () => clearTimeout(stall));
  return output;
}

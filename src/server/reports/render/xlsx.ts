/**
 * XLSX renderer, generic over any dataset (DESIGN.md §6), with exceljs: one sheet named after
 * the report, a bold header row of translated labels, figures as numbers (money in currency
 * units with a currency number format, so the spreadsheet sums them), dates as real dates shown
 * DD/MM/YYYY, and a bold totals row. A streamed dataset (render/streamed.ts) is written as a
 * stream while its rows are read.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Dataset, DatasetColumn, Language } from '../../../contract/reports.ts';
import { parseWireDate } from '../../../contract/dates.ts';
import { LOCALES } from '../../i18n.ts';
import { totalsRow } from './cells.ts';
import { claimRest } from './streamed.ts';

/**
 * Excel number format of money in `currency` for `language`, e.g. `#,##0.00 "€"` (fr, de) or
 * `"£"#,##0.00` (en): the symbol placed where the language's `Intl` format puts it. Excel shows
 * the separators of the reader's own locale.
 */
export function moneyNumberFormat(language: Language, currency: string): string {
  const parts = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency }).formatToParts(1);
  const symbol = parts.find((p) => p.type === 'currency')?.value ?? currency;
  const before = parts.findIndex((p) => p.type === 'currency') < parts.findIndex((p) => p.type === 'integer');
  const quoted = `"${symbol.replaceAll('"', '')}"`;
  return before ? `${quoted}#,##0.00;-${quoted}#,##0.00` : `#,##0.00 ${quoted};-#,##0.00 ${quoted}`;
}

function xlsxCell(
  value: string | number | null | undefined,
  column: DatasetColumn,
): string | number | Date | null {
  // An empty text is an empty cell (exceljs's streaming writer drops empty strings anyway).
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    if (column.type !== 'date') return value;
    const d = parseWireDate(value);
    // Excel dates carry no zone: write the calendar date at UTC midnight so it never shifts.
    return d ? new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())) : value;
  }
  return column.type === 'money' ? value / 100 : value;
}

/** Sheet name of `dataset`: at most 31 characters, none of : \\ / ? * [ ]. */
function sheetName(dataset: Dataset): string {
  return dataset.title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Report';
}

/** Column keys, widths and number formats of `dataset`'s sheet. */
function sheetColumns(dataset: Dataset, language: Language): Array<Partial<ExcelJS.Column>> {
  const money = moneyNumberFormat(language, dataset.currency);
  return dataset.columns.map((c) => ({
    key: c.key,
    width: c.type === 'text' ? 28 : 16,
    style: {
      numFmt:
        c.type === 'money'
          ? money
          : c.type === 'date'
            ? 'dd/mm/yyyy'
            : c.type === 'percent'
              ? '0.0%'
              : undefined,
    },
  }));
}

/** `dataset` as an XLSX workbook, in memory. */
export async function renderXlsx(dataset: Dataset, language: Language): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Comptoir';
  workbook.created = new Date(dataset.generatedAt);
  const sheet = workbook.addWorksheet(sheetName(dataset));
  sheet.columns = sheetColumns(dataset, language);
  const head = sheet.addRow(dataset.columns.map((c) => c.label));
  head.font = { bold: true };
  for (const row of dataset.rows) sheet.addRow(dataset.columns.map((c) => xlsxCell(row[c.key], c)));
  const totals = totalsRow(dataset, language);
  const last = sheet.addRow(dataset.columns.map((c, i) => xlsxCell(totals[i], c)));
  last.font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const data = await workbook.xlsx.writeBuffer();
  return Buffer.from(data);
}

/** Bytes the output may hold before the writer waits for the answer to take them. */
const XLSX_HIGH_WATER = 1 << 20;

/**
 * The same workbook as {@link renderXlsx}, written as a stream with exceljs's streaming
 * WorkbookWriter (inline strings, rows committed as they are added) while a streamed dataset's
 * rows are read (render/streamed.ts): after each batch, the writer waits until the answer has
 * taken what was written, so memory stays flat whatever the number of rows. Destroying the
 * stream stops the reading and releases the database connection.
 */
export function renderXlsxStream(dataset: Dataset, language: Language): Readable {
  const out = new PassThrough({ highWaterMark: XLSX_HIGH_WATER });
  const rest = claimRest(dataset);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Comptoir';
  workbook.created = new Date(dataset.generatedAt);
  const sheet = workbook.addWorksheet(sheetName(dataset), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = sheetColumns(dataset, language);
  const add = (cells: Array<string | number | Date | null>, bold = false) => {
    const row = sheet.addRow(cells);
    if (bold) row.font = { bold: true };
    row.commit();
  };
  let abandoned = false;
  out.on('close', () => {
    abandoned = !out.readableEnded;
  });
  const write = async () => {
    add(
      dataset.columns.map((c) => c.label),
      true,
    );
    try {
      for (const row of dataset.rows) add(dataset.columns.map((c) => xlsxCell(row[c.key], c)));
      if (rest)
        for (let next = await rest.batches.next(); !next.done; next = await rest.batches.next()) {
          for (const row of next.value) add(dataset.columns.map((c) => xlsxCell(row[c.key], c)));
          while (!abandoned && out.writableLength > XLSX_HIGH_WATER)
            await Promise.race([once(out, 'drain'), once(out, 'close')]);
          if (abandoned) return;
        }
    } finally {
      await rest?.batches.return?.();
    }
    const totals = totalsRow({ ...dataset, totals: rest ? rest.totals() : dataset.totals }, language);
    add(
      dataset.columns.map((c, i) => xlsxCell(totals[i], c)),
      true,
    );
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

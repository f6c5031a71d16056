/**
 * XLSX renderer, generic over any dataset (DESIGN.md §6), with exceljs: one sheet named after
 * the report, opening with a heading block (title, chain, sites, period, time of generation: the
 * PDF's heading lines), then a bold, frozen header row of translated labels with filter buttons,
 * figures as numbers (money in currency units with a currency number format, so the spreadsheet
 * sums them), dates as real dates shown DD/MM/YYYY, and a bold totals row whose sums are `SUM`
 * formulas. A report over a purged period (issue #30) says so in bold rows right under the title
 * (where the detail was archived, the totals kept). The workbook's title, subject and author say the same. A streamed dataset
 * (render/streamed.ts) is written as a stream while its rows are read.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Dataset, DatasetColumn, Language } from '../../../contract/reports.ts';
import { parseWireDate } from '../../../contract/dates.ts';
import { LOCALES } from '../../i18n.ts';
import {
  documentHeading,
  documentProperties,
  neutraliseFormula,
  type RenderOptions,
  totalsRow,
} from './cells.ts';
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
    if (column.type !== 'date') return neutraliseFormula(value);
    const d = parseWireDate(value);
    // Excel dates carry no zone: write the calendar date at UTC midnight so it never shifts.
    return d ? new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())) : neutraliseFormula(value);
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

/** A cell as a sheet row takes it: a value, or a formula with the result a reader shows before recalculating. */
type SheetCell = string | number | Date | null | { formula: string; result: number };
/**
 * How a row reads: the title, a purged period's notice, a heading line, the column header, a
 * data row or the totals.
 */
type RowStyle = 'title' | 'archived' | 'heading' | 'header' | 'data' | 'totals';
/** Adds one row to the sheet (and commits it when the sheet is streamed). */
type AddRow = (cells: SheetCell[], style: RowStyle) => void;

const FONTS: Partial<Record<RowStyle, Partial<ExcelJS.Font>>> = {
  title: { bold: true, size: 14 },
  archived: { bold: true },
  heading: { color: { argb: 'FF555555' } },
  header: { bold: true },
  totals: { bold: true },
};

/**
 * Row number (1-based) of the column header: under the title, the purged periods' notices, the
 * heading lines and a blank row.
 */
function headerRowOf(dataset: Dataset, options: RenderOptions): number {
  const { lines, archived } = documentHeading(dataset, options);
  return archived.length + lines.length + 3;
}

/**
 * Writes the heading block (title; then, over a purged period, one bold row per purged period
 * saying where its detail was archived and the totals kept, in column A, as the PDF says it under
 * its title; then chain, sites, period…, the lines the PDF shows) and the column header; returns
 * the header's row number.
 */
function writeTop(add: AddRow, dataset: Dataset, options: RenderOptions): number {
  const { title, lines, archived } = documentHeading(dataset, options);
  add([title], 'title');
  for (const line of archived) add([neutraliseFormula(line)], 'archived');
  for (const line of lines) add([line], 'heading');
  add([], 'heading');
  add(
    dataset.columns.map((c) => c.label),
    'header',
  );
  return headerRowOf(dataset, options);
}

/**
 * Sums each column's figures as they are written (money in cents, quantities as they are), so
 * the totals row can tell which of its totals are plain sums of the column.
 */
class ColumnSums {
  readonly sums: number[];
  rows = 0;
  private readonly columns: DatasetColumn[];
  constructor(columns: DatasetColumn[]) {
    this.columns = columns;
    this.sums = columns.map(() => 0);
  }
  add(row: Dataset['rows'][number]): void {
    this.rows++;
    this.columns.forEach((c, i) => {
      const v = row[c.key];
      if (typeof v === 'number') this.sums[i]! += v;
    });
  }
}

/**
 * The totals row: a money or quantity total that equals the sum of its column's data rows is
 * written as a `SUM` formula over them (with the total as its cached result), so a cell edited
 * in the spreadsheet recomputes it; any other total (an average, a rate, a label) as its value.
 */
function totalsCells(
  dataset: Dataset,
  sheet: { getColumn(n: number): { letter: string } },
  sums: ColumnSums,
  firstDataRow: number,
  language: Language,
): SheetCell[] {
  const totals = totalsRow(dataset, language);
  const lastDataRow = firstDataRow + sums.rows - 1;
  return dataset.columns.map((c, i) => {
    const total = totals[i];
    const summable = (c.type === 'money' || c.type === 'qty') && typeof total === 'number' && sums.rows > 0;
    if (!summable || Math.abs(sums.sums[i]! - total) > 1e-9 * Math.max(1, Math.abs(total))) {
      return xlsxCell(total, c);
    }
    const letter = sheet.getColumn(i + 1).letter;
    return {
      formula: `SUM(${letter}${firstDataRow}:${letter}${lastDataRow})`,
      result: xlsxCell(total, c) as number,
    };
  });
}

/** Title, subject (period and sites) and author (the chain) of the workbook's document properties. */
function describeWorkbook(
  workbook: { creator: string; title: string; subject: string; created: Date },
  dataset: Dataset,
  options: RenderOptions,
): void {
  const properties = documentProperties(dataset, options);
  workbook.creator = properties.author;
  workbook.title = properties.title;
  workbook.subject = properties.subject;
  workbook.created = new Date(dataset.generatedAt);
}

/** The filter buttons on the header row, over the data rows (not the totals). */
function autoFilterOf(headerRow: number, sums: ColumnSums, columns: number): ExcelJS.AutoFilter {
  return {
    from: { row: headerRow, column: 1 },
    to: { row: headerRow + Math.max(sums.rows, 1), column: columns },
  };
}

/** Adds rows to `sheet` in `style`, committing each when `commit` (the streaming writer). */
function rowAdder(sheet: { addRow(cells: SheetCell[]): ExcelJS.Row }, commit: boolean): AddRow {
  return (cells, style) => {
    const row = sheet.addRow(cells);
    const font = FONTS[style];
    if (font) row.font = font;
    if (commit) row.commit();
  };
}

/**
 * `dataset` as an XLSX workbook, in memory: a heading block saying what the report is (the
 * lines of the PDF's heading), the column header frozen and with filter buttons, the rows, and
 * a bold totals row whose sums are formulas.
 */
export async function renderXlsx(dataset: Dataset, options: RenderOptions): Promise<Buffer> {
  const { language } = options;
  const workbook = new ExcelJS.Workbook();
  describeWorkbook(workbook, dataset, options);
  workbook.company = options.chain;
  const sheet = workbook.addWorksheet(sheetName(dataset));
  sheet.columns = sheetColumns(dataset, language);
  const add = rowAdder(sheet, false);
  const headerRow = writeTop(add, dataset, options);
  const sums = new ColumnSums(dataset.columns);
  for (const row of dataset.rows) {
    add(
      dataset.columns.map((c) => xlsxCell(row[c.key], c)),
      'data',
    );
    sums.add(row);
  }
  add(totalsCells(dataset, sheet, sums, headerRow + 1, language), 'totals');
  sheet.autoFilter = autoFilterOf(headerRow, sums, dataset.columns.length);
  sheet.views = [{ state: 'frozen', ySplit: headerRow }];
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
export function renderXlsxStream(dataset: Dataset, options: RenderOptions): Readable {
  const { language } = options;
  const out = new PassThrough({ highWaterMark: XLSX_HIGH_WATER });
  const rest = claimRest(dataset);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  describeWorkbook(workbook, dataset, options);
  const headerRow = headerRowOf(dataset, options);
  const sheet = workbook.addWorksheet(sheetName(dataset), {
    views: [{ state: 'frozen', ySplit: headerRow }],
  });
  sheet.columns = sheetColumns(dataset, language);
  const add = rowAdder(sheet, true);
  const sums = new ColumnSums(dataset.columns);
  const addData = (row: Dataset['rows'][number]) => {
    add(
      dataset.columns.map((c) => xlsxCell(row[c.key], c)),
      'data',
    );
    sums.add(row);
  };
  let abandoned = false;
  out.on('close', () => {
    abandoned = !out.readableEnded;
  });
  const write = async () => {
    writeTop(add, dataset, options);
    try {
      for (const row of dataset.rows) addData(row);
      if (rest)
        for (let next = await rest.batches.next(); !next.done; next = await rest.batches.next()) {
          for (const row of next.value) addData(row);
          while (!abandoned && out.writableLength > XLSX_HIGH_WATER)
            await Promise.race([once(out, 'drain'), once(out, 'close')]);
          if (abandoned) return;
        }
    } finally {
      await rest?.batches.return?.();
    }
    const all = { ...dataset, totals: rest ? rest.totals() : dataset.totals };
    add(totalsCells(all, sheet, sums, headerRow + 1, language), 'totals');
    sheet.autoFilter = autoFilterOf(headerRow, sums, dataset.columns.length);
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

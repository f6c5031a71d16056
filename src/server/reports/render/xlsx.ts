/**
 * XLSX renderer, generic over any dataset (DESIGN.md §6), with exceljs: one sheet named after
 * the report, a bold header row of translated labels, figures as numbers (money in currency
 * units with a currency number format, so the spreadsheet sums them), dates as real dates shown
 * DD/MM/YYYY, and a bold totals row.
 */
import ExcelJS from 'exceljs';
import type { Dataset, DatasetColumn, Language } from '../../../contract/reports.ts';
import { parseWireDate } from '../../../contract/dates.ts';
import { LOCALES } from '../../i18n.ts';
import { totalsRow } from './cells.ts';

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
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    if (column.type !== 'date') return value;
    const d = parseWireDate(value);
    // Excel dates carry no zone: write the calendar date at UTC midnight so it never shifts.
    return d ? new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())) : value;
  }
  return column.type === 'money' ? value / 100 : value;
}

/** `dataset` as an XLSX workbook, in memory. */
export async function renderXlsx(dataset: Dataset, language: Language): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Comptoir';
  workbook.created = new Date(dataset.generatedAt);
  // Sheet names: at most 31 characters, none of : \ / ? * [ ].
  const sheet = workbook.addWorksheet(dataset.title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Report');
  const money = moneyNumberFormat(language, dataset.currency);
  sheet.columns = dataset.columns.map((c) => ({
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

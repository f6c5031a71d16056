/**
 * A partner file from its rows and layout (issue #29, decision 0044): the chosen columns under
 * the partner's names, CSV through csv-stringify (quoting as RFC 4180 wants), amounts as units
 * with two decimals (decimal point or comma), dates in the chosen format, the chosen encoding
 * through iconv-lite, and the file name from its pattern.
 */
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import {
  AMOUNT_FIELDS,
  ARTICLE_FIELDS,
  type ColumnProblem,
  type Layout,
  PARTNER_DATA,
  PAYMENT_FIELDS,
  type Partner,
} from '../../contract/integrations.ts';
import type { DataRow } from './data.ts';

/** `cents` as units with two decimals, e.g. -1234 → `-12.34` (or `-12,34`). */
export function formatAmount(cents: number, decimalComma: boolean): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const text = `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return decimalComma ? text.replace('.', ',') : text;
}

/** `YYYY-MM-DD` in the layout's format. */
export function formatDate(day: string, format: Layout['formatDate']): string {
  const [y, m, d] = day.split('-');
  if (format === 'DD/MM/YYYY') return `${d}/${m}/${y}`;
  if (format === 'YYYYMMDD') return `${y}${m}${d}`;
  return day;
}

function cell(row: DataRow, field: Layout['colonnes'][number]['champ'], layout: Layout): string {
  const value = row[field];
  if (value === null || value === undefined) return '';
  if (AMOUNT_FIELDS.includes(field)) return formatAmount(Number(value), layout.virguleDecimale);
  if (field === 'date') return formatDate(String(value), layout.formatDate);
  if (field === 'vatRate') {
    // A fraction (0.055) written as a percentage (5.5), as partners show VAT rates.
    const percent = String(Math.round(Number(value) * 10_000) / 100);
    return layout.virguleDecimale ? percent.replace('.', ',') : percent;
  }
  if (field === 'quantity') {
    const q = String(Number(value));
    return layout.virguleDecimale ? q.replace('.', ',') : q;
  }
  return String(value);
}

/**
 * The file's lines as text, one CSV record each without its line end: the header (if asked) then
 * one per row. A cell holding the separator, a quote or a line break is quoted (csv-stringify).
 */
export function renderRecords(rows: readonly DataRow[], layout: Layout): string[] {
  const records = rows.map((row) => layout.colonnes.map((c) => cell(row, c.champ, layout)));
  const all = layout.entete ? [layout.colonnes.map((c) => c.nom), ...records] : records;
  return all.map((r) =>
    stringify([r], { delimiter: layout.separateur, record_delimiter: '\r\n' }).slice(0, -2),
  );
}

/** The file's bytes: its records ({@link renderRecords}) each ended by CRLF, in the layout's encoding. */
export function renderFile(rows: readonly DataRow[], layout: Layout): Buffer {
  const text = renderRecords(rows, layout)
    .map((r) => `${r}\r\n`)
    .join('');
  return iconv.encode(text, layout.encodage);
}

/** A refused column: its place in `colonnes` and why. */
export interface ColumnIssue {
  index: number;
  reason: ColumnProblem;
}

/**
 * The first refused column of `layout` for `partner`, or null: a field the partner's data lacks
 * (`UnknownField`), an empty name (`EmptyName`), a name given twice, case ignored
 * (`DuplicateName`), a name holding the separator, a quote or a line break (`BadName`).
 */
export function layoutProblem(partner: Partner, layout: Layout): ColumnIssue | null {
  const allowed: readonly string[] = PARTNER_DATA[partner] === 'articles' ? ARTICLE_FIELDS : PAYMENT_FIELDS;
  const seen = new Set<string>();
  for (const [index, c] of layout.colonnes.entries()) {
    if (!allowed.includes(c.champ)) return { index, reason: 'UnknownField' };
    const name = c.nom.trim();
    if (name === '') return { index, reason: 'EmptyName' };
    if (name.includes(layout.separateur) || /["\r\n]/.test(name)) return { index, reason: 'BadName' };
    if (seen.has(name.toLowerCase())) return { index, reason: 'DuplicateName' };
    seen.add(name.toLowerCase());
  }
  return null;
}

/** The file name from the layout's pattern for `partner`, site code `site` and `day`. */
export function fileName(layout: Layout, partner: Partner, site: string, day: string): string {
  const safeSite = site.replace(/[^A-Za-z0-9._-]/g, '_');
  return layout.nomFichier
    .replaceAll('{partenaire}', partner)
    .replaceAll('{site}', safeSite)
    .replaceAll('{date}', day.replaceAll('-', ''));
}

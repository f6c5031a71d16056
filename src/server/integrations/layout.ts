/**
 * A partner file from its rows and layout (issue #29, decision 0044): the chosen columns under
 * the partner's names, CSV through csv-stringify (quoting as RFC 4180 wants), amounts as units
 * with two decimals (decimal point or comma), dates in the chosen format, the chosen encoding
 * through iconv-lite, and the file name from its pattern.
 */
import { stringify } from 'csv-stringify/sync';
import iconv from 'iconv-lite';
import { AMOUNT_FIELDS, type Layout, type Partner } from '../../contract/integrations.ts';
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

/** The file's bytes: header (if asked) and one line per row, in the layout's encoding. */
export function renderFile(rows: readonly DataRow[], layout: Layout): Buffer {
  const records = rows.map((row) => layout.colonnes.map((c) => cell(row, c.champ, layout)));
  const text = stringify(layout.entete ? [layout.colonnes.map((c) => c.nom), ...records] : records, {
    delimiter: layout.separateur,
    record_delimiter: '\r\n',
  });
  return iconv.encode(text, layout.encodage);
}

/** The file name from the layout's pattern for `partner`, site code `site` and `day`. */
export function fileName(layout: Layout, partner: Partner, site: string, day: string): string {
  const safeSite = site.replace(/[^A-Za-z0-9._-]/g, '_');
  return layout.nomFichier
    .replaceAll('{partenaire}', partner)
    .replaceAll('{site}', safeSite)
    .replaceAll('{date}', day.replaceAll('-', ''));
}

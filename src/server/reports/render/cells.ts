/**
 * Shared by the renderers: what a document shows around a dataset (chain, time zone, filters)
 * and how one cell reads in a document of a given language.
 */
import type { Dataset, DatasetColumn, Language } from '../../../contract/reports.ts';
import { formatDate, formatInstant, formatMoney, formatNumber, formatPercent, message } from '../../i18n.ts';

/** Context of a rendered document that the dataset itself does not carry. */
export interface RenderOptions {
  language: Language;
  /** Chain or distribution name shown on the PDF (the sites' brand, else `GET distribution`'s name). */
  chain: string;
  /** IANA zone in which the generated-at time is shown (the first site's). */
  timeZone: string;
  /** Hour range shown under the period (`HH:mm`), or null. */
  hours: { heureDebut: string; heureFin: string } | null;
  /** Explicit fiscal dates (datefiscales[]) shown instead of a range, or null. */
  fiscalDates: string[] | null;
  /** Whether training-mode tickets were included (said on the PDF). */
  trainingMode: boolean;
}

/**
 * First characters that make a spreadsheet program read a text cell as a formula (CSV injection,
 * OWASP "CSV Injection"): `=`, `+`, `-`, `@`, tab and carriage return, and their full-width forms
 * `＝` `＋` `－` `＠`, which some programs fold to the ASCII ones (issue #32 item C.4).
 */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/**
 * `text` as a spreadsheet program must show it: prefixed with an apostrophe when it starts like a
 * formula (see FORMULA_START), as OWASP recommends, otherwise unchanged. Used by the CSV and the
 * XLSX renderers for every text cell (names and comments come from imported files and users);
 * numbers are never passed here, so amounts and quantities stay numeric, negative ones included.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell as text for a PDF: money with its currency symbol, dates DD/MM/YYYY, numbers grouped. */
export function displayCell(
  value: string | number | null | undefined,
  column: DatasetColumn,
  dataset: Pick<Dataset, 'currency'>,
  language: Language,
): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return column.type === 'date' ? formatDate(value) : value;
  switch (column.type) {
    case 'money':
      return formatMoney(language, value, dataset.currency);
    case 'percent':
      return formatPercent(language, value);
    case 'qty':
      // Identifiers (site numbers) read better without grouping; quantities keep it.
      return column.key.endsWith('Id') ? String(value) : formatNumber(language, value);
    default:
      return String(value);
  }
}

/** True for columns whose figures are right-aligned (money, quantities, percentages). */
export function isNumeric(column: DatasetColumn): boolean {
  return column.type === 'money' || column.type === 'qty' || column.type === 'percent';
}

/** The totals row's cells, with the translated "Total" label in the first column that has no figure. */
export function totalsRow(dataset: Dataset, language: Language): Array<string | number | null> {
  const cells: Array<string | number | null> = dataset.columns.map((c) => dataset.totals[c.key] ?? null);
  const labelAt = cells.indexOf(null);
  if (labelAt >= 0) cells[labelAt] = message(language, 'report.total');
  return cells;
}

/** Whether `dataset`'s PDF is laid out in landscape (more than six columns). */
export function isLandscape(dataset: Pick<Dataset, 'columns'>): boolean {
  return dataset.columns.length > 6;
}

/**
 * What a report over a purged period says (issue #30, decision 0040), one sentence per site and
 * purged period of `dataset.archived`, in `language`: the site, the purged days (DD/MM/YYYY), the
 * archive file (relative to the data folder) and the grand totals kept over those days (SALE
 * tickets, net incl. and excl. VAT and VAT, to the cent in the dataset's currency) — the
 * message `reports.archived.line` the screen shows. Empty when no day of the report was purged.
 */
export function archivedNotices(dataset: Dataset, language: Language): string[] {
  const money = (cents: number) => formatMoney(language, cents, dataset.currency);
  return (dataset.archived ?? []).map((a) =>
    message(language, 'reports.archived.line', {
      site: dataset.sites.find((s) => s.restaurantId === a.restaurantId)?.libelle ?? String(a.restaurantId),
      debut: formatDate(a.debut),
      fin: formatDate(a.fin),
      archive: a.archive,
      tickets: a.tickets,
      net: money(a.netCents),
      excl: money(a.netExclCents),
      tax: money(a.taxCents),
    }),
  );
}

/**
 * What a document says about its report above the table, one line each, in `options.language`:
 * the title with its variant, the chain, the sites, the period (or the explicit fiscal dates,
 * DD/MM/YYYY), the hour range and training mode when they apply, the currency, and when it was
 * generated (in `options.timeZone`, 24-hour). The PDF and the XLSX heading show the same lines;
 * `sites` and `period` are two of them, named for the document properties and the PDF's page header.
 * `archived` are the {@link archivedNotices} of a report over a purged period, shown right
 * under the title (not part of `lines`).
 */
export function documentHeading(
  dataset: Dataset,
  options: RenderOptions,
): { title: string; lines: string[]; sites: string; period: string; archived: string[] } {
  const { language } = options;
  const t = (id: string, values?: Record<string, string | number>) => message(language, id, values);
  // French typography puts a (no-break) space before the colon.
  const colon = language === 'fr' ? '\u00a0: ' : ': ';
  const sites = `${t('report.pdf.sites')}${colon}${dataset.sites.map((s) => s.libelle).join(', ')}`;
  const period = options.fiscalDates
    ? t('report.pdf.dates', { dates: options.fiscalDates.map(formatDate).join(', ') })
    : t('report.pdf.period', {
        dateDebut: formatDate(dataset.dateDebut),
        dateFin: formatDate(dataset.dateFin),
      });
  const lines = [`${t('report.pdf.chain')}${colon}${options.chain}`, sites, period];
  if (options.hours) lines.push(t('report.pdf.hours', options.hours));
  if (options.trainingMode) lines.push(t('report.pdf.trainingMode'));
  lines.push(t('report.pdf.currency', { currency: dataset.currency }));
  lines.push(t('report.pdf.generatedAt', formatInstant(new Date(dataset.generatedAt), options.timeZone)));
  return {
    title: `${dataset.title} — ${t(`report.variant.${dataset.variant}`)}`,
    lines,
    sites,
    period,
    archived: archivedNotices(dataset, language),
  };
}

/**
 * The document properties of a report's file (PDF info dictionary, XLSX core properties), in
 * `options.language`: `title` is the heading's title (report and variant), `author` the chain
 * (`options.chain`), `subject` the period (or fiscal dates) and the sites, as the heading words them.
 */
export function documentProperties(
  dataset: Dataset,
  options: RenderOptions,
): { title: string; author: string; subject: string } {
  const { title, period, sites } = documentHeading(dataset, options);
  return { title, author: options.chain, subject: `${period} — ${sites}` };
}

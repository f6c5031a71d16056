/**
 * Reads and downloads of /analyses/listExports (issue #4 point 6): the generated reports
 * (GET exports/list), the state of a fiscal date per site (GET exports/status), downloading an
 * edition again (GET exports/download) and every report of a site for a date as one ZIP
 * (GET bo/getAllReportsSpecBK), plus the display helpers the screen and its tests share.
 */
import { queryOptions } from '@tanstack/react-query';
import { wireToDisplay } from '../../../contract/dates.ts';
import { type Edition, EditionsAnswerSchema, ExportStatusAnswerSchema } from '../../../contract/exports.ts';
import type { Language, ReportFormat } from '../../../contract/reports.ts';
import { download, getJson } from '../../lib/http.ts';

/** Editions shown per page of the list. */
export const EDITIONS_PAGE = 50;

/** Editions asked of the server per call while looking for files (exports/list's `limit` bound). */
const SCAN_PAGE = 200;

/** Calls of exports/list one list may make, so a history of on-screen views alone cannot loop long. */
const SCAN_CALLS = 10;

/**
 * Up to `wanted` editions that are files (PDF, CSV, XLSX), newest first, and whether more remain.
 * The server also lists the reports shown on screen (format JSON: /rapports' "show", /graphs' four
 * charts on each visit), which are views, not exports (issue #32 D.10): they are left out here,
 * asking further pages (`offset`) until `wanted` files are found, the server has no more, or
 * {@link SCAN_CALLS} calls were made (then `more` stays true and "more" asks again).
 * @throws ApiFailure (Network Error…) from GET exports/list.
 */
export async function listFiles(
  userId: number,
  language: Language,
  wanted: number,
  mine: boolean,
): Promise<{ editions: Edition[]; more: boolean }> {
  const files: Edition[] = [];
  let offset = 0;
  for (let call = 0; call < SCAN_CALLS; call++) {
    const limit = call === 0 ? Math.min(wanted, SCAN_PAGE) : SCAN_PAGE;
    const page = await getJson('exports/list', EditionsAnswerSchema, {
      id: userId,
      language,
      limit,
      offset: offset > 0 ? offset : undefined,
      mine: mine ? 'true' : undefined,
    });
    files.push(...page.editions.filter((e) => e.format !== 'JSON'));
    offset += page.editions.length;
    if (files.length >= wanted)
      return { editions: files.slice(0, wanted), more: files.length > wanted || page.more };
    if (!page.more) return { editions: files, more: false };
  }
  return { editions: files, more: true };
}

export const exportQueries = {
  all: () => ['exports'] as const,
  /**
   * GET exports/list — the files generated (editions) the user may see (only their own with
   * `mine`), newest first, `pages` × {@link EDITIONS_PAGE}: see {@link listFiles}.
   */
  list: (userId: number, language: Language, pages: number, mine = false) =>
    queryOptions({
      queryKey: [...exportQueries.all(), userId, 'list', language, pages, mine] as const,
      queryFn: () => listFiles(userId, language, EDITIONS_PAGE * pages, mine),
      staleTime: 10_000,
    }),
  /** GET exports/status?dateFiscale — one line per site of the user's scope. */
  status: (userId: number, dateFiscale: string) =>
    queryOptions({
      queryKey: [...exportQueries.all(), userId, 'status', dateFiscale] as const,
      queryFn: () => getJson('exports/status', ExportStatusAnswerSchema, { id: userId, dateFiscale }),
      staleTime: 30_000,
    }),
};

/**
 * The format an edition is downloaded again in: its own, except JSON (a screen preview), which
 * comes back as the class's usual document, PDF.
 */
export function downloadFormat(edition: Pick<Edition, 'format'>): Exclude<ReportFormat, 'JSON'> {
  return edition.format === 'JSON' ? 'PDF' : edition.format;
}

/** Downloads edition `edition` again; resolves to the file and its name. */
export function downloadEdition(
  userId: number,
  edition: Pick<Edition, 'id' | 'format'>,
  onProgress: (fraction: number | null) => void,
) {
  return download(
    'exports/download',
    { id: userId, edition: edition.id, format: downloadFormat(edition) },
    onProgress,
  );
}

/**
 * Downloads the user's last report again as a PDF, on today's data and in `language`
 * (GET bo/getResultsData, the mobile form of SPEC.md §7); fails with NoReportInState (409) when
 * the user generated none.
 */
export function downloadLastReport(
  userId: number,
  language: Language,
  onProgress: (fraction: number | null) => void,
) {
  return download('bo/getResultsData', { id: userId, language, format: 'PDF' }, onProgress);
}

/** Downloads every report of `site` for `dateFiscale` as one ZIP, in `language`. */
export function downloadDayArchive(
  userId: number,
  site: number,
  dateFiscale: string,
  language: Language,
  onProgress: (fraction: number | null) => void,
) {
  return download(
    'bo/getAllReportsSpecBK',
    { id: userId, site, dateDebut: dateFiscale, dateFin: dateFiscale, language },
    onProgress,
  );
}

/** `bytes` as a short size in `locale`: `812 B`, `14.2 kB`, `3.1 MB` (decimal units); `–` when unknown. */
export function formatBytes(bytes: number | null, locale: string): string {
  if (bytes === null) return '–';
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/**
 * The period of an edition as shown: `DD/MM/YYYY` for one day, `DD/MM/YYYY – DD/MM/YYYY` for a
 * range, and the dates themselves (comma-separated) for explicit fiscal dates.
 */
export function editionPeriod(edition: Pick<Edition, 'dateDebut' | 'dateFin' | 'fiscalDates'>): string {
  if (edition.fiscalDates && edition.fiscalDates.length > 0)
    return edition.fiscalDates.map(wireToDisplay).join(', ');
  if (edition.dateDebut === edition.dateFin) return wireToDisplay(edition.dateDebut);
  return `${wireToDisplay(edition.dateDebut)} – ${wireToDisplay(edition.dateFin)}`;
}

/** Site names of an edition, the first `max` then `+n` for the others. */
export function editionSites(edition: Pick<Edition, 'sites'>, max = 3): string {
  const names = edition.sites.map((s) => s.libelle);
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} +${names.length - max}`;
}

/**
 * The all-reports archive of bo/getAllReportsSpecBK (SPEC.md §7): one PDF per report class that
 * offers PDF (its Daily variant) for one site and period, in one ZIP, plus a text file
 * (LISEZMOI/README/LIESMICH) listing what was left out and why, so the rest still arrives when a
 * class refuses. Each PDF is recorded as an edition of origin `archive` (editions.ts: listed by
 * exports/list, never the user's report in state).
 *
 * The archive is written while it is sent: {@link openReportArchive} checks the request (its
 * errors come before any byte), then {@link ReportArchive.write} adds the PDFs one by one and
 * stops as soon as the caller has gone away.
 *
 * An archive is complete or refused as a whole, never short of a PDF because the server was busy
 * (decision record 0022): it takes one PDF slot before its first byte — none free: PdfBusyError,
 * answered 503 with Retry-After — and lays out all its PDFs, one after the other, in that slot.
 */
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { daysInclusive, wireToDisplay } from '../../contract/dates.ts';
import type { Language } from '../../contract/reports.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { message } from '../i18n.ts';
import { recordEdition } from './editions.ts';
import { REPORT_CLASSES } from './registry.ts';
import { renderReport, reportFileName } from './render/index.ts';
import { type PdfSlot, takePdfSlot } from './render/pdf-pool.ts';
import {
  checkedPeriod,
  loadReportSites,
  type RawReportInput,
  type ReportSiteCache,
  reportInput,
  resolveReport,
} from './request.ts';
import { renderOptionsFor, reportDataset } from './run.ts';
import type { ReportClass } from './types.ts';

/** Who asks for the archive, and of what. */
export interface ReportArchiveRequest {
  userId: number;
  login: string;
  /** The sites the user may read (SPEC.md §6). */
  scopeSiteIds: readonly number[];
  /** restaurantId of the one site of the archive. */
  siteId: number;
  dateDebut: string;
  dateFin: string;
  language: Language;
}

/** What the archive is built with. */
export interface ReportArchiveContext {
  database: Database;
  /** The GET distribution name, shown on PDFs when the sites' companies have no brand. */
  distribution: string;
  /** The server's report-site cache (app.ts); without it, the sites are read every time. */
  reportSites?: ReportSiteCache;
  /** Told of every class left out because it failed (logged by the caller). */
  onLeftOut: (error: unknown, className: string) => void;
}

/** An archive checked and ready to be written into {@link ReportArchive.stream}. */
export interface ReportArchive {
  /** Translated file name, e.g. `Rapports_3_2026-11-01_2026-11-07.zip`. */
  fileName: string;
  /** The ZIP bytes as they are written. */
  stream: Readable;
  /**
   * Adds every PDF and the text file, then ends the ZIP, and gives the archive's PDF slot back
   * (also when it fails). `stillWanted` is asked before each class: once it says false (the
   * caller closed the page), nothing more is generated for nobody. Call it once.
   */
  write: (stillWanted: () => boolean) => Promise<void>;
}

/** A class left out of the archive, with the translated reason. */
interface LeftOut {
  title: string;
  reason: string;
}

/**
 * Checks an archive request and opens the archive, holding one PDF slot until
 * {@link ReportArchive.write} is done.
 * @throws DomainError of {@link checkedPeriod} (the period against the widest class: 400
 *   MaxReportDays only when it exceeds every class); forbidden (403) Forbidden for a site outside
 *   the scope; PdfBusyError (render/pdf-pool.ts, code ServerBusy) when every PDF slot is taken —
 *   nothing is written then.
 */
export async function openReportArchive(
  request: ReportArchiveRequest,
  context: ReportArchiveContext,
): Promise<ReportArchive> {
  const widest = Math.max(...REPORT_CLASSES.map((c) => c.maxDays));
  const { dateDebut, dateFin } = checkedPeriod(request.dateDebut, request.dateFin, widest);
  if (!request.scopeSiteIds.includes(request.siteId)) {
    throw new DomainError('forbidden', 'Forbidden', `site ${request.siteId} is outside the user's scope`);
  }
  const checked = { ...request, dateDebut, dateFin };
  const siteName =
    (await loadReportSites(context.database, [request.siteId]))[0]?.libelle ?? String(request.siteId);
  // Last, so that nothing between the slot and write() can fail and keep it.
  const slot = takePdfSlot({ manyPdfs: true });
  const zip = new yazl.ZipFile();
  const { language, siteId } = request;
  return {
    fileName: `${message(language, 'exports.archive.filename')}_${siteId}_${dateDebut}_${dateFin}.zip`,
    stream: zip.outputStream as Readable,
    write: async (stillWanted) => {
      try {
        await writeArchive(zip, checked, siteName, { ...context, slot }, stillWanted);
      } finally {
        slot.release();
      }
    },
  };
}

/** What the PDFs of one archive are laid out with: the context and the archive's PDF slot. */
interface ArchiveWork extends ReportArchiveContext {
  slot: PdfSlot;
}

/** Adds each class's PDF (or the reason it is left out), then the text file, and ends `zip`. */
async function writeArchive(
  zip: yazl.ZipFile,
  request: ReportArchiveRequest,
  siteName: string,
  context: ArchiveWork,
  stillWanted: () => boolean,
): Promise<void> {
  const { language } = request;
  const days = daysInclusive(request.dateDebut, request.dateFin);
  const left: LeftOut[] = [];
  const included: string[] = [];
  const used = new Set<string>();
  for (const cls of REPORT_CLASSES) {
    if (!stillWanted()) break;
    const leave = (reasonId: string, values?: Record<string, string | number>) =>
      left.push({
        title: message(language, cls.titleId),
        reason: message(language, `exports.archive.reason.${reasonId}`, values),
      });
    if (!cls.formats.includes('PDF')) leave('notAPdf');
    else if (days > cls.maxDays) leave('MaxReportDays', { maxDays: cls.maxDays });
    else {
      try {
        const name = await addClassPdf(zip, cls, request, context, used);
        if (name === null) leave('empty');
        else included.push(name);
      } catch (error) {
        context.onLeftOut(error, cls.className);
        const refused = error instanceof DomainError;
        leave(refused ? 'refused' : 'error', { code: refused ? error.code : 'InternalError' });
      }
    }
  }
  zip.addBuffer(
    Buffer.from(readmeLines(request, siteName, included, left).join('\r\n'), 'utf8'),
    `${message(language, 'exports.archive.readme.filename')}.txt`,
  );
  zip.end();
}

/**
 * Runs `cls` as a Daily PDF for the archive's site and period, adds it to `zip` under the name
 * bo/getReport gives it (made unique with `_2`, `_3`… against `used`) and records the edition.
 * @returns the file name, or null when the class has nothing to report (left out as empty); a
 *   period whose detail was purged is reported (its PDF carries the purge notice).
 * @throws DomainError of request.ts, run.ts and shaping.ts when the class refuses the request;
 *   any error of the renderer.
 */
async function addClassPdf(
  zip: yazl.ZipFile,
  cls: ReportClass,
  request: ReportArchiveRequest,
  context: ArchiveWork,
  used: Set<string>,
): Promise<string | null> {
  const { database, distribution } = context;
  const input: RawReportInput = reportInput({
    rapportClassName: cls.className,
    typeRapport: cls.variants.includes('Daily') ? 'Daily' : cls.variants[0]!,
    format: 'PDF',
    language: request.language,
    dateDebut: request.dateDebut,
    dateFin: request.dateFin,
    sites: [request.siteId],
  });
  const report = await resolveReport(input, request.scopeSiteIds, database, { sites: context.reportSites });
  const dataset = await reportDataset(report, database);
  // Purged days are not "nothing to report": the PDF says they were archived, with the kept
  // totals, as bo/getReport answers it (decision 0040).
  if (dataset.rows.length === 0 && !dataset.archived) return null;
  const body = await renderReport(dataset, 'PDF', renderOptionsFor(report, distribution), context.slot);
  if (body.kind !== 'buffer') throw new Error('a PDF renders to a buffer');
  let name = reportFileName(cls.fileNameId, dataset, request.language, 'PDF');
  for (let n = 2; used.has(name); n++) name = name.replace(/(_\d+)?\.pdf$/, `_${n}.pdf`);
  used.add(name);
  zip.addBuffer(body.data, name, { mtime: report.request.generatedAt });
  await recordEdition(database.pool, {
    userId: request.userId,
    login: request.login,
    report,
    input,
    status: 'OK',
    bytes: body.data.length,
    rows: dataset.rows.length,
    origin: 'archive',
  });
  return name;
}

/** The lines of the archive's text file: the site and period, the files included, those left out. */
function readmeLines(
  request: ReportArchiveRequest,
  siteName: string,
  included: readonly string[],
  left: readonly LeftOut[],
): string[] {
  const { language } = request;
  return [
    message(language, 'exports.archive.readme.title', {
      site: siteName,
      dateDebut: wireToDisplay(request.dateDebut),
      dateFin: wireToDisplay(request.dateFin),
    }),
    '',
    message(language, 'exports.archive.readme.included', { count: included.length }),
    ...included.map((n) => `  - ${n}`),
    '',
    message(language, 'exports.archive.readme.left', { count: left.length }),
    ...left.map((l) => `  - ${l.title}: ${l.reason}`),
    '',
  ];
}

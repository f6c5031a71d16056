/**
 * One entry to the renderers: a dataset in the requested format, with the answer's content
 * type and the download's file name (`ventes_2026-11-01_2026-11-21.pdf`, base name translated).
 */
import type { Readable } from 'node:stream';
import type { Dataset, Language, ReportFormat } from '../../../contract/reports.ts';
import { message } from '../../i18n.ts';
import type { RenderOptions } from './cells.ts';
import { renderCsv } from './csv.ts';
import { type PdfSlot, renderPdfInWorker } from './pdf-pool.ts';
import { isStreamed, materialise } from './streamed.ts';

/** MIME type of each format. CSV says its charset (UTF-8, with BOM). */
export const CONTENT_TYPES: Record<ReportFormat, string> = {
  PDF: 'application/pdf',
  CSV: 'text/csv; charset=utf-8',
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  JSON: 'application/json; charset=utf-8',
};

const EXTENSIONS: Record<ReportFormat, string> = { PDF: 'pdf', CSV: 'csv', XLSX: 'xlsx', JSON: 'json' };

/**
 * A rendered report: a buffer (length known), a stream (CSV; XLSX of a streamed dataset), or
 * the dataset itself (JSON).
 */
export type RenderedBody =
  | { kind: 'buffer'; data: Buffer }
  | { kind: 'stream'; data: Readable }
  | { kind: 'dataset'; data: Dataset };

/**
 * Renders `dataset` as `format`. A streamed dataset (run.ts, render/streamed.ts) is written as
 * its rows are read for CSV and XLSX, and read whole first for PDF and JSON. A PDF runs in
 * `pdfSlot` when the caller took one (pdf-pool.ts takePdfSlot), else takes its own.
 * @throws PdfBusyError (pdf-pool.ts) for a PDF when no slot was given and none is free.
 */
export async function renderReport(
  dataset: Dataset,
  format: ReportFormat,
  options: RenderOptions,
  pdfSlot?: PdfSlot,
): Promise<RenderedBody> {
  switch (format) {
    case 'PDF':
      return { kind: 'buffer', data: await renderPdfInWorker(await materialise(dataset), options, pdfSlot) };
    case 'XLSX': {
      // exceljs is loaded on the first workbook: tens of MB a server that never makes one need not hold.
      const { renderXlsx, renderXlsxStream } = await import('./xlsx.ts');
      return isStreamed(dataset)
        ? { kind: 'stream', data: renderXlsxStream(dataset, options) }
        : { kind: 'buffer', data: await renderXlsx(dataset, options) };
    }
    case 'CSV':
      return { kind: 'stream', data: renderCsv(dataset, options.language) };
    case 'JSON':
      return { kind: 'dataset', data: await materialise(dataset) };
  }
}

/**
 * The download's file name: `<base>_<dateDebut>_<dateFin>.<ext>`, where the base is the
 * class's `fileNameId` message in `language` (e.g. `ventes`, `sales`, `umsatz`).
 */
export function reportFileName(
  fileNameId: string,
  dataset: Pick<Dataset, 'dateDebut' | 'dateFin'>,
  language: Language,
  format: ReportFormat,
): string {
  return `${message(language, fileNameId)}_${dataset.dateDebut}_${dataset.dateFin}.${EXTENSIONS[format]}`;
}

/** `Content-Disposition` value for `fileName`, with an RFC 5987 `filename*` when it is not plain ASCII. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replaceAll('"', '');
  return ascii === fileName
    ? `attachment; filename="${fileName}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

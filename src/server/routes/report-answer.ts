/**
 * How a report is answered over HTTP, for every call that produces one (bo/getReport and its
 * variants, bo/getResultsData, exports/download): the report is resolved, run and rendered by
 * the domain (reports/), then sent with `Content-Type`, `Content-Disposition: attachment;
 * filename="…"` (translated base name), and `Content-Length` for buffered formats (PDF, XLSX,
 * JSON) so the client can show progress; large CSV and XLSX stream. When asked, the answer is recorded as an
 * edition (reports/editions.ts) with its outcome and size.
 *
 * Empty reports (SPEC.md §8 CheckReportParam): JSON answers the empty dataset (200, no rows; the
 * screen says there is nothing to show and keeps the parameters in view), while a PDF, CSV or
 * XLSX of an empty report answers 400 CheckReportParam instead of a blank document — a manager
 * who downloads a file expects figures, and a blank file would look like a fault.
 *
 * PDFs are bounded (decision record 0022): a PDF takes one of the pool's slots
 * (render/pdf-pool.ts) before its dataset is read; when none is free it answers at once 503
 * `ServerBusy` with `Retry-After` (seconds, also in `details.retryAfterSeconds`), runs nothing and
 * records no edition.
 */
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply } from 'fastify';
import type { ApiError } from '../../contract/errors.ts';
import { z } from 'zod';
import { type Dataset, DatasetSchema, type ReportFormat } from '../../contract/reports.ts';
import type { Session } from '../auth/session.ts';
import type { Database } from '../db/connect.ts';
import { inBackground, type QueuedEdition, queueEdition, setEditionBytes } from '../reports/editions.ts';
import {
  CONTENT_TYPES,
  contentDisposition,
  type RenderedBody,
  renderReport,
  reportFileName,
} from '../reports/render/index.ts';
import { PdfBusyError, type PdfSlot, takePdfSlot } from '../reports/render/pdf-pool.ts';
import { datasetJsonBytes } from '../reports/render/json.ts';
import { isStreamed } from '../reports/render/streamed.ts';
import {
  type RawReportInput,
  type ReportSiteCache,
  type ResolvedReport,
  resolveReport,
} from '../reports/request.ts';
import { renderOptionsFor, reportDataset } from '../reports/run.ts';
import { ApiHttpError } from '../plugins/error-handler.ts';
import { requireOneSiteWhenLimited } from '../auth/site-limit.ts';

/** One cell of a report row: text, a number (money in integer cents, see `columns[].type`) or null. */
const WireCellSchema = z.union([z.string(), z.number(), z.null()]);

/**
 * The JSON answer of every report call with `format=JSON` as it travels (decision record 0012):
 * the dataset with each row an array of its cells in the order of `columns`; `money` cells are
 * integer cents, `percent` a fraction, `date` a wire date. Documentation of the answer: the JSON
 * is written as bytes (render/json.ts), so no serializer reads this schema.
 */
export const DatasetWireSchema = DatasetSchema.extend({
  rows: z
    .array(z.array(WireCellSchema))
    .describe('one array per row, its cells in the order of columns; money in integer cents'),
  totals: z.record(z.string(), WireCellSchema).describe('totals keyed by column key; money in integer cents'),
});

/** What every report call answers with. */
export interface ReportAnswerContext {
  database: Database;
  /** The GET distribution name, shown on PDFs when the sites' companies have no brand. */
  distribution: string;
  /** The server's report-site cache (app.ts, db/changes.ts). */
  reportSites?: ReportSiteCache;
}

/**
 * Queues the edition with an outcome and size (bytes); resolves once queued (at once unless the
 * queue is full: the answer then waits for room), with the promise of its id (null when not recorded).
 */
type SaveEdition = (status: 'OK' | 'EMPTY' | 'FAILED', bytes: number | null) => Promise<QueuedEdition>;

/**
 * Runs `input` for `session` and sends it; records the edition when `record` (bo/getReport,
 * exports/download).
 * A PDF answers 503 ServerBusy with Retry-After when every PDF slot is taken (see the module comment).
 * @throws DomainError of reports/request.ts, run.ts and shaping.ts; ApiHttpError 400
 *   CheckReportParam for an empty document; 500 errorPdf when a PDF cannot be laid out.
 */
export async function sendReport(
  reply: FastifyReply,
  context: ReportAnswerContext,
  session: Session,
  input: RawReportInput,
  record: boolean,
): Promise<FastifyReply> {
  requireOneSiteWhenLimited(session, input.sites);
  const report = await resolveReport(input, session.siteIds, context.database, {
    sites: context.reportSites,
  });
  if (input.format !== 'PDF') return answerReport(reply, context, session, report, input, record);
  let slot: PdfSlot;
  try {
    slot = takePdfSlot();
  } catch (error) {
    if (error instanceof PdfBusyError) return answerBusy(reply, error);
    throw error;
  }
  try {
    return await answerReport(reply, context, session, report, input, record, slot);
  } finally {
    slot.release();
  }
}

/**
 * 503 `ServerBusy` in SPEC.md §8's shape with `Retry-After`, sent here rather than thrown: a
 * refusal under load is the designed answer, not a failure for the error log.
 */
export function answerBusy(reply: FastifyReply, error: PdfBusyError): FastifyReply {
  const body: ApiError = { code: error.code, message: error.message, details: { ...error.details } };
  return reply.code(503).header('retry-after', String(error.retryAfterSeconds)).send(body);
}

/**
 * Runs the resolved `report` and sends it (see {@link sendReport}); a PDF is laid out in `pdfSlot`.
 * @throws as {@link sendReport}.
 */
async function answerReport(
  reply: FastifyReply,
  context: ReportAnswerContext,
  session: Session,
  report: ResolvedReport,
  input: RawReportInput,
  record: boolean,
  pdfSlot?: PdfSlot,
): Promise<FastifyReply> {
  const { database } = context;
  const dataset = await reportDataset(report, database);
  const save = record ? editionSaver(reply, database, session, report, input, dataset) : notRecorded;
  // A report over a purged period is a document even with no rows left: it says where the
  // detail was archived and the totals kept (issue #30, decision 0040).
  if (dataset.rows.length === 0 && !dataset.archived && input.format !== 'JSON') {
    await save('EMPTY', null);
    throw new ApiHttpError(400, 'CheckReportParam', 'the report is empty: check its parameters');
  }
  const body = await rendered(reply, report, dataset, input.format, context.distribution, save, pdfSlot);
  const fileName = reportFileName(report.cls.fileNameId, dataset, input.language, input.format);
  reply.header('Content-Type', CONTENT_TYPES[input.format]);
  reply.header('Content-Disposition', contentDisposition(fileName));
  switch (body.kind) {
    case 'buffer':
      await save('OK', body.data.length);
      reply.header('Content-Length', body.data.length);
      return reply.send(body.data);
    case 'stream':
      return sendCounted(reply, database, body.data, (await save('OK', null)).written);
    case 'dataset': {
      // Encoded to UTF-8 once, here: sent as a string, the text would be encoded again on its
      // way out (onSend).
      const json = datasetJsonBytes(body.data);
      // An empty dataset is answered (the screen says so) but recorded as EMPTY, like a document.
      await save(dataset.rows.length === 0 ? 'EMPTY' : 'OK', json.length);
      reply.header('Content-Length', json.length);
      return reply.send(json);
    }
  }
}

/** The {@link SaveEdition} of a call that records nothing (bo/getResultsData). */
const notRecorded: SaveEdition = () => Promise.resolve({ written: Promise.resolve(null) });

/**
 * Queues the edition of `report` (editions.ts queueEdition): written in a batch once the answer
 * has gone out; later readers wait for it.
 */
function editionSaver(
  reply: FastifyReply,
  database: Database,
  session: Session,
  report: ResolvedReport,
  input: RawReportInput,
  dataset: Dataset,
): SaveEdition {
  // A streamed dataset (large CSV/XLSX, render/streamed.ts) holds only its first rows so far.
  const rows = isStreamed(dataset) ? null : dataset.rows.length;
  return (status, bytes) =>
    queueEdition(
      database.pool,
      { userId: session.userId, login: session.login, report, input, status, bytes, rows },
      (err, lost) => reply.log.error({ err, lost }, 'report editions not recorded'),
    );
}

/**
 * `dataset` rendered in the request's format; a failure is recorded as FAILED.
 * @throws ApiHttpError 500 errorPdf when a PDF cannot be laid out; other formats' errors as thrown.
 */
async function rendered(
  reply: FastifyReply,
  report: ResolvedReport,
  dataset: Dataset,
  format: ReportFormat,
  distribution: string,
  save: SaveEdition,
  pdfSlot?: PdfSlot,
): Promise<RenderedBody> {
  try {
    return await renderReport(dataset, format, renderOptionsFor(report, distribution), pdfSlot);
  } catch (error) {
    await save('FAILED', null);
    if (format === 'PDF') {
      reply.log.error({ err: error }, 'PDF rendering failed');
      throw new ApiHttpError(500, 'errorPdf', 'the PDF could not be created');
    }
    throw error;
  }
}

/**
 * Sends a streamed document and, once it is all sent, stores its size on the edition that
 * `edition` resolves to (when recorded).
 */
function sendCounted(
  reply: FastifyReply,
  database: Database,
  data: Readable,
  edition: Promise<number | null>,
): FastifyReply {
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  // pipeline, not pipe: a connection closed halfway destroys the renderer's stream too, so
  // a class reading a cursor gives its database connection back (render/streamed.ts).
  pipeline(data, counted)
    .then(() =>
      inBackground(
        async () => {
          const id = await edition;
          if (id !== null) await setEditionBytes(database.pool, id, bytes);
        },
        (err) => reply.log.error({ err }, 'report size not recorded'),
      ),
    )
    .catch((err: unknown) => {
      if (!reply.raw.destroyed) reply.log.error({ err }, 'report stream failed');
    });
  return reply.send(counted);
}

/**
 * PDFs are rendered off the event loop, in a small pool of worker threads (piscina), started on
 * the first PDF and shrunk to nothing after five minutes without one. Guarantees (decision record
 * 0022):
 * - the API keeps answering while a PDF is laid out; at most {@link PDF_THREADS} PDFs are laid out
 *   at once;
 * - at most {@link PDF_MAX_IN_FLIGHT} PDFs are under way at once (being read, waiting or laid out):
 *   a PDF over that takes no slot ({@link takePdfSlot} throws {@link PdfBusyError}, which the report
 *   routes answer 503 `ServerBusy` with `Retry-After`), so nothing queues without limit — neither
 *   the pool's tasks nor the datasets read whole for them.
 */
import os from 'node:os';
import Piscina from 'piscina';
import type { Dataset } from '../../../contract/reports.ts';
import { DomainError } from '../../errors.ts';
import { isLandscape, type RenderOptions } from './cells.ts';
import { chartSvgFor, closeChartPool } from './chart.ts';

/** PDFs laid out at once: the worker threads; a core is left to the API and PostgreSQL. */
export const PDF_THREADS = Math.max(1, Math.min(2, os.availableParallelism() - 1));

/**
 * PDFs that may wait for a thread: two rounds of the threads plus two, so a thread never idles
 * between tasks while the wait of the last one admitted stays a few layouts long (decision 0022).
 */
export const PDF_QUEUE_LIMIT = 2 * PDF_THREADS + 2;

/** PDFs under way at once, from their dataset's reading to their last byte laid out. */
export const PDF_MAX_IN_FLIGHT = PDF_THREADS + PDF_QUEUE_LIMIT;

/** Bounds of the `Retry-After` a refused PDF is answered with, in seconds. */
const RETRY_AFTER_SECONDS = { min: 1, max: 30 } as const;

let pool: Piscina | null = null;
let inFlight = 0;
/** Moving mean of how long a slot is held (ms): the basis of `Retry-After`; a guess before the first. */
let meanHoldMs = 1000;

function pdfPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./pdf-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: PDF_THREADS,
    // The slots keep the queue within PDF_QUEUE_LIMIT; piscina's own limit is a second fence, set
    // at every slot so that it is never reached (not even while a crashed worker is replaced).
    maxQueue: PDF_MAX_IN_FLIGHT,
    // Starting a worker loads pdfmake and its fonts (about a second): keep it for a while.
    idleTimeout: 5 * 60_000,
    // Between tasks the thread waits on its event loop, not parked in Atomics.wait (piscina's
    // default), so V8 can shrink its heap once the layouts stop: 54–59 MB of heap kept by an idle
    // thread, 30 MB this way (decision record 0025). A message per task costs nothing beside a layout.
    atomics: 'disabled',
    // Laying out is memory-hungry (in proportion to the rows): a worker gets a
    // limit of its own, above what the largest PDF run.ts lets through needs (MAX_ROWS_READ_WHOLE
    // .PDF rows), so a runaway layout fails that one PDF (errorPdf) instead of the server.
    resourceLimits: { maxOldGenerationSizeMb: 1536, maxYoungGenerationSizeMb: 48 },
  });
  return pool;
}

/**
 * No PDF slot is free: every one of the {@link PDF_MAX_IN_FLIGHT} is taken. Code `ServerBusy`
 * (src/contract/errors.ts); `details.retryAfterSeconds` is when to try again. Its kind is
 * `internal` for want of an "unavailable" kind: the report routes answer it 503 themselves
 * (routes/report-answer.ts), the all-reports archive lists the class as refused.
 */
export class PdfBusyError extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super('internal', 'ServerBusy', 'every PDF slot is taken: try again later', { retryAfterSeconds });
    this.name = 'PdfBusyError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A PDF's place among the {@link PDF_MAX_IN_FLIGHT}; give it back once, when the PDF is done or failed. */
export interface PdfSlot {
  release(): void;
}

/**
 * Takes one of the {@link PDF_MAX_IN_FLIGHT} slots, before the dataset is read, so a refused PDF
 * costs no query and no memory. `options.manyPdfs`: the slot is held for several PDFs laid out one
 * after the other (the all-reports archive, reports/archive.ts); its time is not one PDF's and
 * stays out of the mean behind `Retry-After`.
 * @throws PdfBusyError when every slot is taken.
 */
export function takePdfSlot(options: { manyPdfs?: boolean } = {}): PdfSlot {
  if (inFlight >= PDF_MAX_IN_FLIGHT) throw new PdfBusyError(retryAfterSeconds());
  inFlight++;
  const since = performance.now();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      inFlight--;
      if (!options.manyPdfs) meanHoldMs = 0.8 * meanHoldMs + 0.2 * (performance.now() - since);
    },
  };
}

/** Seconds until the PDFs under way are likely done, each thread taking its share, within bounds. */
function retryAfterSeconds(): number {
  const seconds = Math.ceil((inFlight * meanHoldMs) / PDF_THREADS / 1000);
  return Math.min(RETRY_AFTER_SECONDS.max, Math.max(RETRY_AFTER_SECONDS.min, seconds));
}

/** What the pool holds now (for tests and the bench): PDFs under way, and tasks waiting for a thread. */
export function pdfPoolState(): { inFlight: number; queued: number } {
  return { inFlight, queued: pool?.queueSize ?? 0 };
}

/**
 * Renders `dataset` as a PDF in a worker thread (same output as pdf.ts's renderPdf); a Graph
 * dataset's chart is drawn first by the chart worker (render/chart.ts). Runs in `slot` when the
 * caller took one before reading the dataset (routes/report-answer.ts), else takes its own.
 * @throws PdfBusyError when no slot was given and none is free; the workers' errors.
 */
export async function renderPdfInWorker(
  dataset: Dataset,
  options: RenderOptions,
  slot?: PdfSlot,
): Promise<Buffer> {
  const own = slot ? null : takePdfSlot();
  try {
    const chartSvg = await chartSvgFor(dataset, options.language, isLandscape(dataset));
    const bytes: Uint8Array = await pdfPool().run({ dataset, options, chartSvg });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } finally {
    own?.release();
  }
}

/** Stops the worker threads, the chart's too (the app's onClose); a later PDF starts a new pool. */
export async function closePdfPool(): Promise<void> {
  const p = pool;
  pool = null;
  await Promise.all([p?.destroy(), closeChartPool()]);
}

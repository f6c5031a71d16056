/**
 * PDFs are rendered off the event loop, in a small pool of worker threads (piscina), started on
 * the first PDF and shrunk to nothing after five minutes without one. Guarantees: the API keeps
 * answering while a PDF is laid out; at most `maxThreads` PDFs are laid out at once, the others
 * wait in the pool's queue.
 */
import os from 'node:os';
import Piscina from 'piscina';
import type { Dataset } from '../../../contract/reports.ts';
import { isLandscape, type RenderOptions } from './cells.ts';
import { chartSvgFor, closeChartPool } from './chart.ts';

let pool: Piscina | null = null;

function pdfPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./pdf-worker.ts', import.meta.url).href,
    minThreads: 0,
    // Leave a core to the API and PostgreSQL.
    maxThreads: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
    // Starting a worker loads pdfmake and its fonts (about a second): keep it for a while.
    idleTimeout: 5 * 60_000,
    // Laying out is memory-hungry (in proportion to the rows): a worker gets a
    // limit of its own, above what the largest PDF run.ts lets through needs (MAX_ROWS_READ_WHOLE
    // .PDF rows), so a runaway layout fails that one PDF (errorPdf) instead of the server.
    resourceLimits: { maxOldGenerationSizeMb: 1536, maxYoungGenerationSizeMb: 48 },
  });
  return pool;
}

/**
 * Renders `dataset` as a PDF in a worker thread (same output as pdf.ts's renderPdf); a Graph
 * dataset's chart is drawn first by the chart worker (render/chart.ts).
 */
export async function renderPdfInWorker(dataset: Dataset, options: RenderOptions): Promise<Buffer> {
  const chartSvg = await chartSvgFor(dataset, options.language, isLandscape(dataset));
  const bytes: Uint8Array = await pdfPool().run({ dataset, options, chartSvg });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Stops the worker threads, the chart's too (the app's onClose); a later PDF starts a new pool. */
export async function closePdfPool(): Promise<void> {
  const p = pool;
  pool = null;
  await Promise.all([p?.destroy(), closeChartPool()]);
}

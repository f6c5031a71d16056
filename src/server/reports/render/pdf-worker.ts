/**
 * Worker-thread entry of the PDF renderer (run by piscina from pdf-pool.ts): pdfmake lays a
 * document out synchronously, seconds for a year of a chain, which must not stall the API's
 * event loop (DESIGN.md §5: a long report never blocks another user's request).
 */
import Piscina from 'piscina';
import type { Dataset } from '../../../contract/reports.ts';
import type { RenderOptions } from './cells.ts';
import { renderPdf } from './pdf.ts';

/**
 * Renders one PDF. Its bytes are copied once into an array of their own, then moved (not cloned)
 * to the caller: Node's pooled Buffer memory cannot be transferred.
 */
export default async function renderPdfTask(task: {
  dataset: Dataset;
  options: RenderOptions;
  /** The Graph variant's chart, drawn beforehand (render/chart.ts), or null. */
  chartSvg: string | null;
}) {
  const pdf = await renderPdf(task.dataset, task.options, true, task.chartSvg);
  return Piscina.move(new Uint8Array(pdf));
}

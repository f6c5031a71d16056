/**
 * The Graph variant's chart as SVG for the PDF (issue #4: "the Graph variant puts a chart in
 * the PDF and on screen"), drawn by recharts in a worker thread (chart-worker.ts says why a
 * worker), one at a time, the worker kept for a while between charts (loading React, recharts
 * and a DOM takes about a second).
 */
import Piscina from 'piscina';
import type { Dataset, Language } from '../../../contract/reports.ts';
import { reportChart } from '../../../contract/report-chart.ts';
import type { ChartTask } from './chart-worker.ts';

/** Size of the chart on an A4 page, in points (the page's width between margins). */
export const CHART_SIZE = {
  portrait: { width: 523, height: 220 },
  landscape: { width: 770, height: 220 },
} as const;

let pool: Piscina | null = null;

function chartPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./chart-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 5 * 60_000,
  });
  return pool;
}

/**
 * The SVG of `dataset`'s chart when its variant is Graph and it has something to draw, else null.
 * @param landscape whether the page is landscape (the chart spans the page's width).
 * @throws Error of chart-worker.ts when recharts cannot draw it.
 */
export async function chartSvgFor(
  dataset: Dataset,
  language: Language,
  landscape: boolean,
): Promise<string | null> {
  if (dataset.variant !== 'Graph') return null;
  const chart = reportChart(dataset);
  if (!chart) return null;
  const task: ChartTask = {
    chart,
    language,
    currency: dataset.currency,
    ...(landscape ? CHART_SIZE.landscape : CHART_SIZE.portrait),
  };
  return (await chartPool().run(task)) as string;
}

/** Stops the chart worker (the app's onClose, with the PDF pool); a later chart starts a new one. */
export async function closeChartPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}

/**
 * Worker-thread entry that draws a Graph variant's chart (src/contract/report-chart.ts) as an SVG
 * string with recharts, the chart library of the screens, for the PDF (render/chart.ts).
 *
 * Why a worker with a DOM: recharts 3 draws nothing under react-dom/server's static rendering
 * (its layout is computed in effects, which static rendering never runs; recharts issue #5997),
 * so the chart is mounted with react-dom/client into a happy-dom document and read back once
 * drawn. The DOM globals this needs are installed in this worker thread only: the API's own
 * thread never sees a `window`.
 */
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { Window } from 'happy-dom';
import type { Language } from '../../../contract/reports.ts';
import type { ReportChart } from '../../../contract/report-chart.ts';

const win = new Window({ width: 1200, height: 900 });
for (const name of [
  'window',
  'document',
  'navigator',
  'HTMLElement',
  'Element',
  'Node',
  'SVGElement',
  'getComputedStyle',
]) {
  // defineProperty: Node's own `navigator` is a getter-only global.
  Object.defineProperty(globalThis, name, {
    value: (win as unknown as Record<string, unknown>)[name],
    configurable: true,
    writable: true,
  });
}
// recharts reads these through `window` once the globals above exist.
const { Bar, BarChart, CartesianGrid, Line, LineChart, XAxis, YAxis } = await import('recharts');

const LOCALES: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB', de: 'de-DE' };

/** A chart to draw, with what its axes need to read in the document's language. */
export interface ChartTask {
  chart: ReportChart;
  language: Language;
  currency: string;
  /** Size of the drawing in PDF points. */
  width: number;
  height: number;
}

/** `YYYY-MM-DD` → `DD/MM` (the year is in the document's period). */
const dayMonth = (wire: string) => `${wire.slice(8, 10)}/${wire.slice(5, 7)}`;

/** Category labels longer than this are cut with an ellipsis under the bars. */
const LABEL_CHARS = 14;

/**
 * Draws `task.chart` and answers its SVG markup (texts as `<text>`, so the PDF keeps them as
 * text). Ticks of money read in currency units without decimals (`1 234 €`).
 * @throws Error when recharts has not drawn the series within a second.
 */
export default async function drawChart(task: ChartTask): Promise<string> {
  const { chart, language, currency, width, height } = task;
  const locale = LOCALES[language];
  const amount =
    chart.yType === 'money'
      ? new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 })
      : new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const yTick = (v: number) =>
    amount.format(chart.yType === 'money' ? v / 100 : v).replaceAll('\u202f', '\u00a0');
  const xTick = (v: string) =>
    chart.xType === 'date' ? dayMonth(v) : v.length > LABEL_CHARS ? `${v.slice(0, LABEL_CHARS - 1)}…` : v;
  const common = { width, height, data: chart.points, margin: { top: 8, right: 16, bottom: 24, left: 16 } };
  const axes = [
    h(CartesianGrid, { key: 'grid', stroke: '#dddddd', vertical: false }),
    h(XAxis, {
      key: 'x',
      dataKey: 'x',
      tickFormatter: xTick,
      tick: { fontSize: 9, fill: '#333333' },
      interval: chart.kind === 'line' ? 'preserveStartEnd' : 0,
      minTickGap: 8,
      label: { value: chart.xLabel, position: 'insideBottom', offset: -16, fontSize: 9, fill: '#555555' },
    }),
    h(YAxis, {
      key: 'y',
      tickFormatter: yTick,
      tick: { fontSize: 9, fill: '#333333' },
      width: 72,
      label: {
        value: chart.yLabel,
        angle: -90,
        position: 'insideLeft',
        offset: 0,
        fontSize: 9,
        fill: '#555555',
        dy: 40,
      },
    }),
  ];
  const element =
    chart.kind === 'line'
      ? h(
          LineChart,
          common,
          ...axes,
          h(Line, {
            key: 's',
            dataKey: 'y',
            stroke: '#1f5fa8',
            strokeWidth: 1.5,
            dot: chart.points.length <= 31,
            isAnimationActive: false,
          }),
        )
      : h(
          BarChart,
          common,
          ...axes,
          h(Bar, { key: 's', dataKey: 'y', fill: '#1f5fa8', isAnimationActive: false }),
        );

  const container = win.document.createElement('div');
  win.document.body.appendChild(container);
  const root = createRoot(container as unknown as globalThis.Element);
  try {
    root.render(element);
    const drawn = () =>
      container.querySelector('.recharts-line-curve, .recharts-bar-rectangle, .recharts-bar-rectangles');
    for (let i = 0; i < 200 && !drawn(); i++) await new Promise((r) => setTimeout(r, 5));
    if (!drawn()) throw new Error('the chart was not drawn');
    // One more turn, for the axes' last layout pass.
    await new Promise((r) => setTimeout(r, 5));
    const svg = container.querySelector('svg');
    if (!svg) throw new Error('the chart has no SVG');
    svg.removeAttribute('style');
    svg.removeAttribute('role');
    svg.removeAttribute('tabindex');
    return svg.outerHTML;
  } finally {
    root.unmount();
    container.remove();
  }
}

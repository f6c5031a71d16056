/**
 * Benchmark of issue #4 point 8 (PDF): pages per second of our PDF renderer (pdfmake, in its
 * worker pool, as bo/getReport runs it) against headless Chromium printing the same table as
 * HTML — the usual way back-offices make PDFs — on the same dataset, in the same run, so the
 * ratio does not depend on the machine's speed or load. Never a timed assertion.
 *
 * The dataset is a synthetic tickets report (RapportTickets' ten columns: fiscal date, time, site
 * number and name, terminal, seller, ticket number, kind, amount, payment methods) of 5,000 and
 * 20,000 rows. The HTML gives Chromium the same document: Roboto (pdfmake's own files, embedded
 * as a data URL), 9 pt, A4 landscape, the same margins, title, chain, sites, period, currency and
 * generated-at on top, the table header repeated on every page (`thead`), the same light rule
 * every five rows, the totals row, and "Page x / y" at the bottom.
 *
 * Fairness and stability: both engines get the same warm-up (the same two documents, in turn),
 * then each size is rendered several times by both, each repetition a new edition of the
 * dataset (other ticket numbers and amounts, see {@link ticketsDataset}) given to both, the
 * engine going first alternating from one repetition to the next. The figures are medians with
 * their spread (min–max); the ratio is that of the median pages per second, and the ratios of
 * each repetition's pair (both engines measured back to back, under the same load) are given
 * with their median and spread. The CPU time of the whole job (this process, its PDF worker, and
 * Chromium's processes) is measured too, and pages per CPU second compared: on a machine shared
 * with other jobs it moves far less than elapsed time, and the spreads say how far to trust a run.
 *
 * Pages are counted in each output (the `/Type /Page` objects: enough to count, not a parser).
 * Page densities differ a little (each engine lays out its own way), so rows per second are
 * reported too; the target is on pages per second (ours at least twice Chromium's).
 *
 * Run alone with `npx node bench/pdf.ts` (PDF_BENCH_REPS=n sets the repetitions of every size);
 * `npm run bench` calls {@link benchPdf}.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import type { Dataset } from '../src/contract/reports.ts';
import { closePdfPool, renderPdfInWorker } from '../src/server/reports/render/pdf-pool.ts';
import { FR_RENDER_OPTIONS as OPTIONS, ticketsReport } from '../tests/helpers/report-datasets.ts';

/** Row counts measured (both engines, each) and how many times each is rendered by each engine. */
const SIZES: PdfBenchPlan[] = [
  { rows: 5_000, repetitions: 5 },
  { rows: 20_000, repetitions: 3 },
];
/** Rows of the warm-up documents (not measured), rendered once by each engine in turn. */
const WARM_UP_ROWS = [200, 2_000];
/** Pause after each timed document, in milliseconds (not timed). */
const SETTLE_MS = 500;
/** Chromium of the machine (Debian's package); CHROME_PATH overrides. */
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const SITES = [
  'Comptoir Bastille',
  'Comptoir Part-Dieu',
  'Comptoir Vieux-Port',
  'Comptoir Capitole',
  'Comptoir Opéra',
  'Comptoir Gare',
];
const PAYMENTS = [
  'Carte bancaire',
  'Espèces',
  'Carte bancaire, Titre-restaurant',
  'Espèces, Carte bancaire',
  'Titre-restaurant',
];

/**
 * A tickets dataset of `rows` rows (deterministic: the same for both engines and every run).
 * Each `edition` has other ticket numbers and amounts (the same dates, sites, sellers, kinds),
 * as the next report of a back-office would: each repetition renders a new edition, so neither
 * engine is timed on texts it has just laid out (both keep caches of shaped text). The report
 * around the rows is the renderer tests' own ({@link ticketsReport}).
 */
export function ticketsDataset(rows: number, edition = 0): Dataset {
  const data = Array.from({ length: rows }, (_, i) => {
    const site = i % SITES.length;
    return {
      fiscalDate: `2026-10-${String(1 + Math.floor((i / rows) * 31)).padStart(2, '0')}`,
      time: `${String(8 + (i % 15)).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}`,
      siteId: site + 1,
      site: SITES[site]!,
      terminalId: 1 + (i % 3),
      sellerCode: `V${String(1 + (i % 8)).padStart(3, '0')}`,
      ticketNumber: String(100_000 + edition * rows + i),
      kind: i % 40 === 0 ? 'Annulation' : i % 97 === 0 ? 'Retour' : 'Vente',
      amount: 350 + (((i + 7 * edition) * 7919) % 9000),
      payments: PAYMENTS[i % PAYMENTS.length]!,
    };
  });
  return ticketsReport(data, SITES, '2026-10-31');
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const money = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const frDate = (wire: string) => wire.split('-').reverse().join('/');

/** The same document as HTML, the way a back-office would print it through Chromium. */
function ticketsHtml(dataset: Dataset, robotoDataUrl: string): string {
  const numeric = new Set(['siteId', 'terminalId', 'amount']);
  const cell = (key: string, value: string | number | null | undefined) => {
    if (value === null || value === undefined) return '';
    if (key === 'amount') return money.format(Number(value) / 100);
    if (key === 'fiscalDate') return frDate(String(value));
    return escapeHtml(String(value));
  };
  const head = dataset.columns
    .map((c) => `<th${numeric.has(c.key) ? ' class="n"' : ''}>${escapeHtml(c.label)}</th>`)
    .join('');
  const body = dataset.rows
    .map(
      (row, i) =>
        `<tr${i % 5 === 4 ? ' class="r"' : ''}>${dataset.columns
          .map((c) => `<td${numeric.has(c.key) ? ' class="n"' : ''}>${cell(c.key, row[c.key])}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  const totals = dataset.columns
    .map((c, i) =>
      i === 0
        ? '<td>Total</td>'
        : `<td${numeric.has(c.key) ? ' class="n"' : ''}>${cell(c.key, dataset.totals[c.key])}</td>`,
    )
    .join('');
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><style>
@font-face { font-family: Roboto; src: url(${robotoDataUrl}) format('truetype'); }
body { font-family: Roboto, sans-serif; font-size: 9pt; margin: 0; }
h1 { font-size: 16pt; margin: 0 0 6pt; }
p { margin: 0; } .muted { font-size: 8pt; color: #555; margin-bottom: 8pt; }
table { width: 100%; border-collapse: collapse; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th { background: #eee; text-align: left; border-bottom: 1pt solid #000; }
th, td { padding: 2pt 8pt 2pt 0; white-space: nowrap; }
td:last-child, th:last-child { white-space: normal; width: 100%; }
.n { text-align: right; }
tr.r td { border-bottom: 0.5pt solid #aaa; }
tfoot td { font-weight: 500; border-top: 0.75pt solid #aaa; }
</style></head><body>
<h1>Tickets — Journalier</h1>
<p>Enseigne : ${escapeHtml(OPTIONS.chain)}</p>
<p>Sites : ${dataset.sites.map((s) => escapeHtml(s.libelle)).join(', ')}</p>
<p>Période du ${frDate(dataset.dateDebut)} au ${frDate(dataset.dateFin)}</p>
<p>Devise : ${dataset.currency}</p>
<p class="muted">Généré le 22/11/2026 à 11:00</p>
<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody><tfoot><tr>${totals}</tr></tfoot></table>
</body></html>`;
}

/** Number of pages of a PDF: its `/Type /Page` objects (counting only; not a PDF parser). */
export function countPdfPages(pdf: Uint8Array): number {
  return (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []
  ).length;
}

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/**
 * CPU milliseconds used so far by this process (all its threads: the PDF worker, the garbage
 * collector) and by its descendants still running (Chromium's browser, renderer and helper
 * processes), read from /proc: the machine's work for a document, whatever else runs beside.
 */
function jobCpuMs(): number {
  const own = process.cpuUsage();
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command name (which may hold spaces): state, ppid, …, utime (14), stime (15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parents.set(Number(entry), Number(fields[1]));
    ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
  }
  let descendants = 0;
  for (const [pid, t] of ticks) {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) {
      if (p === process.pid) {
        descendants += t;
        break;
      }
    }
  }
  return (own.user + own.system) / 1000 + (descendants * 1000) / CLOCK_TICKS;
}

interface EngineRun {
  ms: number;
  /** CPU milliseconds of the whole job (this process and Chromium's), see {@link jobCpuMs}. */
  cpuMs: number;
  pages: number;
  bytes: number;
}

/** A size to measure: its rows and how many times each engine renders it. */
export interface PdfBenchPlan {
  rows: number;
  repetitions: number;
}

/** One engine's figures on one size: medians over the repetitions, with their spread. */
export interface PdfEngineFigures {
  /** Median milliseconds per document, and the fastest and slowest repetition. */
  ms: number;
  msMin: number;
  msMax: number;
  /** Median CPU milliseconds per document (see {@link jobCpuMs}), and its spread. */
  cpuMs: number;
  cpuMsMin: number;
  cpuMsMax: number;
  pages: number;
  bytes: number;
  /** Pages per second at the median time. */
  pagesPerSecond: number;
  rowsPerSecond: number;
}

/** One size's figures: both engines' medians, pages per second and the ratios. */
export interface PdfBenchSize {
  rows: number;
  repetitions: number;
  ours: PdfEngineFigures;
  chromium: PdfEngineFigures;
  /** ours median pages/s ÷ Chromium median pages/s (target ≥ 2). */
  ratio: number;
  /** The same ratio within each repetition (both engines back to back): median, min and max. */
  pairedRatio: { median: number; min: number; max: number };
  /** ours rows/s ÷ Chromium rows/s at the medians, for page densities that differ. */
  rowsRatio: number;
  /**
   * Pages per CPU second, ours ÷ Chromium's, at the median CPU times: the same comparison by the
   * work each engine makes the machine do, which other jobs sharing the cores disturb far less
   * than elapsed times.
   */
  cpuRatio: number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function figures(runs: EngineRun[], rows: number): PdfEngineFigures {
  const ms = median(runs.map((r) => r.ms));
  const pages = runs[0]!.pages;
  return {
    ms: Math.round(ms),
    msMin: Math.round(Math.min(...runs.map((r) => r.ms))),
    msMax: Math.round(Math.max(...runs.map((r) => r.ms))),
    cpuMs: Math.round(median(runs.map((r) => r.cpuMs))),
    cpuMsMin: Math.round(Math.min(...runs.map((r) => r.cpuMs))),
    cpuMsMax: Math.round(Math.max(...runs.map((r) => r.cpuMs))),
    pages,
    bytes: runs[0]!.bytes,
    pagesPerSecond: round((pages / ms) * 1000),
    rowsPerSecond: Math.round((rows / ms) * 1000),
  };
}

/** Repetitions of every size from PDF_BENCH_REPS, when set. */
function plannedSizes(): PdfBenchPlan[] {
  const reps = Number(process.env.PDF_BENCH_REPS);
  return Number.isInteger(reps) && reps > 0 ? SIZES.map((s) => ({ ...s, repetitions: reps })) : SIZES;
}

/**
 * Renders the same tickets table of each size with both engines, after the same warm-up for both
 * (so neither pays its start-up), several times each, and reports medians, spreads and ratios.
 * @throws Error when Chromium cannot be launched (CHROME_PATH) or an output has no page.
 */
export async function benchPdf(
  sizes: PdfBenchPlan[] = plannedSizes(),
): Promise<{ name: string; sizes: PdfBenchSize[] }> {
  const robotoFile = path.join(
    path.dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')),
    'fonts',
    'Roboto',
    'Roboto-Regular.ttf',
  );
  const robotoDataUrl = `data:font/ttf;base64,${(await fs.readFile(robotoFile)).toString('base64')}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const results: PdfBenchSize[] = [];
  try {
    let page = await browser.newPage();
    const timed = async (print: () => Promise<Uint8Array>): Promise<EngineRun> => {
      const c0 = jobCpuMs();
      const t0 = performance.now();
      const pdf = await print();
      const ms = performance.now() - t0;
      const run = { ms, cpuMs: jobCpuMs() - c0, pages: countPdfPages(pdf), bytes: pdf.length };
      // Let the engine's trailing work (its garbage collection of the document) end before the
      // other engine is timed, so that neither is charged with the other's.
      await setTimeout(SETTLE_MS);
      return run;
    };
    const chromiumPdf = async (dataset: Dataset) => {
      await page.setContent(ticketsHtml(dataset, robotoDataUrl));
      return page.pdf({
        format: 'A4',
        landscape: true,
        // Playwright takes px (96 per inch): the PDF's 48, 36 and 40 pt margins.
        margin: { top: '64px', right: '48px', bottom: '53px', left: '48px' },
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate:
          '<div style="font-size:8pt;color:#555;width:100%;margin:0 36pt;display:flex;justify-content:space-between"><span>Le Comptoir</span><span>Page <span class="pageNumber"></span> / <span class="totalPages"></span></span></div>',
      });
    };
    /** A new tab, warmed up like the first (untimed): a long document can wear a tab out. */
    const freshTab = async () => {
      await page.close().catch(() => undefined);
      page = await browser.newPage();
      await chromiumPdf(ticketsDataset(WARM_UP_ROWS.at(-1)!, 0));
    };
    const printChromium = async (dataset: Dataset): Promise<EngineRun> => {
      try {
        return await timed(() => chromiumPdf(dataset));
      } catch (error) {
        // Chromium's tab now and then fails or crashes on a long document after several others
        // ("Printing failed", "Page crashed"): the repetition is run again, once, in a new tab.
        console.log(`  (Chromium failed, repeated in a new tab: ${(error as Error).message.split('\n')[0]})`);
        await freshTab();
        return timed(() => chromiumPdf(dataset));
      }
    };
    const printOurs = (dataset: Dataset): Promise<EngineRun> =>
      timed(() => renderPdfInWorker(dataset, OPTIONS));
    // The same warm-up for both: the worker's start, JIT and fonts; Chromium's renderer, its
    // font and layout code — as a server would be after its first few reports.
    let edition = 0;
    for (const rows of WARM_UP_ROWS) {
      const dataset = ticketsDataset(rows, ++edition);
      await printOurs(dataset);
      await printChromium(dataset);
    }

    let oursFirst = true;
    for (const [index, { rows, repetitions }] of sizes.entries()) {
      if (index > 0) await freshTab();
      const ours: EngineRun[] = [];
      const chrome: EngineRun[] = [];
      const paired: number[] = [];
      for (let rep = 0; rep < repetitions; rep++) {
        const dataset = ticketsDataset(rows, ++edition);
        // Alternate which engine goes first, so neither always runs on a machine the other warmed.
        const a = oursFirst ? await printOurs(dataset) : await printChromium(dataset);
        const b = oursFirst ? await printChromium(dataset) : await printOurs(dataset);
        const [o, c] = oursFirst ? [a, b] : [b, a];
        oursFirst = !oursFirst;
        if (o.pages === 0 || c.pages === 0) throw new Error('benchPdf: a PDF without pages');
        ours.push(o);
        chrome.push(c);
        paired.push(o.pages / o.ms / (c.pages / c.ms));
      }
      const size: PdfBenchSize = {
        rows,
        repetitions,
        ours: figures(ours, rows),
        chromium: figures(chrome, rows),
        ratio: 0,
        pairedRatio: {
          median: round(median(paired), 2),
          min: round(Math.min(...paired), 2),
          max: round(Math.max(...paired), 2),
        },
        rowsRatio: 0,
        cpuRatio: 0,
      };
      size.ratio = round(size.ours.pagesPerSecond / size.chromium.pagesPerSecond, 2);
      size.rowsRatio = round(size.chromium.ms / size.ours.ms, 2);
      size.cpuRatio = round(
        ((size.ours.pages / size.ours.cpuMs) * size.chromium.cpuMs) / size.chromium.pages,
        2,
      );
      const engine = (f: PdfEngineFigures) =>
        `${f.pages} pages in ${f.ms} ms (${f.msMin}–${f.msMax}), ${f.pagesPerSecond} pages/s, ` +
        `CPU ${f.cpuMs} ms (${f.cpuMsMin}–${f.cpuMsMax})`;
      console.log(
        `  ${rows} rows ×${repetitions}: ours ${engine(size.ours)}; Chromium ${engine(size.chromium)}; ` +
          `ratio ${size.ratio} (per repetition: median ${size.pairedRatio.median}, ` +
          `${size.pairedRatio.min}–${size.pairedRatio.max}; rows/s ratio ${size.rowsRatio}; ` +
          `pages per CPU second ratio ${size.cpuRatio})`,
      );
      results.push(size);
    }
  } finally {
    await browser.close();
    await closePdfPool();
  }
  return {
    name: 'PDF pages per second, ours (pdfmake worker) vs headless Chromium printing HTML',
    sizes: results,
  };
}

if (import.meta.main) {
  console.log('• PDF: our renderer vs headless Chromium on the same tickets table');
  console.log(JSON.stringify(await benchPdf()));
}

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
 * Pages are counted in each output (the `/Type /Page` objects: enough to count, not a parser).
 * Page densities differ a little (each engine lays out its own way), so rows per second are
 * reported too; the target is on pages per second (ours at least twice Chromium's).
 *
 * Run alone with `npx node bench/pdf.ts`; `npm run bench` calls {@link benchPdf}.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Dataset } from '../src/contract/reports.ts';
import type { RenderOptions } from '../src/server/reports/render/cells.ts';
import { closePdfPool, renderPdfInWorker } from '../src/server/reports/render/pdf-pool.ts';

/** Row counts measured (both engines, each). */
const SIZES = [5_000, 20_000];
/** Rows of the warm-up document (not measured). */
const WARM_UP_ROWS = 2_000;
/** Chromium of the machine (Debian's package); CHROME_PATH overrides. */
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const OPTIONS: RenderOptions = {
  language: 'fr',
  chain: 'Le Comptoir',
  timeZone: 'Europe/Paris',
  hours: null,
  fiscalDates: null,
  trainingMode: false,
};

const SITES = ['Comptoir Bastille', 'Comptoir Part-Dieu', 'Comptoir Vieux-Port', 'Comptoir Capitole', 'Comptoir Opéra', 'Comptoir Gare'];
const PAYMENTS = ['Carte bancaire', 'Espèces', 'Carte bancaire, Titre-restaurant', 'Espèces, Carte bancaire', 'Titre-restaurant'];

/** A tickets dataset of `rows` rows (deterministic: the same for both engines and every run). */
export function ticketsDataset(rows: number): Dataset {
  let total = 0;
  const data = Array.from({ length: rows }, (_, i) => {
    const amount = 350 + ((i * 7919) % 9000);
    total += amount;
    const site = i % SITES.length;
    return {
      fiscalDate: `2026-10-${String(1 + Math.floor((i / rows) * 31)).padStart(2, '0')}`,
      time: `${String(8 + (i % 15)).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}`,
      siteId: site + 1,
      site: SITES[site]!,
      terminalId: 1 + (i % 3),
      sellerCode: `V${String(1 + (i % 8)).padStart(3, '0')}`,
      ticketNumber: String(100_000 + i),
      kind: i % 40 === 0 ? 'Annulation' : i % 97 === 0 ? 'Retour' : 'Vente',
      amount,
      payments: PAYMENTS[i % PAYMENTS.length]!,
    };
  });
  return {
    className: 'RapportTickets',
    variant: 'Daily',
    title: 'Tickets',
    currency: 'EUR',
    dateDebut: '2026-10-01',
    dateFin: '2026-10-31',
    sites: SITES.map((libelle, i) => ({ restaurantId: i + 1, libelle })),
    generatedAt: '2026-11-22T10:00:00Z',
    columns: [
      { key: 'fiscalDate', label: 'Date fiscale', type: 'date' },
      { key: 'time', label: 'Heure', type: 'text' },
      { key: 'siteId', label: 'N° site', type: 'qty' },
      { key: 'site', label: 'Site', type: 'text' },
      { key: 'terminalId', label: 'Caisse', type: 'qty' },
      { key: 'sellerCode', label: 'Vendeur', type: 'text' },
      { key: 'ticketNumber', label: 'N° ticket', type: 'text' },
      { key: 'kind', label: 'Type', type: 'text' },
      { key: 'amount', label: 'Montant TTC', type: 'money' },
      { key: 'payments', label: 'Paiements', type: 'text' },
    ],
    rows: data,
    totals: { amount: total },
  };
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
      i === 0 ? '<td>Total</td>' : `<td${numeric.has(c.key) ? ' class="n"' : ''}>${cell(c.key, dataset.totals[c.key])}</td>`,
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
  return (Buffer.from(pdf).toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

interface EngineRun {
  ms: number;
  pages: number;
  bytes: number;
}

/** One size's figures: both engines' times, pages, pages per second and the ratio. */
export interface PdfBenchSize {
  rows: number;
  ours: EngineRun & { pagesPerSecond: number; rowsPerSecond: number };
  chromium: EngineRun & { pagesPerSecond: number; rowsPerSecond: number };
  /** ours pages/s ÷ Chromium pages/s (target ≥ 2). */
  ratio: number;
  /** ours rows/s ÷ Chromium rows/s, for page densities that differ. */
  rowsRatio: number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Renders the same tickets table of each size with both engines (warm: a small and a mid-sized
 * document each first, so neither pays its start-up) and reports pages per second and the ratio.
 * @throws Error when Chromium cannot be launched (CHROME_PATH) or an output has no page.
 */
export async function benchPdf(sizes: number[] = SIZES): Promise<{ name: string; sizes: PdfBenchSize[] }> {
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
    const page = await browser.newPage();
    const printChromium = async (dataset: Dataset): Promise<EngineRun> => {
      const t0 = performance.now();
      await page.setContent(ticketsHtml(dataset, robotoDataUrl));
      const pdf = await page.pdf({
        format: 'A4',
        landscape: true,
        // Playwright takes px (96 per inch): the PDF's 48, 36 and 40 pt margins.
        margin: { top: '64px', right: '48px', bottom: '53px', left: '48px' },
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate:
          '<div style="font-size:8pt;color:#555;width:100%;margin:0 36pt;display:flex;justify-content:space-between"><span>Le Comptoir</span><span>Page <span class="pageNumber"></span> / <span class="totalPages"></span></span></div>',
      });
      return { ms: performance.now() - t0, pages: countPdfPages(pdf), bytes: pdf.length };
    };
    const printOurs = async (dataset: Dataset): Promise<EngineRun> => {
      const t0 = performance.now();
      const pdf = await renderPdfInWorker(dataset, OPTIONS);
      return { ms: performance.now() - t0, pages: countPdfPages(pdf), bytes: pdf.length };
    };
    // Warm-up on a mid-sized table: the worker's JIT and pdfmake's caches, Chromium's renderer
    // and its font, as a server would be after its first few reports.
    for (const rows of [200, WARM_UP_ROWS]) {
      await printOurs(ticketsDataset(rows));
      await printChromium(ticketsDataset(rows));
    }

    for (const rows of sizes) {
      const dataset = ticketsDataset(rows);
      // Alternate which engine goes first, so neither always runs on a machine the other warmed.
      const oursFirst = results.length % 2 === 0;
      const a = oursFirst ? await printOurs(dataset) : await printChromium(dataset);
      const b = oursFirst ? await printChromium(dataset) : await printOurs(dataset);
      const [ours, chrome] = oursFirst ? [a, b] : [b, a];
      if (ours.pages === 0 || chrome.pages === 0) throw new Error('benchPdf: a PDF without pages');
      const rate = (run: EngineRun) => ({
        ...run,
        ms: Math.round(run.ms),
        pagesPerSecond: round((run.pages / run.ms) * 1000),
        rowsPerSecond: Math.round((rows / run.ms) * 1000),
      });
      const size: PdfBenchSize = {
        rows,
        ours: rate(ours),
        chromium: rate(chrome),
        ratio: round(ours.pages / ours.ms / (chrome.pages / chrome.ms), 2),
        rowsRatio: round(chrome.ms / ours.ms, 2),
      };
      console.log(
        `  ${rows} rows: ours ${size.ours.pages} pages in ${size.ours.ms} ms (${size.ours.pagesPerSecond} pages/s), ` +
          `Chromium ${size.chromium.pages} pages in ${size.chromium.ms} ms (${size.chromium.pagesPerSecond} pages/s): ` +
          `ratio ${size.ratio} (rows/s ratio ${size.rowsRatio})`,
      );
      results.push(size);
    }
  } finally {
    await browser.close();
    await closePdfPool();
  }
  return { name: 'PDF pages per second, ours (pdfmake worker) vs headless Chromium printing HTML', sizes: results };
}

if (import.meta.main) {
  console.log('• PDF: our renderer vs headless Chromium on the same tickets table');
  console.log(JSON.stringify(await benchPdf()));
}

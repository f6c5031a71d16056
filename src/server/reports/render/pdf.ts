/**
 * PDF renderer, generic over any dataset (DESIGN.md §6), with pdfmake 0.3 on the server: the
 * chain name, sites, period, generated-at on top, the table with its header repeated on every
 * page, a bold totals row, money right-aligned in the dataset's currency, "Page x / y" below.
 *
 * Fonts come from pdfmake's own Roboto folder; pdfmake may read nothing else from disk and
 * fetch no URL (its access policies), so a dataset's text can never make it load a file.
 *
 * Speed (bench/pdf.ts, issue #4 point 8): pdfmake measures, lays out and draws every cell, and
 * each line of a cell costs about the same whatever its length; a cell that may wrap is split
 * into words, each measured and drawn on its own. Short columns are therefore kept on one line
 * (`noWrap`) whenever the table is sure to fit the page that way; pdfkit's content streams are
 * written in large pieces (render/pdf-streams.ts); the fonts and the texts shaped with them are
 * kept from one document to the next (render/pdf-fonts.ts). What a document shows is unchanged
 * (the last two give the very same bytes), except that a short text is no longer wrapped where
 * pdfmake used to squeeze its column.
 */
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { Content, CustomTableLayout, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { Dataset } from '../../../contract/reports.ts';
import { message } from '../../i18n.ts';
import {
  displayCell,
  documentHeading,
  documentProperties,
  isLandscape,
  isNumeric,
  type RenderOptions,
  totalsRow,
} from './cells.ts';
import { CHART_SIZE, chartSvgFor } from './chart.ts';
import { ROBOTO_DIR, ROBOTO_FILES, textWidth } from './pdf-metrics.ts';
import { setSharedFonts } from './pdf-fonts.ts';
import { setJoinedContentStreams } from './pdf-streams.ts';

pdfmake.setFonts({ Roboto: { ...ROBOTO_FILES } });
pdfmake.setLocalAccessPolicy((file) => path.resolve(file).startsWith(ROBOTO_DIR + path.sep));
pdfmake.setUrlAccessPolicy(() => false);
setJoinedContentStreams(true);
setSharedFonts(true);

/** Intl's French group separator (narrow no-break space) is not in Roboto; a no-break space is. */
function pdfText(text: string): string {
  return text.replaceAll('\u202f', '\u00a0');
}

/**
 * The table's rules: a dark line under the header (on every page), a light one every
 * {@link RULE_EVERY} rows and above the totals, padding as pdfmake's `lightHorizontalLines`.
 * A rule under every row cost about a sixth of the rendering time of a long table (each is a
 * colour change and a stroke) for little reading comfort; one every five rows keeps the eye on
 * its line across a landscape page.
 */
const RULE_EVERY = 5;
const TABLE_LAYOUT: CustomTableLayout = {
  hLineWidth: (i, node) => {
    const rows = node.table.body.length;
    if (i === 1) return 1;
    if (i === rows - 1) return 0.75;
    return i > 1 && i < rows && (i - 1) % RULE_EVERY === 0 ? 0.5 : 0;
  },
  vLineWidth: () => 0,
  hLineColor: (i) => (i === 1 ? '#000000' : '#aaaaaa'),
  paddingLeft: (i) => (i === 0 ? 0 : 8),
  paddingRight: (i, node) => (i === (node.table.widths?.length ?? 0) - 1 ? 0 : 8),
};

/** Longest text, in characters, that a text column keeps on one line at its natural width. */
const SHORT_TEXT = 20;

/**
 * Column widths: figures, dates and short texts (times, codes, kinds) take their natural width,
 * long texts (names, lists of payment methods) share what is left; when every text is short, the
 * longest text column takes the rest, so the table still spans the page. Giving every text column
 * an equal share instead wrapped the long ones onto two lines beside half-empty short ones.
 * @param longest the longest cell text of each column, in characters
 */
function columnWidths(dataset: Dataset, longest: number[]): Array<'auto' | '*'> {
  const widths = longest.map((n, i) =>
    dataset.columns[i]!.type === 'text' && n > SHORT_TEXT ? '*' : 'auto',
  ) satisfies Array<'auto' | '*'>;
  if (!widths.includes('*')) {
    const text = longest.map((n, i) => (dataset.columns[i]!.type === 'text' ? n : 0));
    const widest = text.indexOf(Math.max(...text));
    if (text[widest]! > 0) widths[widest] = '*';
  }
  return widths;
}

/** Body font size, in points (the document's default style); headers and totals use it too. */
const FONT_SIZE = 9;
/** A4 width in points, portrait and landscape (pdfmake's page sizes), less the 36 pt side margins. */
const TABLE_WIDTH = { portrait: 595.28 - 72, landscape: 841.89 - 72 };
/** Room kept for what a sum of advances misses (kerning, rounding): 3 % of the table's width. */
const FIT_MARGIN = 1.03;

/** What the plan of the table knows of a column's texts, in characters and points. */
interface ColumnTexts {
  /** Longest text, in characters. */
  chars: number;
  /** Widest text on one line. */
  width: number;
  /** Widest word (between spaces), what a wrapping column cannot go below. */
  word: number;
}

function measured(texts: ColumnTexts, text: string, bold: boolean): void {
  texts.chars = Math.max(texts.chars, text.length);
  const width = textWidth(text, FONT_SIZE, bold);
  texts.width = Math.max(texts.width, width);
  // Only plain spaces count as breaks here (pdfmake also breaks after hyphens, never at a
  // no-break space): a word is never taken narrower than pdfmake's.
  texts.word = Math.max(
    texts.word,
    / /.test(text) ? Math.max(...text.split(/ +/).map((w) => textWidth(w, FONT_SIZE, bold))) : width,
  );
}

/**
 * Whether the body cells of the `auto` columns may be laid out on one line (`noWrap`) with no
 * other effect than sparing pdfmake their splitting into words: true when, with every such
 * column at its widest body text, the header and totals at their full width and each `*` column
 * at its widest word, the table still fits the page. pdfmake then gives the `auto` columns at
 * least their widest text (its column calculator's cases 2 and 3), so no short text is cut; when
 * it would not fit, the cells keep wrapping as before.
 */
function shortColumnsFit(
  widths: Array<'auto' | '*'>,
  body: ColumnTexts[],
  edges: ColumnTexts[],
  landscape: boolean,
): boolean {
  const stars = widths.filter((w) => w === '*').length;
  let need = 0;
  let starWord = 0;
  widths.forEach((w, i) => {
    if (w === 'auto') need += Math.max(body[i]!.width, edges[i]!.width);
    else starWord = Math.max(starWord, body[i]!.word, edges[i]!.word);
  });
  need += stars * starWord;
  const paddings = 16 * (widths.length - 1);
  return need * FIT_MARGIN + paddings < (landscape ? TABLE_WIDTH.landscape : TABLE_WIDTH.portrait);
}

/**
 * The table of `dataset`: the header, a row per dataset row and the bold totals row, with the
 * column widths. Body cells of short columns stay on one line when the table is sure to fit
 * the page that way ({@link shortColumnsFit}).
 */
function reportTable(
  dataset: Dataset,
  language: RenderOptions['language'],
  landscape: boolean,
): { widths: Array<'auto' | '*'>; rows: TableCell[][] } {
  const header: TableCell[] = dataset.columns.map((c) => ({
    text: pdfText(c.label),
    style: 'th',
    alignment: isNumeric(c) ? 'right' : 'left',
  }));
  const totals = totalsRow(dataset, language);
  const totalTexts = dataset.columns.map((c, i) => pdfText(displayCell(totals[i], c, dataset, language)));
  const totalCells: TableCell[] = dataset.columns.map((c, i) => ({
    text: totalTexts[i]!,
    bold: true,
    alignment: isNumeric(c) && typeof totals[i] === 'number' ? 'right' : 'left',
  }));

  // A tickets report repeats the same dates, sites and kinds thousands of times: each distinct
  // text is formatted (and measured for the plan of the table) once per column.
  const bodyTexts: ColumnTexts[] = dataset.columns.map(() => ({ chars: 0, width: 0, word: 0 }));
  const edgeTexts: ColumnTexts[] = dataset.columns.map((c, i) => {
    const texts = { chars: 0, width: 0, word: 0 };
    measured(texts, pdfText(c.label), true);
    measured(texts, totalTexts[i]!, true);
    return texts;
  });
  const format = dataset.columns.map((c, i) => {
    const seen = new Map<string | number | null | undefined, string>();
    return (value: string | number | null | undefined): string => {
      let text = seen.get(value);
      if (text === undefined) {
        text = pdfText(displayCell(value, c, dataset, language));
        measured(bodyTexts[i]!, text, false);
        if (seen.size < 10_000) seen.set(value, text);
      }
      return text;
    };
  });
  const texts: string[][] = dataset.rows.map((row) => dataset.columns.map((c, i) => format[i]!(row[c.key])));
  const widths = columnWidths(
    dataset,
    bodyTexts.map((t) => t.chars),
  );
  const oneLine = shortColumnsFit(widths, bodyTexts, edgeTexts, landscape);
  const cellOf = dataset.columns.map((c, i) => {
    const alignment = isNumeric(c) ? 'right' : 'left';
    // A line break in a text must still break the line: such a cell keeps pdfmake's wrapping.
    const noWrap = oneLine && widths[i] === 'auto';
    return (text: string): TableCell =>
      noWrap && !/[\r\n]/.test(text) ? { text, alignment, noWrap } : { text, alignment };
  });
  const body: TableCell[][] = texts.map((row) => row.map((text, i) => cellOf[i]!(text)));

  return { widths, rows: [header, ...body, totalCells] };
}

/**
 * The lines above the table: the heading of {@link documentHeading} (title, chain, sites, period,
 * hours, training mode, currency, generated-at), the title large and the generated-at muted; a
 * report over a purged period says so in bold right under the title (one line per purged period).
 */
function introLines(heading: { title: string; lines: string[]; archived: string[] }): Content[] {
  const last = heading.lines.length - 1;
  return [
    { text: heading.title, style: 'title' },
    ...heading.archived.map((line): Content => ({ text: line, bold: true, margin: [0, 0, 0, 4] })),
    ...heading.lines.map(
      (line, i): Content =>
        i === last ? { text: line, style: 'muted', margin: [0, 0, 0, 8] } : { text: line },
    ),
  ];
}

/** The pdfmake document of `dataset` (exported for tests and benchmarks). */
export function pdfDefinition(
  dataset: Dataset,
  options: RenderOptions,
  compress = true,
  chartSvg: string | null = null,
): TDocumentDefinitions {
  const { language } = options;
  const t = (id: string, values?: Record<string, string | number>) => pdfText(message(language, id, values));
  const shown = documentHeading(dataset, options);
  const heading = {
    title: pdfText(shown.title),
    lines: shown.lines.map(pdfText),
    archived: shown.archived.map(pdfText),
  };
  const { title } = heading;
  const period = pdfText(shown.period);
  const landscape = isLandscape(dataset);
  const table = reportTable(dataset, language, landscape);
  const content: Content[] = introLines(heading);
  // Graph variant: the chart above the table, as wide as the page.
  if (chartSvg) {
    const size = landscape ? CHART_SIZE.landscape : CHART_SIZE.portrait;
    content.push({ svg: chartSvg, width: size.width, height: size.height, margin: [0, 0, 0, 10] });
  }
  if (dataset.rows.length === 0)
    content.push({ text: t('report.pdf.empty'), italics: true, margin: [0, 0, 0, 8] });
  content.push({
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: table.widths,
      body: table.rows,
    },
    layout: TABLE_LAYOUT,
  });

  return {
    compress,
    pageSize: 'A4',
    pageOrientation: landscape ? 'landscape' : 'portrait',
    pageMargins: [36, 48, 36, 40],
    info: { ...documentProperties(dataset, options), creator: 'Comptoir' },
    header: (currentPage: number) =>
      currentPage === 1 ? '' : { text: `${title} · ${period}`, style: 'muted', margin: [36, 20, 36, 0] },
    footer: (currentPage: number, pageCount: number) => ({
      columns: [
        { text: pdfText(options.chain), style: 'muted' },
        {
          text: t('report.pdf.page', { page: currentPage, pages: pageCount }),
          alignment: 'right',
          style: 'muted',
        },
      ],
      margin: [36, 12, 36, 0],
    }),
    content,
    styles: {
      title: { fontSize: 16, bold: true, margin: [0, 0, 0, 6] },
      th: { bold: true, fillColor: '#eeeeee' },
      muted: { fontSize: 8, color: '#555555' },
    },
    defaultStyle: { font: 'Roboto', fontSize: 9 },
  };
}

/**
 * Renders `dataset` as a PDF document in memory (pdfmake lays the whole document out before
 * writing, so a PDF cannot stream row by row). A Graph dataset gets its chart above the table.
 * @param compress false writes plain-text content streams (tests read them back).
 * @param chartSvg the chart already drawn (render/chart.ts), or undefined to draw it here.
 */
export async function renderPdf(
  dataset: Dataset,
  options: RenderOptions,
  compress = true,
  chartSvg?: string | null,
): Promise<Buffer> {
  const svg =
    chartSvg === undefined ? await chartSvgFor(dataset, options.language, isLandscape(dataset)) : chartSvg;
  return pdfmake.createPdf(pdfDefinition(dataset, options, compress, svg)).getBuffer();
}

/**
 * The PDF renderer's speed-ups (bench/pdf.ts, issue #4 point 8) change nothing of the document:
 * pdfkit's content streams written in large pieces give the very same bytes; short columns are
 * kept on one line only when the table fits the page that way, a long table still repeats its
 * header and numbers its pages, and a line break inside a text still breaks the line.
 */
import pdfmake from 'pdfmake';
import type { TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { describe, expect, it } from 'vitest';
import type { Dataset, DatasetColumn } from '../../src/contract/reports.ts';
import { pdfDefinition, renderPdf } from '../../src/server/reports/render/pdf.ts';
import { setSharedFonts } from '../../src/server/reports/render/pdf-fonts.ts';
import { setJoinedContentStreams } from '../../src/server/reports/render/pdf-streams.ts';
import { FR_RENDER_OPTIONS as OPTIONS, ticketsReport } from '../helpers/report-datasets.ts';
import { pdfPagesText } from './pdf-text.ts';

const SITES = ['Comptoir Bastille', 'Comptoir Part-Dieu', 'Comptoir Vieux-Port'];
const PAYMENTS = ['Carte bancaire', 'Espèces', 'Carte bancaire, Titre-restaurant'];

/** A tickets report of `rows` rows, its ten columns as RapportTickets has them. */
function tickets(rows: number): Dataset {
  const data = Array.from({ length: rows }, (_, i) => ({
    fiscalDate: `2026-10-${String(1 + (i % 28)).padStart(2, '0')}`,
    time: `${String(8 + (i % 15)).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}`,
    siteId: 1 + (i % 3),
    site: SITES[i % 3]!,
    terminalId: 1 + (i % 2),
    sellerCode: `V${String(1 + (i % 8)).padStart(3, '0')}`,
    ticketNumber: String(100_000 + i),
    kind: i % 40 === 0 ? 'Annulation' : 'Vente',
    amount: 350 + ((i * 7919) % 9000),
    payments: PAYMENTS[i % 3]!,
  }));
  return ticketsReport(data, SITES, '2026-10-28');
}

/** The table's body rows (header and totals left out) of a document definition. */
function bodyRows(definition: TDocumentDefinitions): TableCell[][] {
  const content = definition.content as Array<{ table?: { body: TableCell[][] } }>;
  const body = content.find((c) => c.table)!.table!.body;
  return body.slice(1, -1);
}

const noWrap = (cell: TableCell) => (cell as { noWrap?: boolean }).noWrap === true;

describe('PDF renderer, fast paths', () => {
  it('writes byte for byte what pdfkit alone writes, compressed or not, chart included', async () => {
    const chart =
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><rect x="10" y="10" width="50" height="80" fill="#336699"/><text x="70" y="50">Ventes</text></svg>';
    const render = (compress: boolean) => {
      const definition = pdfDefinition({ ...tickets(120), variant: 'Graph' }, OPTIONS, compress, chart);
      // pdfkit stamps the creation time: fixed here so that two renderings can be compared.
      definition.info = { ...definition.info, creationDate: new Date('2026-11-22T10:00:00Z') };
      return pdfmake.createPdf(definition).getBuffer();
    };
    for (const compress of [false, true]) {
      expect(setJoinedContentStreams(true)).toBe(true);
      const joined = await render(compress);
      expect(setJoinedContentStreams(false)).toBe(false);
      let plain: Buffer;
      try {
        plain = await render(compress);
      } finally {
        setJoinedContentStreams(true);
      }
      expect(joined.length).toBeGreaterThan(10_000);
      expect(joined.equals(plain)).toBe(true);
    }
  });

  it('writes the same bytes with fonts shared between documents as with fonts opened for each', async () => {
    const render = (dataset: Dataset) => {
      const definition = pdfDefinition(dataset, OPTIONS, false);
      definition.info = { ...definition.info, creationDate: new Date('2026-11-22T10:00:00Z') };
      return pdfmake.createPdf(definition).getBuffer();
    };
    const other = tickets(300);
    other.rows = other.rows.map((r, i) => ({ ...r, ticketNumber: `T-${i}`, amount: 1_000_000 + i }));
    const dataset = tickets(200);
    try {
      expect(setSharedFonts(false)).toBe(false);
      const alone = await render(dataset);
      expect(setSharedFonts(true)).toBe(true);
      // The fonts are now warm with the other document's texts and shared glyph runs.
      await render(other);
      const shared = await render(dataset);
      const again = await render(dataset);
      expect(shared.equals(alone)).toBe(true);
      expect(again.equals(alone)).toBe(true);
      expect(pdfPagesText(shared).join(' ')).toContain(`${dataset.rows[150]!.ticketNumber} Vente`);
    } finally {
      setSharedFonts(true);
    }
  });

  it('keeps the short columns of a tickets report on one line, not the payment methods', () => {
    const rows = bodyRows(pdfDefinition(tickets(50), OPTIONS));
    const columns = tickets(1).columns.map((c) => c.key);
    for (const row of rows) {
      row.forEach((cell, i) => {
        expect(noWrap(cell)).toBe(columns[i] !== 'payments');
      });
    }
  });

  it('lets short columns wrap as before when one line each would not fit the page', () => {
    // Twelve 20-character text columns (all "short") are far wider than a landscape A4.
    const columns: DatasetColumn[] = Array.from({ length: 12 }, (_, i) => ({
      key: `c${i}`,
      label: `Colonne ${i}`,
      type: 'text',
    }));
    const row = Object.fromEntries(columns.map((c) => [c.key, 'Mmmmmmmmm Wwwwwwwwww']));
    const wide: Dataset = { ...tickets(0), columns, rows: [row, row], totals: {} };
    const rows = bodyRows(pdfDefinition(wide, OPTIONS));
    expect(rows.flat().some(noWrap)).toBe(false);
  });

  it('still breaks the line where a short text has a line break', async () => {
    const dataset = tickets(3);
    dataset.rows[1] = { ...dataset.rows[1]!, kind: 'Vente\nremise' };
    const rows = bodyRows(pdfDefinition(dataset, OPTIONS));
    const kind = dataset.columns.findIndex((c) => c.key === 'kind');
    expect(noWrap(rows[1]![kind]!)).toBe(false);
    expect(noWrap(rows[0]![kind]!)).toBe(true);
    const page = pdfPagesText(await renderPdf(dataset, OPTIONS, false))[0]!;
    expect(page).toContain('Vente remise');
  });

  it('spreads 1,500 tickets over pages, each with the table header and "Page x / y", totals at the end', async () => {
    const dataset = tickets(1500);
    const pages = pdfPagesText(await renderPdf(dataset, OPTIONS, false));
    expect(pages.length).toBeGreaterThan(30);
    pages.forEach((page, i) => {
      expect(page).toContain(
        'Date fiscale Heure N° site Site Caisse Vendeur N° ticket Type Montant TTC Paiements',
      );
      expect(page).toContain(`Page ${i + 1} / ${pages.length}`);
    });
    const all = pages.join(' ');
    for (const i of [0, 777, 1499]) {
      const r = dataset.rows[i]!;
      expect(all).toContain(`${r.site} ${r.terminalId} ${r.sellerCode} ${r.ticketNumber}`);
    }
    const total = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' })
      .format((dataset.totals.amount as number) / 100)
      .replace(/[\s\u00a0\u202f]+/g, ' ');
    expect(pages.at(-1)).toContain(`Total ${total}`);
  });
});

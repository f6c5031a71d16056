import { buffer } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { Dataset, Language } from '../../src/contract/reports.ts';
import { renderCsv } from '../../src/server/reports/render/csv.ts';
import { contentDisposition, reportFileName } from '../../src/server/reports/render/index.ts';
import { renderPdf } from '../../src/server/reports/render/pdf.ts';
import { renderXlsx } from '../../src/server/reports/render/xlsx.ts';
import { resolveReport } from '../../src/server/reports/request.ts';
import { renderOptionsFor, runReport } from '../../src/server/reports/run.ts';
import { setUpFixtureDatabase } from '../helpers/db.ts';
import { loadChain, salesInput } from './chain.ts';
import { pdfPagesText } from './pdf-text.ts';

const LANGS: Language[] = ['fr', 'en', 'de'];
/** Texts a spreadsheet program would run as formulas (OWASP CSV injection, issue #32 C.4). */
const FORMULA_TEXTS = [
  '=1+1',
  '+1+1',
  '-1+cmd|/C calc!A0',
  '@SUM(A1)',
  '\tx',
  '\rx',
  '＝1+1',
  '＋1',
  '－1',
  '＠SUM(A1)',
];
const GENERATED = new Date('2026-11-21T16:05:00Z'); // 17:05 in Paris
const fx = setUpFixtureDatabase(async (database) => ({ tickets: await loadChain(database) }));

async function report(language: Language, overrides: Parameters<typeof salesInput>[0] = {}) {
  const resolved = await resolveReport(salesInput({ language, ...overrides }), [1, 2, 3], fx.database, {
    now: GENERATED,
  });
  const dataset = await runReport(resolved, fx.database);
  return { dataset, options: renderOptionsFor(resolved, 'Comptoir demo') };
}

/** Money as the language shows it, computed here with Intl (not through the server's helpers). */
function money(language: Language, cents: number, currency = 'EUR'): string {
  const locale = { fr: 'fr-FR', en: 'en-GB', de: 'de-DE' }[language];
  return new Intl.NumberFormat(locale, { style: 'currency', currency })
    .format(cents / 100)
    .replace(/[\s\u00a0\u202f]+/g, ' ');
}

const EXPECTED = {
  fr: {
    title: 'Ventes — Journalier',
    period: 'Période du 01/11/2026 au 10/11/2026',
    total: 'Total',
    generated: 'Généré le 21/11/2026 à 17:05',
    page: 'Page 1 / 1',
    netSales: 'CA TTC',
    chain: 'Enseigne : Le Comptoir',
  },
  en: {
    title: 'Sales — Daily',
    period: 'Period from 01/11/2026 to 10/11/2026',
    total: 'Total',
    generated: 'Generated on 21/11/2026 at 17:05',
    page: 'Page 1 of 1',
    netSales: 'Net sales incl. VAT',
    chain: 'Chain: Le Comptoir',
  },
  de: {
    title: 'Umsatz — Täglich',
    period: 'Zeitraum vom 01/11/2026 bis 10/11/2026',
    total: 'Gesamt',
    generated: 'Erstellt am 21/11/2026 um 17:05',
    page: 'Seite 1 von 1',
    netSales: 'Umsatz brutto',
    chain: 'Kette: Le Comptoir',
  },
} as const;

/** The heading's sites line of the fixture's report, as the document properties repeat it. */
const SITES_LINE = {
  fr: 'Sites\u00a0: Paris Opéra, Lyon Part-Dieu',
  en: 'Sites: Paris Opéra, Lyon Part-Dieu',
  de: 'Standorte: Paris Opéra, Lyon Part-Dieu',
} as const;

describe('PDF renderer', () => {
  for (const language of LANGS) {
    it(`shows title, chain, sites, period, generated-at, totals and page numbers in ${language}`, async () => {
      const { dataset, options } = await report(language);
      const pages = pdfPagesText(await renderPdf(dataset, options, false));
      expect(pages).toHaveLength(1);
      // pdfmake breaks words after a hyphen into separate runs; read them back joined.
      const page = pages[0]!.replaceAll('- ', '-');
      const e = EXPECTED[language];
      for (const part of [
        e.title,
        e.chain,
        'Paris Opéra, Lyon Part-Dieu',
        e.period,
        e.generated,
        e.page,
        e.netSales,
      ]) {
        expect(page).toContain(part);
      }
      const t = dataset.totals;
      expect(page).toContain(
        `${e.total} ${t.tickets} ${money(language, t.netSales as number)} ` +
          `${money(language, t.netSalesExclTax as number)} ${money(language, t.tax as number)} ${money(language, t.averageTicket as number)}`,
      );
      // One row as the table shows it: date DD/MM/YYYY, site, figures in the currency.
      const r = dataset.rows[3]!;
      expect(page).toContain(
        `${String(r.fiscalDate).split('-').reverse().join('/')} ${r.siteId} ${r.site} ${r.tickets} ${money(language, r.netSales as number)}`,
      );
    });
  }

  it('spreads a long report over pages, repeating the table header and numbering "x / y"', async () => {
    const { dataset, options } = await report('fr');
    const rows = Array.from({ length: 12 }, () => dataset.rows).flat();
    const long: Dataset = { ...dataset, rows };
    const pages = pdfPagesText(await renderPdf(long, options, false));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} / ${pages.length}`);
      expect(page).toContain('Date fiscale N° site Site Tickets CA TTC CA HT TVA Ticket moyen');
    });
    expect(pages.at(-1)).toContain(`Total ${dataset.totals.tickets}`);
    expect(pages.slice(0, -1).join(' ')).not.toContain('Total ');
  });

  it("writes money in the sites' currency and says so", async () => {
    const { dataset, options } = await report('en', { sites: [3] });
    const page = pdfPagesText(await renderPdf(dataset, options, false))[0]!;
    expect(page).toContain('Currency: GBP');
    expect(page).toContain(money('en', dataset.totals.netSales as number, 'GBP'));
    expect(page).toContain('Chain: Counter');
  });

  it('shows the hour range and the empty-period notice', async () => {
    const { dataset, options } = await report('fr', {
      dateDebut: '2025-01-01',
      dateFin: '2025-01-02',
      trancheHoraire: true,
      heureDebut: '11:30',
      heureFin: '15:00',
    });
    expect(dataset.rows).toEqual([]);
    const page = pdfPagesText(await renderPdf(dataset, options, false))[0]!;
    expect(page).toContain('Tranche horaire de 11:30 à 15:00');
    expect(page).toContain('Aucune donnée sur la période choisie.');
    expect(page).toContain(`Total 0 ${money('fr', 0)}`);
  });

  it("says the report, the chain, the period and sites and Comptoir in the document's information", async () => {
    for (const language of LANGS) {
      const { dataset, options } = await report(language);
      const doc = await getDocument({
        data: new Uint8Array(await renderPdf(dataset, options)),
        isEvalSupported: false,
      }).promise;
      // pdfjs types the info dictionary as a bare Object: read its fields as entries.
      const info = Object.fromEntries(Object.entries((await doc.getMetadata()).info));
      await doc.destroy();
      const e = EXPECTED[language];
      expect(info.Title).toBe(e.title);
      expect(info.Author).toBe('Le Comptoir');
      expect(info.Subject).toBe(`${e.period} — ${SITES_LINE[language]}`);
      expect(info.Creator).toBe('Comptoir');
    }
  });

  it('is a real compressed PDF by default', async () => {
    const { dataset, options } = await report('fr');
    const pdf = await renderPdf(dataset, options);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/FlateDecode');
  });
});

describe('CSV renderer', () => {
  const CONVENTIONS = {
    fr: { delimiter: ';', decimal: ',' },
    en: { delimiter: ',', decimal: '.' },
    de: { delimiter: ';', decimal: ',' },
  } as const;

  for (const language of LANGS) {
    it(`writes a BOM, translated labels, '${CONVENTIONS[language].delimiter}' and decimal '${CONVENTIONS[language].decimal}' in ${language}`, async () => {
      const { dataset } = await report(language);
      const bytes = await buffer(renderCsv(dataset, language));
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const csv = bytes.toString('utf8');
      const { delimiter, decimal } = CONVENTIONS[language];
      const records: string[][] = parse(csv, { bom: true, delimiter });
      expect(records[0]).toEqual(dataset.columns.map((c) => c.label));
      expect(records[0]).toContain(EXPECTED[language].netSales);
      expect(records).toHaveLength(dataset.rows.length + 2);
      const cents = (cell: string) => {
        expect(cell).toMatch(new RegExp(`^-?\\d+\\${decimal}\\d{2}$`));
        return Math.round(Number(cell.replace(decimal, '.')) * 100);
      };
      dataset.rows.forEach((row, i) => {
        const rec = records[i + 1]!;
        expect(rec[0]).toBe(String(row.fiscalDate).split('-').reverse().join('/'));
        expect(rec[1]).toBe(String(row.siteId));
        expect(rec[2]).toBe(row.site);
        expect(Number(rec[3])).toBe(row.tickets);
        expect([rec[4], rec[5], rec[6], rec[7]].map((c) => cents(c!))).toEqual([
          row.netSales,
          row.netSalesExclTax,
          row.tax,
          row.averageTicket,
        ]);
      });
      const last = records.at(-1)!;
      expect(last[0]).toBe(EXPECTED[language].total);
      expect(cents(last[4]!)).toBe(dataset.totals.netSales);
    });
  }

  it('writes a site name that a spreadsheet would run as a formula as plain text', async () => {
    const { dataset } = await report('fr', { sites: [1] });
    const hostile: Dataset = {
      ...dataset,
      rows: dataset.rows
        .slice(0, 2)
        .map((r, i) => ({ ...r, site: i === 0 ? '=HYPERLINK("http://x")' : '@SUM(A1)' })),
    };
    const records: string[][] = parse((await buffer(renderCsv(hostile, 'fr'))).toString('utf8'), {
      bom: true,
      delimiter: ';',
    });
    expect(records.slice(1, 3).map((r) => r[2])).toEqual([`'=HYPERLINK("http://x")`, `'@SUM(A1)`]);
    // Negative amounts keep their minus sign: only text columns are neutralised.
    expect(records[1]![4]).toMatch(/^-?\d+,\d{2}$/);
  });

  it('neutralises every text cell that starts like a formula, full-width forms included (OWASP; issue #32 C.4)', async () => {
    const { dataset } = await report('fr', { sites: [1] });
    const rows = dataset.rows.slice(0, 1);
    const hostile: Dataset = {
      ...dataset,
      rows: FORMULA_TEXTS.map((site) => ({ ...rows[0]!, site, netSales: -1999 })),
    };
    const records: string[][] = parse((await buffer(renderCsv(hostile, 'fr'))).toString('utf8'), {
      bom: true,
      delimiter: ';',
    });
    const body = records.slice(1, 1 + FORMULA_TEXTS.length);
    expect(body.map((r) => r[2])).toEqual(FORMULA_TEXTS.map((t) => `'${t}`));
    // Amounts stay numbers with their minus sign.
    expect(body.map((r) => r[4])).toEqual(FORMULA_TEXTS.map(() => '-19,99'));
  });

  it('writes negative amounts with a minus sign and two decimals', async () => {
    const { dataset } = await report('fr', { dateDebut: '2026-11-11', dateFin: '2026-11-11', sites: [2] });
    const records: string[][] = parse((await buffer(renderCsv(dataset, 'fr'))).toString('utf8'), {
      bom: true,
      delimiter: ';',
    });
    expect(records[1]!.slice(3)).toEqual(['0', '-19,99', '-18,17', '-1,82', '0,00']);
  });
});

describe('XLSX renderer', () => {
  /** The workbook of `dataset` as a spreadsheet program reads it. */
  async function read(data: Buffer) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(data).buffer);
    return workbook;
  }

  it('opens with a heading block saying what the report is, in each language', async () => {
    for (const language of LANGS) {
      const { dataset, options } = await report(language);
      const workbook = await read(await renderXlsx(dataset, options));
      const sheet = workbook.worksheets[0]!;
      const heading = [1, 2, 3, 4, 5, 6].map((r) => sheet.getRow(r).getCell(1).value);
      expect(heading[0]).toBe(EXPECTED[language].title);
      expect(sheet.getRow(1).font?.bold).toBe(true);
      expect(heading).toContain(EXPECTED[language].chain.replace(' : ', '\u00a0: '));
      expect(heading).toContain(EXPECTED[language].period);
      expect(heading).toContain(EXPECTED[language].generated);
      expect(heading.some((t) => typeof t === 'string' && t.includes(dataset.sites[0]!.libelle))).toBe(true);
      expect(workbook.title).toBe(EXPECTED[language].title);
      expect(workbook.creator).toBe(options.chain);
      expect(workbook.subject).toContain(EXPECTED[language].period);
    }
  });

  it('writes figures as numbers with a currency format, dates as dates, and a totals row of SUM formulas', async () => {
    const { dataset, options } = await report('fr');
    const sheet = (await read(await renderXlsx(dataset, options))).worksheets[0]!;
    expect(sheet.name).toBe('Ventes');
    const headerRow = 8; // title, chain, sites, period, currency, generated-at, blank
    const header = sheet.getRow(headerRow);
    expect((header.values as unknown[]).slice(1)).toEqual(dataset.columns.map((c) => c.label));
    expect(header.font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: headerRow });
    const lastColumn = String.fromCharCode(64 + dataset.columns.length);
    expect(sheet.autoFilter).toBe(`A${headerRow}:${lastColumn}${headerRow + dataset.rows.length}`);
    expect(sheet.rowCount).toBe(headerRow + dataset.rows.length + 1);
    const first = sheet.getRow(headerRow + 1);
    const row = dataset.rows[0]!;
    expect(first.getCell(1).value).toEqual(new Date(`${row.fiscalDate}T00:00:00Z`));
    expect(first.getCell(1).numFmt).toBe('dd/mm/yyyy');
    expect(first.getCell(4).value).toBe(row.tickets);
    expect(first.getCell(5).value).toBe((row.netSales as number) / 100);
    expect(first.getCell(5).numFmt).toContain('"€"');
    const totals = sheet.getRow(headerRow + dataset.rows.length + 1);
    const last = headerRow + dataset.rows.length;
    expect(totals.getCell(1).value).toBe('Total');
    // Sums are formulas over the data rows, with the total as the result shown before recalculation.
    expect(totals.getCell(4).value).toEqual({
      formula: `SUM(D${headerRow + 1}:D${last})`,
      result: dataset.totals.tickets,
    });
    expect(totals.getCell(5).value).toEqual({
      formula: `SUM(E${headerRow + 1}:E${last})`,
      result: (dataset.totals.netSales as number) / 100,
    });
    // An average is no sum of its column: it stays a value.
    expect(totals.getCell(8).value).toBe((dataset.totals.averageTicket as number) / 100);
  });

  it('neutralises text cells that start like a formula and keeps negative amounts numeric (issue #32 C.4)', async () => {
    const { dataset, options } = await report('fr', { sites: [1] });
    const hostile: Dataset = {
      ...dataset,
      rows: FORMULA_TEXTS.map((site) => ({ ...dataset.rows[0]!, site, netSales: -1999 })),
    };
    const sheet = (await read(await renderXlsx(hostile, options))).worksheets[0]!;
    const headerRow = 8;
    const siteColumn = 1 + dataset.columns.findIndex((c) => c.key === 'site');
    const moneyColumn = 1 + dataset.columns.findIndex((c) => c.key === 'netSales');
    const texts = FORMULA_TEXTS.map((_, i) => sheet.getRow(headerRow + 1 + i).getCell(siteColumn).value);
    // XML reads a carriage return back as a line feed.
    expect(texts).toEqual(FORMULA_TEXTS.map((t) => `'${t.replace('\r', '\n')}`));
    const amounts = FORMULA_TEXTS.map((_, i) => sheet.getRow(headerRow + 1 + i).getCell(moneyColumn).value);
    expect(amounts).toEqual(FORMULA_TEXTS.map(() => -19.99));
  });

  it('puts the currency symbol where English puts it', async () => {
    const { dataset, options } = await report('en', { sites: [3] });
    const sheet = (await read(await renderXlsx(dataset, options))).worksheets[0]!;
    expect(sheet.getRow(9).getCell(5).numFmt).toMatch(/^"£"#,##0\.00/);
  });
});

describe('download file name', () => {
  it('is the translated base name with the period and the format', () => {
    const period = { dateDebut: '2026-11-01', dateFin: '2026-11-21' };
    expect(reportFileName('report.RapportVentes.filename', period, 'fr', 'PDF')).toBe(
      'ventes_2026-11-01_2026-11-21.pdf',
    );
    expect(reportFileName('report.RapportVentes.filename', period, 'en', 'CSV')).toBe(
      'sales_2026-11-01_2026-11-21.csv',
    );
    expect(reportFileName('report.RapportVentes.filename', period, 'de', 'XLSX')).toBe(
      'umsatz_2026-11-01_2026-11-21.xlsx',
    );
    expect(contentDisposition('ventes_2026-11-01_2026-11-21.pdf')).toBe(
      'attachment; filename="ventes_2026-11-01_2026-11-21.pdf"',
    );
    expect(contentDisposition('übersicht.pdf')).toBe(
      `attachment; filename="_bersicht.pdf"; filename*=UTF-8''%C3%BCbersicht.pdf`,
    );
  });
});

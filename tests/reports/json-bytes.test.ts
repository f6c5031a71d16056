/**
 * The JSON answer's bytes (src/server/reports/render/json.ts): the UTF-8 of JSON.stringify
 * (RFC 8259 §8.1) byte for byte, whichever way the text is encoded.
 */
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { datasetJsonBytes, jsonBytes, ROWS_PER_SLICE } from '../../src/server/reports/render/json.ts';
import { ticketsReport } from '../helpers/report-datasets.ts';

/** The reference: the text encoded by Buffer.from, as the route did before. */
const reference = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

describe('jsonBytes', () => {
  it.each([
    ['ASCII only', { site: 'Lyon', netSales: 864610, rows: [1, 2, 3] }],
    ['Latin-1 accents (one-byte text)', { site: 'Annecy Vieille Ville — é', label: 'Détail', n: 1 }],
    [
      'a typographic apostrophe and œ (two-byte text)',
      { articles: 'Jus d’orange, Œuf mayonnaise, Tartare de bœuf' },
    ],
    ['the euro sign and a character outside the BMP', { label: 'Prix € 🍰 crème', amount: 450 }],
    ['a lone surrogate, escaped by JSON.stringify (\\ud800)', { text: `a${'\ud800'}b` }],
    ['control characters and quotes, escaped by JSON.stringify', { text: 'l1\nl2\t"q" \u2028 ’' }],
  ])('%s: the same bytes as Buffer.from(JSON.stringify(…))', (_name, value) => {
    const bytes = jsonBytes(value);
    expect(bytes.equals(reference(value))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('a large two-byte text (a year of corrections) comes out whole', () => {
    const rows = Array.from({ length: 7000 }, (_, i) => ({
      fiscalDate: '2026-01-01',
      siteId: i % 6,
      site: 'Le Comptoir Lyon Bellecour',
      articles: `Jus d’orange pressé, Œuf mayonnaise, Café crème ${i}`,
    }));
    const bytes = jsonBytes({ rows });
    expect(bytes.equals(reference({ rows }))).toBe(true);
    expect(bytes.length).toBeGreaterThan(JSON.stringify({ rows }).length);
  });

  it('a text of three-byte characters (CJK) comes out whole', () => {
    const value = { site: '東京駅前店'.repeat(2000), note: 'œ' };
    const bytes = jsonBytes(value);
    expect(bytes.equals(reference(value))).toBe(true);
    expect(bytes.length).toBe(Buffer.byteLength(JSON.stringify(value)));
  });
});

/**
 * A tickets report (tests/helpers) of `count` rows titled `title`; rows whose index `wide(i)`
 * holds carry ’, Œ and a character outside the BMP in their payments.
 */
function dataset(count: number, title: string, wide: (i: number) => boolean): Dataset {
  const rows = Array.from({ length: count }, (_, i) => ({
    fiscalDate: '2026-01-01',
    time: '12:00',
    siteId: 1,
    site: 'Le Comptoir Lyon Bellecour',
    terminalId: 1,
    sellerCode: 'V01',
    ticketNumber: String(i),
    kind: 'SALE',
    amount: i * 10,
    payments: wide(i) ? `Titre-restau’ Œ 🍰 ${i}` : `Carte bancaire ${i}`,
  }));
  return { ...ticketsReport(rows, ['Le Comptoir Lyon Bellecour'], '2026-12-31'), title };
}

/** The reference: the dataset with `rows` as its last key, through JSON.stringify and Buffer.from. */
const rowsLast = ({ rows, ...head }: Dataset) => Buffer.from(JSON.stringify({ ...head, rows }), 'utf8');

describe('datasetJsonBytes', () => {
  it.each([
    ['no rows', 0],
    ['one row', 1],
    ['less than a slice', ROWS_PER_SLICE - 1],
    ['exactly a slice', ROWS_PER_SLICE],
    ['a slice and a row', ROWS_PER_SLICE + 1],
    ['many slices', ROWS_PER_SLICE * 7 + 13],
  ])('%s: the bytes of JSON.stringify with rows last, in order and whole', (_name, count) => {
    for (const [title, wide] of [
      ['Corrections', () => false],
      ['Finance – paiements', () => false],
      ['Corrections', (i: number) => i % 97 === 5],
      ['Finance – paiements', (i: number) => i % 2 === 0],
    ] as const) {
      const value = dataset(count, title, wide);
      const bytes = datasetJsonBytes(value);
      expect(bytes.equals(rowsLast(value))).toBe(true);
      const back = JSON.parse(bytes.toString('utf8')) as Dataset;
      expect(back).toEqual(value);
      expect(back.rows.map((r) => r.amount)).toEqual(value.rows.map((r) => r.amount));
    }
  });
});

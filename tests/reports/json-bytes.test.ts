/**
 * The JSON answer's bytes (src/server/reports/render/json.ts): the UTF-8 of JSON.stringify
 * (RFC 8259 §8.1) of the dataset with its rows last, byte for byte, whichever way each slice is
 * encoded.
 */
import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { datasetJsonBytes, ROWS_PER_SLICE } from '../../src/server/reports/render/json.ts';
import { ticketsReport } from '../helpers/report-datasets.ts';

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

describe('datasetJsonBytes encodes every kind of text as Buffer.from(JSON.stringify(…)) does', () => {
  it.each([
    ['ASCII only', 'Carte bancaire'],
    ['Latin-1 accents (one-byte text)', 'Annecy Vieille Ville — é, Détail'],
    ['a typographic apostrophe and œ (two-byte text)', 'Jus d’orange, Œuf mayonnaise, Tartare de bœuf'],
    ['the euro sign and a character outside the BMP', 'Prix € 🍰 crème'],
    ['a lone surrogate, escaped by JSON.stringify (\\ud800)', `a${'\ud800'}b`],
    ['control characters and quotes, escaped by JSON.stringify', 'l1\nl2\t"q" \u2028 ’'],
    ['three-byte characters (CJK), long', '東京駅前店'.repeat(2000)],
  ])('%s, in the title and in every row', (_name, text) => {
    const value = { ...dataset(ROWS_PER_SLICE + 3, text, () => false), title: text };
    for (const row of value.rows) row.payments = text;
    const bytes = datasetJsonBytes(value);
    expect(bytes.equals(rowsLast(value))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(value);
  });
});

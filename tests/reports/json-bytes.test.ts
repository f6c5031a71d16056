/**
 * The JSON answer's bytes (src/server/reports/render/json.ts): the UTF-8 of JSON.stringify
 * (RFC 8259 §8.1) of the dataset with its rows last, each row the array of its cells in column
 * order, byte for byte, whichever way each slice is encoded; and read back into the same dataset
 * by the contract's DatasetAnswerSchema, which also reads rows written as objects.
 */
import { describe, expect, it } from 'vitest';
import { type Dataset, DatasetAnswerSchema } from '../../src/contract/reports.ts';
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

/**
 * The reference: the dataset with `rows` as its last key, each row the array of its cells in
 * column order (null for a key the row lacks), through JSON.stringify and Buffer.from.
 */
const rowsLast = ({ rows, ...head }: Dataset) =>
  Buffer.from(
    JSON.stringify({ ...head, rows: rows.map((r) => head.columns.map((c) => r[c.key] ?? null)) }),
    'utf8',
  );

/** The answer's bytes read back as the client reads them. */
const readBack = (bytes: Buffer): Dataset => DatasetAnswerSchema.parse(JSON.parse(bytes.toString('utf8')));

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
      const back = readBack(bytes);
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
    expect(readBack(bytes)).toEqual(value);
  });
});

describe('the rows of the JSON answer', () => {
  const base = dataset(3, 'Tickets', () => false);

  it('are arrays of cells in column order, so each key is written once, in columns', () => {
    const text = datasetJsonBytes(base).toString('utf8');
    const answer = JSON.parse(text) as { rows: unknown[][] };
    expect(answer.rows[1]).toEqual(base.columns.map((c) => base.rows[1]![c.key]));
    expect(text.split('"payments"')).toHaveLength(2);
  });

  it('follow the columns of each dataset, whatever order an earlier one had', () => {
    const reversed = { ...base, columns: [...base.columns].reverse() };
    const first = JSON.parse(datasetJsonBytes(base).toString('utf8')) as { rows: unknown[][] };
    const second = JSON.parse(datasetJsonBytes(reversed).toString('utf8')) as { rows: unknown[][] };
    expect(second.rows[0]).toEqual([...first.rows[0]!].reverse());
    expect(readBack(datasetJsonBytes(reversed))).toEqual(reversed);
  });

  it('write null for a key a row lacks, and leave out keys that are not columns', () => {
    const rows = base.rows.map((r, i) => (i === 1 ? { ...r, extra: 'not a column', amount: undefined } : r));
    const answer = JSON.parse(datasetJsonBytes({ ...base, rows } as Dataset).toString('utf8')) as {
      rows: unknown[][];
    };
    const amount = base.columns.findIndex((c) => c.key === 'amount');
    expect(amount).toBeGreaterThan(-1);
    expect(answer.rows[1]![amount]).toBeNull();
    expect(answer.rows[1]).toHaveLength(base.columns.length);
    expect(JSON.stringify(answer)).not.toContain('not a column');
  });

  it('read keys with quotes, backslashes and code-like text as plain keys', () => {
    const key = 'a"];globalThis.hacked=1;//\\\'';
    const value: Dataset = {
      ...base,
      columns: [...base.columns, { key, label: 'odd', type: 'text' }],
      rows: base.rows.map((r, i) => ({ ...r, [key]: `odd ${i}` })),
    };
    const bytes = datasetJsonBytes(value);
    expect(bytes.equals(rowsLast(value))).toBe(true);
    expect((globalThis as { hacked?: number }).hacked).toBeUndefined();
    expect(readBack(bytes).rows.map((r) => r[key])).toEqual(['odd 0', 'odd 1', 'odd 2']);
  });

  it('are read back from an answer written with rows as objects (an offline copy kept from before)', () => {
    const older = Buffer.from(JSON.stringify(base), 'utf8');
    expect(readBack(older)).toEqual(base);
  });

  it('fill the cells missing from a short row with null when read back', () => {
    const answer = JSON.parse(datasetJsonBytes(base).toString('utf8')) as { rows: unknown[][] };
    answer.rows[0] = answer.rows[0]!.slice(0, 2);
    const back = DatasetAnswerSchema.parse(answer);
    expect(back.rows[0]![base.columns[2]!.key]).toBeNull();
    expect(back.rows[0]![base.columns[0]!.key]).toBe(base.rows[0]![base.columns[0]!.key]);
  });
});

/**
 * The JSON answer's bytes (src/server/reports/render/json.ts): the UTF-8 of JSON.stringify
 * (RFC 8259 §8.1) byte for byte, whichever way the text is encoded.
 */
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/server/reports/render/json.ts';

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
    ['a lone surrogate, written as U+FFFD like Buffer.from', { text: `a${'\ud800'}b` }],
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

  it('a text with more multi-byte characters than the buffer holds falls back and stays whole', () => {
    // Three UTF-8 bytes per character: far beyond the quarter of slack.
    const value = { site: '東京駅前店'.repeat(2000), note: 'œ' };
    const bytes = jsonBytes(value);
    expect(bytes.equals(reference(value))).toBe(true);
    expect(bytes.length).toBe(Buffer.byteLength(JSON.stringify(value)));
  });
});

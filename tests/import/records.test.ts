import { parse as parseCsvSync } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../src/server/import/lines.ts';

/** csv-parse's reading of `text`, the reference readRecords must equal on well-formed blocks. */
function reference(text: string, delimiter = ','): string[][] {
  return parseCsvSync(Buffer.from(text), { delimiter, skip_empty_lines: true }) as string[][];
}

/** The error readRecords throws for `text`, or null. */
function failure(text: string): { code?: string; lines?: number; message?: string } | null {
  try {
    readRecords(Buffer.from(text), ',');
    return null;
  } catch (e) {
    return e as { code?: string; lines?: number; message?: string };
  }
}

describe('readRecords', () => {
  it('reads well-formed blocks as csv-parse does: quotes, doubled quotes, newlines in quotes, CRLF, empty lines, wide characters', () => {
    const blocks = [
      '536365,85123A,WHITE HANGING HEART T-LIGHT HOLDER,6,2010-12-01 08:26:00,2.55\n',
      '1,"x, y",3\n4,"he said ""hi""",6\n7,"multi\nline",9\n',
      '1,2,3\r\n4,"a\r\nb",6\r\n',
      '1,2,3\n\n\n4,5,6\n',
      '1;"Crème brûlée; 2 €";3\n2;Tartare de bœuf;Straße ’\n',
      '"",,"x"\n,,\n',
      'only\n',
    ];
    for (const block of blocks) {
      const delimiter = block.includes(';') ? ';' : ',';
      expect(readRecords(Buffer.from(block), delimiter), block).toEqual(reference(block, delimiter));
    }
  });

  it('reads a generated block of 5,000 records with every kind of field as csv-parse does', () => {
    const fields = [
      'plain',
      '"with, comma"',
      '"with ""quotes"""',
      '"two\nlines"',
      '',
      'été',
      '"€ 1,50"',
      '  spaced  ',
    ];
    const rows: string[] = [];
    for (let i = 0; i < 5_000; i++)
      rows.push([i, fields[i % 8], fields[(i * 3) % 8], fields[(i * 5) % 8]].join(','));
    const text = `${rows.join('\n')}\n`;
    const records = readRecords(Buffer.from(text), ',');
    expect(records).toHaveLength(5_000);
    expect(records).toEqual(reference(text));
  });

  it('keeps a quote that neither opens nor closes a quoted field as text (csv-parse alone refused the record)', () => {
    expect(() => reference('1,12" pizza,3\n')).toThrow();
    expect(readRecords(Buffer.from('1,12" pizza,3\n2,"a\nb",4\n'), ',')).toEqual([
      ['1', '12" pizza', '3'],
      ['2', 'a\nb', '4'],
    ]);
    // Papa Parse refuses text after a closing quote; csv-parse, relaxed, keeps it as text.
    expect(readRecords(Buffer.from('1,2,3\n4,"ab"c,6\n'), ',')).toEqual([
      ['1', '2', '3'],
      ['4', '"ab"c', '6'],
    ]);
  });

  it("refuses a record narrower or wider than the first with csv-parse's error and line", () => {
    expect(failure('1,2,3\n4,5\n6,7,8\n')).toMatchObject({
      code: 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH',
      lines: 2,
    });
    expect(failure('1,2,3\n4,5,6\n7,8,9,10\n')).toMatchObject({
      code: 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH',
      lines: 3,
    });
  });

  it("answers mixed line endings (LF lines in a CRLF block) as csv-parse does: the first line's ending is the record delimiter", () => {
    const text = '1,2,3\r\n4,5,6\n7,8,9\r\n';
    expect(() => reference(text)).toThrow();
    expect(failure(text)).toMatchObject({ code: 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH', lines: 3 });
    const lf = '1,2,3\n4,"a\r\nb",6\n';
    expect(readRecords(Buffer.from(lf), ',')).toEqual(reference(lf));
  });

  it('places an unclosed quote on the line where the quoted field opened, not at the end of the block', () => {
    const text = '1,2,3\n4,5,6\n7,"never closed,9\n10,11,12\n13,14,15\n';
    const e = failure(text);
    expect(e).toMatchObject({
      code: 'CSV_QUOTE_NOT_CLOSED',
      lines: 3,
      message: 'a quoted field opened on this line is never closed',
    });
    // csv-parse alone puts it at the end.
    expect(() => reference(text)).toThrow(/opening quote at line 5/);
  });
});

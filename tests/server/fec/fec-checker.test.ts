/**
 * The FEC checker (src/server/fec/fec-checker.ts) on hand-made files: a good file passes, and
 * each rule of docs/decisions/0037 broken once is reported with its line, entry and rule.
 */
import { describe, expect, it } from 'vitest';
import { checkFec, FEC_FIELDS, type FecRule } from '../../../src/server/fec/fec-checker.ts';

const HEADER = FEC_FIELDS.join('\t');

/** One line of a file from its 18 values. */
function row(values: Partial<Record<(typeof FEC_FIELDS)[number], string>>): string {
  const base: Record<string, string> = {
    JournalCode: 'VE',
    JournalLib: 'Ventes',
    EcritureNum: 'VE000001',
    EcritureDate: '20261201',
    CompteNum: '530',
    CompteLib: 'Caisse',
    CompAuxNum: '',
    CompAuxLib: '',
    PieceRef: 'Z-P01-20261201',
    PieceDate: '20261201',
    EcritureLib: 'Ventes Paris 01/12/2026',
    Debit: '0,00',
    Credit: '0,00',
    EcritureLet: '',
    DateLet: '',
    ValidDate: '20261205',
    Montantdevise: '',
    Idevise: '',
  };
  return FEC_FIELDS.map((f) => values[f] ?? base[f]).join('\t');
}

/** A balanced two-entry file: cash 12,00 = sales 10,00 + VAT 2,00, then a second day. */
function goodLines(): string[] {
  return [
    HEADER,
    row({ Debit: '12,00' }),
    row({ CompteNum: '70711', CompteLib: 'Ventes 20 %', Credit: '10,00' }),
    row({ CompteNum: '445711', CompteLib: 'TVA collectée 20 %', Credit: '2,00' }),
    row({ EcritureNum: 'VE000002', EcritureDate: '20261202', PieceDate: '20261202', Debit: '5,50' }),
    row({
      EcritureNum: 'VE000002',
      EcritureDate: '20261202',
      PieceDate: '20261202',
      CompteNum: '70713',
      CompteLib: 'Ventes 5,5 %',
      Credit: '5,50',
    }),
  ];
}

const text = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

/** The rules reported, as `rule@line`. */
function rules(lines: string[], name?: string): string[] {
  return checkFec(text(lines), name).map((v) => `${v.rule}@${v.line}`);
}

describe('checkFec', () => {
  it('passes a good file, tab or bar separated, with its name', () => {
    expect(checkFec(text(goodLines()), '123456789FEC20261231.txt')).toEqual([]);
    const bar = goodLines().map((l) => l.replaceAll('\t', '|'));
    expect(checkFec(text(bar))).toEqual([]);
  });

  const broken: Array<[string, FecRule, (lines: string[]) => void, number]> = [
    [
      'a missing field in the header',
      'HEADER',
      (l) => {
        l[0] = FEC_FIELDS.slice(0, 17).join('\t');
      },
      1,
    ],
    [
      'fields in another order',
      'HEADER',
      (l) => {
        l[0] = [...FEC_FIELDS].reverse().join('\t');
      },
      1,
    ],
    [
      'a line with a field less',
      'FIELD_COUNT',
      (l) => {
        l[1] = (l[1] ?? '').split('\t').slice(1).join('\t');
      },
      2,
    ],
    [
      'an empty CompteLib',
      'MANDATORY_FIELD',
      (l) => {
        l[2] = row({ CompteNum: '70711', CompteLib: '', Credit: '10,00' });
      },
      3,
    ],
    [
      'an auxiliary number without its label',
      'AUXILIARY_PAIR',
      (l) => {
        l[1] = row({ Debit: '12,00', CompAuxNum: 'C01' });
      },
      2,
    ],
    [
      'a 31st of November',
      'DATE',
      (l) => {
        l[1] = row({ Debit: '12,00', PieceDate: '20261131' });
      },
      2,
    ],
    [
      'an amount with a decimal point',
      'AMOUNT',
      (l) => {
        l[1] = row({ Debit: '12.00' });
      },
      2,
    ],
    [
      'a thousands separator',
      'AMOUNT',
      (l) => {
        l[1] = row({ Debit: '1 012,00' });
      },
      2,
    ],
    [
      'debit and credit on one line',
      'DEBIT_AND_CREDIT',
      (l) => {
        l[1] = row({ Debit: '12,00', Credit: '1,00' });
      },
      2,
    ],
    [
      'an account of class 9',
      'ACCOUNT',
      (l) => {
        l[1] = row({ Debit: '12,00', CompteNum: '930' });
      },
      2,
    ],
    [
      'an account not starting with three digits',
      'ACCOUNT',
      (l) => {
        l[1] = row({ Debit: '12,00', CompteNum: '5A0' });
      },
      2,
    ],
    [
      'ValidDate before EcritureDate',
      'VALID_DATE_BEFORE_ENTRY',
      (l) => {
        l[1] = row({ Debit: '12,00', ValidDate: '20261130' });
      },
      2,
    ],
    [
      'lines of one entry with two dates',
      'ENTRY_FIELDS_DIFFER',
      (l) => {
        l[3] = row({
          CompteNum: '445711',
          CompteLib: 'TVA',
          Credit: '2,00',
          EcritureDate: '20261202',
        });
      },
      4,
    ],
    [
      'a gap in the numbers',
      'ENTRY_NUMBER_SEQUENCE',
      (l) => {
        l[4] = (l[4] ?? '').replace('VE000002', 'VE000003');
        l[5] = (l[5] ?? '').replace('VE000002', 'VE000003');
      },
      5,
    ],
    [
      'an entry number used again later',
      'ENTRY_NUMBER_SEQUENCE',
      (l) => {
        l.push(
          row({ EcritureDate: '20261202', Debit: '1,00' }),
          row({ EcritureDate: '20261202', CompteNum: '758', CompteLib: 'Produits divers', Credit: '1,00' }),
        );
      },
      7,
    ],
    [
      'an entry dated before the previous one',
      'CHRONOLOGY',
      (l) => {
        l[4] = (l[4] ?? '').replaceAll('20261202', '20261130');
        l[5] = (l[5] ?? '').replaceAll('20261202', '20261130');
      },
      5,
    ],
  ];
  for (const [what, rule, breakIt, line] of broken) {
    it(`reports ${rule} for ${what}`, () => {
      const lines = goodLines();
      breakIt(lines);
      expect(rules(lines)).toContain(`${rule}@${line}`);
    });
  }

  it('reports an unbalanced entry at its first line and the unbalanced file, with the entry number', () => {
    const lines = goodLines();
    lines[3] = row({ CompteNum: '445711', CompteLib: 'TVA collectée 20 %', Credit: '2,01' });
    const found = checkFec(text(lines));
    expect(found).toContainEqual({ line: 2, entry: 'VE000001', rule: 'ENTRY_UNBALANCED' });
    expect(found.map((v) => v.rule)).toContain('FILE_UNBALANCED');
    expect(found.filter((v) => v.entry === 'VE000002')).toEqual([]);
  });

  it('names the empty field and the entry of a mandatory field left out', () => {
    const lines = goodLines();
    lines[2] = row({ CompteNum: '70711', CompteLib: '', Credit: '10,00' });
    expect(checkFec(text(lines))).toEqual([
      { line: 3, entry: 'VE000001', rule: 'MANDATORY_FIELD', field: 'CompteLib' },
    ]);
  });

  it('refuses a file without a header, one with two separators, and a wrong file name', () => {
    expect(rules([''])).toEqual(['EMPTY_FILE@1']);
    const both = goodLines();
    both[0] = `${HEADER}|x`;
    expect(rules(both)).toEqual(['SEPARATOR@1']);
    expect(rules(goodLines(), '12345678FEC20261231.txt')).toEqual(['FILE_NAME@0']);
    expect(rules(goodLines(), '123456789FEC20261232.txt')).toEqual(['FILE_NAME@0']);
    expect(rules(goodLines(), '123456789FEC20261231.csv')).toEqual(['FILE_NAME@0']);
  });
});

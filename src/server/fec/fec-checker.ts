/**
 * A checker of the Fichier des Écritures Comptables (FEC) against the official rules, written
 * from article A. 47 A-1 of the Livre des procédures fiscales and BOI-CF-IOR-60-40-20 as
 * docs/decisions/0037-fec-format-and-sales-entries.md lists them — on purpose without reading
 * the generator, so that a mistake in one is not copied into the other.
 *
 * It reads a decoded file (text, the encoding already undone) and lists every violation it finds,
 * each with its line (1-based, the header is line 1), the entry number (`EcritureNum`, or null
 * when the line has none or is not an entry) and the rule broken ({@link FecRule}). An empty
 * list means the file passes.
 */

/** The 18 mandatory fields of A. 47 A-1, in order, with their header names. */
export const FEC_FIELDS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

/** A field's header name. */
export type FecField = (typeof FEC_FIELDS)[number];

/**
 * The rules the checker knows, stable codes (a refused export names them):
 *
 * - `EMPTY_FILE`: no header line;
 * - `SEPARATOR`: the header is split by neither a tab nor `|`, or the header holds both;
 * - `HEADER`: the header does not name the 18 fields in order;
 * - `FIELD_COUNT`: a record has not as many fields as the header;
 * - `MANDATORY_FIELD`: a mandatory field is empty (JournalCode, JournalLib, EcritureNum,
 *   EcritureDate, CompteNum, CompteLib, PieceRef, PieceDate, EcritureLib, Debit, Credit, ValidDate);
 * - `AUXILIARY_PAIR`: CompAuxNum given without CompAuxLib or the reverse;
 * - `DATE`: a date field is not a real `AAAAMMJJ` date;
 * - `AMOUNT`: Debit, Credit or Montantdevise not a decimal with a comma and no thousands
 *   separator (digits, optionally `,` and decimals, optionally a leading minus);
 * - `DEBIT_AND_CREDIT`: both Debit and Credit non-zero on one line;
 * - `ACCOUNT`: CompteNum does not start with three digits of the PCG (classes 1 to 8 for the
 *   first);
 * - `VALID_DATE_BEFORE_ENTRY`: ValidDate earlier than EcritureDate;
 * - `ENTRY_FIELDS_DIFFER`: lines of one EcritureNum disagree on journal, EcritureDate or ValidDate;
 * - `ENTRY_NUMBER_SEQUENCE`: an entry number used again after another entry, or not following
 *   the previous one of its journal without a gap (numbers are compared by their trailing digits
 *   and their prefix);
 * - `CHRONOLOGY`: an entry dated before the previous entry of its journal;
 * - `ENTRY_UNBALANCED`: an entry's debits differ from its credits;
 * - `FILE_UNBALANCED`: the file's debits differ from its credits;
 * - `FILE_NAME`: the file name is not `<SIREN>FEC<AAAAMMJJ>.txt` (checked only when given).
 */
export type FecRule =
  | 'EMPTY_FILE'
  | 'SEPARATOR'
  | 'HEADER'
  | 'FIELD_COUNT'
  | 'MANDATORY_FIELD'
  | 'AUXILIARY_PAIR'
  | 'DATE'
  | 'AMOUNT'
  | 'DEBIT_AND_CREDIT'
  | 'ACCOUNT'
  | 'VALID_DATE_BEFORE_ENTRY'
  | 'ENTRY_FIELDS_DIFFER'
  | 'ENTRY_NUMBER_SEQUENCE'
  | 'CHRONOLOGY'
  | 'ENTRY_UNBALANCED'
  | 'FILE_UNBALANCED'
  | 'FILE_NAME';

/** One violation: where and which rule; `field` names the field when the rule is about one. */
export interface FecViolation {
  /** 1-based line of the file (the header is line 1); 0 for the file name. */
  line: number;
  /** The entry's EcritureNum, or null for the header, the file name or the file's balance. */
  entry: string | null;
  rule: FecRule;
  field?: FecField;
}

const MANDATORY: readonly FecField[] = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'ValidDate',
];
const DATE_FIELDS: readonly FecField[] = ['EcritureDate', 'PieceDate', 'DateLet', 'ValidDate'];
const AMOUNT = /^-?\d+(,\d+)?$/;
const ACCOUNT = /^[1-8]\d\d/;
const NAME = /^\d{9}FEC(\d{8})\.txt$/;

/** True when `text` is `AAAAMMJJ` and names a day of the calendar. */
function isDate(text: string): boolean {
  if (!/^\d{8}$/.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An amount in cents (hundredths), read from a checked decimal-comma text; extra decimals rounded. */
function cents(text: string): number {
  if (text === '') return 0;
  const [whole, fraction = ''] = text.replace('-', '').split(',');
  const value = Number(whole) * 100 + Math.round(Number(`0.${fraction || '0'}`) * 100);
  return text.startsWith('-') ? -value : value;
}

/** The prefix and the trailing number of an EcritureNum (`VE000012` → `VE`, 12). */
function splitNumber(entry: string): { prefix: string; n: number | null } {
  const match = /^(.*?)(\d+)$/.exec(entry);
  return match ? { prefix: match[1] ?? '', n: Number(match[2]) } : { prefix: entry, n: null };
}

interface EntryState {
  journal: string;
  date: string;
  valid: string;
  debit: number;
  credit: number;
  firstLine: number;
}

/** Checks the file name, when given, against `<SIREN>FEC<AAAAMMJJ>.txt`. */
function checkName(fileName: string | undefined, violations: FecViolation[]): void {
  if (fileName === undefined) return;
  const match = NAME.exec(fileName);
  if (!match || !isDate(match[1] ?? '')) violations.push({ line: 0, entry: null, rule: 'FILE_NAME' });
}

/** The header's separator, or null (with its violation) when the header is missing or wrong. */
function checkHeader(header: string | undefined, violations: FecViolation[]): string | null {
  if (header === undefined || header === '') {
    violations.push({ line: 1, entry: null, rule: 'EMPTY_FILE' });
    return null;
  }
  const hasTab = header.includes('\t');
  if (hasTab === header.includes('|')) {
    violations.push({ line: 1, entry: null, rule: 'SEPARATOR' });
    return null;
  }
  const separator = hasTab ? '\t' : '|';
  const names = header.split(separator);
  if (names.length !== FEC_FIELDS.length || FEC_FIELDS.some((name, i) => names[i] !== name)) {
    violations.push({ line: 1, entry: null, rule: 'HEADER' });
    return null;
  }
  return separator;
}

type Add = (rule: FecRule, field?: FecField) => void;

/** The rules of one line on its own; answers its debit and credit in cents (0 when unreadable). */
function checkRecord(record: Record<FecField, string>, add: Add): { debit: number; credit: number } {
  for (const field of MANDATORY) if (record[field] === '') add('MANDATORY_FIELD', field);
  if ((record.CompAuxNum === '') !== (record.CompAuxLib === '')) add('AUXILIARY_PAIR');
  for (const field of DATE_FIELDS) {
    if (record[field] !== '' && !isDate(record[field])) add('DATE', field);
  }
  let amountsRead = true;
  for (const field of ['Debit', 'Credit', 'Montantdevise'] as const) {
    if (record[field] !== '' && !AMOUNT.test(record[field])) {
      add('AMOUNT', field);
      amountsRead = false;
    }
  }
  const debit = amountsRead ? cents(record.Debit) : 0;
  const credit = amountsRead ? cents(record.Credit) : 0;
  if (debit !== 0 && credit !== 0) add('DEBIT_AND_CREDIT');
  if (record.CompteNum !== '' && !ACCOUNT.test(record.CompteNum)) add('ACCOUNT', 'CompteNum');
  if (isDate(record.EcritureDate) && isDate(record.ValidDate) && record.ValidDate < record.EcritureDate) {
    add('VALID_DATE_BEFORE_ENTRY', 'ValidDate');
  }
  return { debit, credit };
}

/** What the checker remembers across lines: the entries met, the last entry of each journal. */
interface Sequence {
  entries: Map<string, EntryState>;
  lastOfJournal: Map<string, { prefix: string; n: number | null; date: string }>;
  current: string | null;
}

/** The rules between lines: numbering, chronology, one entry's lines agreeing; sums the entry. */
function checkSequence(
  record: Record<FecField, string>,
  entry: string,
  line: number,
  amounts: { debit: number; credit: number },
  state: Sequence,
  add: Add,
): void {
  const known = state.entries.get(entry);
  if (known) {
    if (state.current !== entry) add('ENTRY_NUMBER_SEQUENCE', 'EcritureNum');
    if (
      known.journal !== record.JournalCode ||
      known.date !== record.EcritureDate ||
      known.valid !== record.ValidDate
    ) {
      add('ENTRY_FIELDS_DIFFER');
    }
    known.debit += amounts.debit;
    known.credit += amounts.credit;
  } else {
    const number = splitNumber(entry);
    const previous = state.lastOfJournal.get(record.JournalCode);
    if (previous) {
      if (
        number.n === null ||
        previous.n === null ||
        number.prefix !== previous.prefix ||
        number.n !== previous.n + 1
      ) {
        add('ENTRY_NUMBER_SEQUENCE', 'EcritureNum');
      }
      if (isDate(record.EcritureDate) && record.EcritureDate < previous.date) {
        add('CHRONOLOGY', 'EcritureDate');
      }
    }
    state.lastOfJournal.set(record.JournalCode, { ...number, date: record.EcritureDate });
    state.entries.set(entry, {
      journal: record.JournalCode,
      date: record.EcritureDate,
      valid: record.ValidDate,
      ...amounts,
      firstLine: line,
    });
  }
  state.current = entry;
}

/**
 * Checks a FEC file. `text` is the decoded content (CR LF or LF line ends); `fileName`, when
 * given, is checked against `<SIREN>FEC<AAAAMMJJ>.txt`. Returns every violation, in file order
 * (entry balances at the entry's first line, the file's balance last).
 */
export function checkFec(text: string, fileName?: string): FecViolation[] {
  const violations: FecViolation[] = [];
  checkName(fileName, violations);
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const separator = checkHeader(lines[0], violations);
  if (separator === null) return violations;

  const state: Sequence = { entries: new Map(), lastOfJournal: new Map(), current: null };
  let fileDebit = 0;
  let fileCredit = 0;
  for (let index = 1; index < lines.length; index++) {
    const line = index + 1;
    const values = (lines[index] ?? '').split(separator);
    if (values.length !== FEC_FIELDS.length) {
      violations.push({ line, entry: null, rule: 'FIELD_COUNT' });
      continue;
    }
    const record = Object.fromEntries(FEC_FIELDS.map((name, i) => [name, values[i] ?? ''])) as Record<
      FecField,
      string
    >;
    const entry = record.EcritureNum === '' ? null : record.EcritureNum;
    const add: Add = (rule, field) =>
      violations.push(field ? { line, entry, rule, field } : { line, entry, rule });
    const amounts = checkRecord(record, add);
    fileDebit += amounts.debit;
    fileCredit += amounts.credit;
    if (entry !== null) checkSequence(record, entry, line, amounts, state, add);
  }
  for (const [entry, entryState] of state.entries) {
    if (entryState.debit !== entryState.credit) {
      violations.push({ line: entryState.firstLine, entry, rule: 'ENTRY_UNBALANCED' });
    }
  }
  if (fileDebit !== fileCredit) {
    violations.push({ line: lines.length, entry: null, rule: 'FILE_UNBALANCED' });
  }
  return violations.sort((a, b) => a.line - b.line);
}

/**
 * Reading the lines of a sales file: CSV records (Papa Parse; csv-parse to locate errors), dates
 * (date-fns), exact amounts and VAT, with the first bad field reported as
 * `file:line:column (Column): reason`; and the {@link Assembler} that turns them into finished
 * `ticket_lines` COPY rows and ticket totals.
 *
 * Input comes as blocks of whole records cut at record boundaries (blocks.ts), in file order.
 * Everything crossing the worker-thread boundary is plain, structured-clone friendly data.
 */
import { createRequire } from 'node:module';
import { tz } from '@date-fns/tz';
import { CsvError, parse as parseCsvSync } from 'csv-parse/sync';
import Papa from 'papaparse';
import { copyText } from './copy.ts';
import type { ImportLocation } from './import-error.ts';
import {
  type Decimal,
  decimalFromNumber,
  decimalText,
  exclVatCents,
  lineAmountCents,
  parseDecimal,
  roundDiv,
  roundDivInt,
  toCents,
} from './decimal.ts';
import { joiner, LookupMiss, type LookupTable } from './lookups.ts';
import type { Mapping } from './mapping.ts';

// date-fns through its CommonJS build: the ES module build loads as hundreds of separate modules,
// which every import worker thread would load before reading its first block.
const { parse: parseDate } = createRequire(import.meta.url)(
  'date-fns/parse',
) as typeof import('date-fns/parse');

const REFERENCE_DATE = new Date(2000, 0, 1);
const UTC = tz('UTC');

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * Parses wall-clock date-times with a date-fns format, memoised per text (exports repeat the
 * same time on every line of a ticket, and date-fns parsing is slow next to a map lookup).
 * Returns `YYYY-MM-DD HH:mm:ss` or null when the text does not match the format.
 */
export function wallClockParser(format: string): (text: string) => string | null {
  const memo = new Map<string, string | null>();
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    let value: string | null = null;
    const d = parseDate(text, format, REFERENCE_DATE);
    if (!Number.isNaN(d.getTime())) {
      // date-fns builds the date in the process's zone; around a DST change a wall time can
      // shift or not exist there, so parse those few in UTC where every wall time exists.
      const offset = d.getTimezoneOffset();
      const near = (h: number) => new Date(d.getTime() + h * 3_600_000).getTimezoneOffset();
      if (near(-3) !== offset || near(3) !== offset) {
        const u = parseDate(text, format, REFERENCE_DATE, { in: UTC });
        value = `${u.getUTCFullYear()}-${pad2(u.getUTCMonth() + 1)}-${pad2(u.getUTCDate())} ${pad2(u.getUTCHours())}:${pad2(u.getUTCMinutes())}:${pad2(u.getUTCSeconds())}`;
      } else {
        value = `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
      }
      const year = Number(value.slice(0, 4));
      if (year < 1900 || year > 2999) value = null;
    }
    memo.set(text, value);
    return value;
  };
}

/** Payment methods of the schema, from the words tills write. */
export function paymentMethod(raw: string): string | null {
  const w = raw
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  if (w === '') return null;
  if (/^(cash|especes?|liquide|bar)$/.test(w)) return 'CASH';
  if (
    /^(card|cards|carte|cb|carte bancaire|credit card|debit card|visa|mastercard|amex|kreditkarte|ec)$/.test(
      w,
    )
  )
    return 'CARD';
  if (/(meal voucher|ticket restaurant|titre restaurant|ticket resto|swile|^tr$|essensgutschein)/.test(w))
    return 'MEAL_VOUCHER';
  if (/^(cheque|check|scheck)$/.test(w)) return 'CHEQUE';
  return 'OTHER';
}

/** What every block reader needs to know: the mapping, the header and the price list. */
export interface BlockSetup {
  file: string;
  mapping: Mapping;
  /** The file's header, then the `<name>.<column>` columns of the mapping's lookups. */
  header: string[];
  /** Mapping key (`ticket`, `quantity`…) → 0-based field index in the (widened) record. */
  index: Record<string, number>;
  prices: Map<string, Decimal> | null;
  /** Number of columns of the file itself (the header's first ones); absent = the whole header. */
  fileColumns?: number;
  /** Joined files (lookups.ts), in the mapping's order; absent or empty when none. */
  lookups?: LookupTable[];
  /**
   * Wide format: indices (in the widened record) of the product columns. Each record is melted
   * into one record per product with a quantity, the product's header and its quantity appended
   * at `index.article` and `index.quantity`.
   */
  wide?: { columns: number[] };
  /**
   * Smallest amount of the site's currency, in cents: 1 for EUR, GBP, USD; 100 for a currency
   * without minor unit (KRW, JPY), whose line amounts and amounts excl. VAT are then whole units.
   */
  centsStep?: number;
}

/** The first bad line of a block. */
export interface BlockError {
  reason: string;
  location?: ImportLocation;
}

/** A field that cannot be read: mapping key of its column and why. */
class FieldProblem {
  readonly key: string;
  readonly reason: string;
  constructor(key: string, reason: string) {
    this.key = key;
    this.reason = reason;
  }
}

/** One line, read: reused from line to line (no allocation per line). */
interface LineValues {
  ref: string;
  wall: string;
  negative: boolean;
  amount: number;
  excl: number;
  terminal: number;
  seller: string | null;
  method: string | null;
  /** COPY text after `site_id, ticket_id, line_no`. */
  suffix: string;
  /** COPY text of the line's family and VAT rate (`family\tvat_rate`): its group in the aggregates. */
  group: string;
  /** The quantity as `ticket_lines.quantity` stores it (numeric(14,3)): thousandths, rounded half away from zero. */
  milli: bigint;
}

/** A {@link LineValues} to fill, reused line after line (no terminal yet: -1). */
function emptyLineValues(): LineValues {
  return {
    ref: '',
    wall: '',
    negative: false,
    amount: 0,
    excl: 0,
    terminal: -1,
    seller: null,
    method: null,
    suffix: '',
    group: '',
    milli: 0n,
  };
}

const THOUSANDTHS: bigint[] = [1000n, 100n, 10n, 1n];

/** `value` in thousandths, rounded half away from zero as PostgreSQL rounds it into a numeric of scale 3. */
function thousandths(value: Decimal): bigint {
  const up = THOUSANDTHS[value.scale];
  return up === undefined ? roundDiv(value.units, 10n ** BigInt(value.scale - 3)) : value.units * up;
}

/** The trimmed field of mapping key `key` in a record ('' when the mapping has no such column). */
function fieldOf(index: Record<string, number>): (record: string[], key: string) => string {
  return (record, key) => {
    const i = index[key];
    return i === undefined ? '' : (record[i] ?? '').trim();
  };
}

/**
 * Reads a record's wall-clock date-time (`YYYY-MM-DD HH:mm:ss`), from one `datetime` column or
 * from `date` and `time`, or throws a FieldProblem naming the column that does not match.
 */
function wallClockReader(mapping: Mapping, index: Record<string, number>): (record: string[]) => string {
  const parseWall = wallClockParser(mapping.dateFormat);
  const parseDateTime = wallClockParser(`${mapping.dateFormat} ${mapping.timeFormat ?? ''}`);
  const field = fieldOf(index);
  const iDatetime = index.datetime;
  return (record) => {
    if (iDatetime !== undefined) {
      const raw = record[iDatetime] ?? '';
      const wall = parseWall(raw.trim());
      if (wall === null)
        throw new FieldProblem('datetime', `"${raw}" is not a date matching "${mapping.dateFormat}"`);
      return wall;
    }
    const dateText = field(record, 'date');
    const timeText = field(record, 'time');
    const wall = parseDateTime(`${dateText} ${timeText}`);
    if (wall === null) {
      if (parseWall(dateText) === null)
        throw new FieldProblem('date', `"${dateText}" is not a date matching "${mapping.dateFormat}"`);
      throw new FieldProblem('time', `"${timeText}" is not a time matching "${mapping.timeFormat}"`);
    }
    return wall;
  };
}

/** Reads one CSV record into `values`, or throws a FieldProblem. */
function lineReader(setup: BlockSetup): (record: string[], values: LineValues) => void {
  const { mapping, index, prices } = setup;
  const cols = mapping.columns;
  const decimalMark = mapping.decimal;
  const defaultVat = mapping.vatRate === undefined ? null : decimalFromNumber(mapping.vatRate);
  const defaultVatText = defaultVat ? decimalText(defaultVat) : '';
  const defaultGroup = `\\N\t${defaultVatText}`;
  const cancelPrefix = mapping.cancellation?.ticketPrefix ?? null;
  const step = setup.centsStep ?? 1;
  const field = fieldOf(index);
  const readWall = wallClockReader(mapping, index);
  const optional = (record: string[], key: string): string | null => {
    const v = field(record, key);
    return v === '' ? null : v;
  };
  const iTicket = index.ticket as number;
  const iQuantity = index.quantity as number;
  const iArticle = index.article as number;

  return (record, values) => {
    const ref = (record[iTicket] ?? '').trim();
    if (ref === '') throw new FieldProblem('ticket', 'empty ticket value');

    const wall = readWall(record);

    const quantityText = record[iQuantity] ?? '';
    const quantity = parseDecimal(quantityText, decimalMark);
    if (!quantity) throw new FieldProblem('quantity', `"${quantityText}" is not a number`);
    if (cancelPrefix !== null && quantity.units > 0n && ref.startsWith(cancelPrefix))
      quantity.units = -quantity.units;

    const article = (record[iArticle] ?? '').trim();
    let price: Decimal | null | undefined = null;
    const priceText = cols.unitPrice ? field(record, 'unitPrice') : '';
    if (priceText !== '') {
      price = parseDecimal(priceText, decimalMark);
      if (!price) throw new FieldProblem('unitPrice', `"${priceText}" is not a number`);
    } else {
      price = prices?.get(article);
      if (!price)
        throw new FieldProblem(
          'article',
          `no price for article "${article}"${prices ? ' in the price list' : ''}`,
        );
    }

    let vat = defaultVat;
    let vatText = defaultVatText;
    if (cols.vatRate) {
      const rate = field(record, 'vatRate').replace('%', '').trim();
      if (rate !== '' || !defaultVat) {
        const percent = parseDecimal(rate, decimalMark);
        if (!percent) throw new FieldProblem('vatRate', `"${rate}" is not a VAT rate in percent`);
        vat = { units: percent.units, scale: percent.scale + 2 };
        vatText = decimalText(vat);
      }
    }
    if (!vat) throw new FieldProblem('vatRate', 'no VAT rate');

    let terminal = -1;
    if (cols.terminal) {
      const t = field(record, 'terminal');
      if (t !== '') {
        if (!/^\d{1,9}$/.test(t)) throw new FieldProblem('terminal', `"${t}" is not a terminal number`);
        terminal = Number(t);
      }
    }
    const paymentText = cols.payment ? optional(record, 'payment') : null;

    let amount = lineAmountCents(quantity, price);
    let excl: number;
    if (step === 1) excl = exclVatCents(amount, vat);
    else {
      // Whole units of a currency without cents: round the amount, then take VAT out of it in units.
      amount = roundDivInt(amount, step) * step;
      excl = exclVatCents(amount / step, vat) * step;
    }
    values.ref = ref;
    values.wall = wall;
    values.negative = quantity.units < 0n;
    values.amount = amount;
    values.excl = excl;
    values.terminal = terminal;
    values.seller = cols.seller ? optional(record, 'seller') : null;
    values.method = paymentText === null ? null : paymentMethod(paymentText);
    const family = cols.family ? copyText(optional(record, 'family')) : '\\N';
    // Without a family column most lines share one key: reuse its string rather than build one per line.
    values.group = cols.family || vatText !== defaultVatText ? `${family}\t${vatText}` : defaultGroup;
    values.milli = thousandths(quantity);
    values.suffix = `${cols.articleCode ? copyText(optional(record, 'articleCode')) : '\\N'}\t${copyText(article)}\t${family}\t${decimalText(quantity)}\t${toCents(price)}\t${amount}\t${vatText}\t${excl}\t${amount - excl}`;
  };
}

/** A ticket's lines of one family and VAT rate, summed (what the family and VAT aggregates need). */
interface LineGroup {
  /** `family\tvat_rate` in COPY text. */
  key: string;
  /** Σ quantity in thousandths. */
  milli: bigint;
  net: number;
  excl: number;
  lines: number;
}

/** What the import learns of one ticket value while reading its lines. */
interface TicketAcc {
  /** Ticket id from `ticket_id_seq`, or 0 when the ticket is already in the database. */
  id: number;
  firstWall: string;
  lines: number;
  allNegative: boolean;
  total: number;
  excl: number;
  terminal: number | null;
  seller: string | null;
  payments: Map<string, number> | null;
  /** The group of the ticket's first line; most tickets have no other. */
  group: LineGroup;
  /** The other groups, by key, once a line falls outside the first one. */
  groups: Map<string, LineGroup> | null;
}

/** Everything after the lines: COPY text of the staged tickets and of the payments. */
export interface AssemblySummary {
  linesRead: number;
  ticketsRead: number;
  ticketsInserted: number;
  /** Rows for `import_tickets (ticket_id, ref, local_ts, kind, terminal_id, seller_code, total, excl)`. */
  tickets: string;
  /** Rows for `payments (site_id, ticket_id, payment_no, method, amount_cents)`. */
  payments: string;
  /**
   * Rows for `import_line_groups (ticket_id, family, vat_rate, quantity, net, excl, lines)`: the
   * new tickets' lines summed per ticket, family and VAT rate (aggregates.ts reads them instead of
   * the lines when the load's tickets are all the tickets of their days).
   */
  lineGroups: string;
  paymentCount: number;
  terminals: number[];
  sellers: string[];
}

/**
 * The records of a block of whole records (UTF-8), empty lines skipped, as csv-parse reads them.
 *
 * Papa Parse reads them first: several times faster than csv-parse, and the reader thread's CPU
 * is what the import waits for (decision record 0010 has the figures). When Papa
 * Parse sees a quoting problem, or a record is not as wide as the block's first, csv-parse reads
 * the block again: it says what is wrong and on which line, the way the import always has.
 * A quote that does not open or close a quoted field (`12" pizza`, `"ab"c`) is kept as text by
 * both (csv-parse's `relax_quotes`); csv-parse refused such records before decision record 0010.
 * @throws CsvError (csv-parse: `code`, `lines`: 1-based line of the block) for a block it cannot
 *   read; for an unclosed quote, `lines` is the line where the quoted field opened.
 */
export function readRecords(bytes: Buffer, delimiter: string): string[][] {
  const text = bytes.toString('utf8');
  // One record delimiter for the whole block, so both readers cut the same records: LF, or CRLF
  // when every CR and LF of the block come as CRLF. Otherwise csv-parse reads it (its delimiter
  // is the block's first line ending).
  const cr = text.includes('\r');
  if (cr) {
    const crlf = occurrences(text, '\r\n');
    if (occurrences(text, '\r') !== crlf || occurrences(text, '\n') !== crlf)
      return parseCsv(bytes, text, delimiter, null);
  }
  const fast = Papa.parse<string[]>(text, { delimiter, newline: cr ? '\r\n' : '\n', skipEmptyLines: true });
  const records = fast.data;
  let regular = fast.errors.length === 0;
  const width = records[0]?.length ?? 0;
  for (let i = 1; regular && i < records.length; i++) regular = (records[i] as string[]).length === width;
  if (regular) return records;
  return parseCsv(bytes, text, delimiter, fast.errors.find((f) => f.code === 'MissingQuotes')?.index ?? null);
}

/** How many times `part` occurs in `text`. */
function occurrences(text: string, part: string): number {
  let n = 0;
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length)) n++;
  return n;
}

/**
 * csv-parse's reading of a block (`text` is `bytes` decoded); `opened`: where Papa Parse saw a
 * quoted field that never closes (an index in `text`), or null.
 */
function parseCsv(bytes: Buffer, text: string, delimiter: string, opened: number | null): string[][] {
  try {
    return parseCsvSync(bytes, { delimiter, skip_empty_lines: true, relax_quotes: true }) as string[][];
  } catch (e) {
    // csv-parse finds an unclosed quote at the end of the file (a block runs to the end when a
    // quote never closes); the line to fix is where the quoted field opened, which Papa Parse knows.
    const csv = e as { code?: string; lines?: number; message?: string };
    if (csv.code === 'CSV_QUOTE_NOT_CLOSED' && opened !== null) {
      let line = 1;
      for (let i = text.indexOf('\n'); i >= 0 && i < opened; i = text.indexOf('\n', i + 1)) line++;
      csv.lines = line;
      csv.message = 'a quoted field opened on this line is never closed';
    }
    throw e;
  }
}

/** The physical line of each record of `bytes` (only needed to report an error). */
function recordLines(bytes: Buffer, delimiter: string, firstLine: number): number[] {
  const lines: number[] = [];
  parseCsvSync(bytes, {
    delimiter,
    skip_empty_lines: true,
    relax_quotes: true,
    on_record: (record: string[], context: { lines: number }) => {
      lines.push(firstLine + context.lines - 1);
      return record;
    },
  });
  return lines;
}

/**
 * The lines of one block, read and checked, column by column (plain arrays: they cross the
 * worker-thread boundary by structured clone). Line `i` of the block is `refs[i]`, `walls[i]`…
 */
export interface ReadLines {
  refs: string[];
  walls: string[];
  negative: boolean[];
  amounts: number[];
  excls: number[];
  /** -1 when the line has no terminal. */
  terminals: number[];
  sellers: (string | null)[];
  methods: (string | null)[];
  /** COPY text after `site_id, ticket_id, line_no`. */
  suffixes: string[];
  groups: string[];
  milli: bigint[];
  /** Records of the file read (a wide record melted into several lines counts once). */
  read: number;
  /** The block's first bad line: the lines before it are in the arrays. */
  error?: BlockError;
}

/**
 * Reads blocks of records into {@link ReadLines}: {@link readRecords}, lookups, wide melting, then
 * each line's values (dates, exact amounts, VAT). Holds no state from block to block, so blocks
 * can be read by several threads at once; the {@link Assembler} puts them back in file order.
 */
export class BlockReader {
  private readonly readLine: (record: string[], values: LineValues) => void;
  private readonly join: ReturnType<typeof joiner> | null;
  /** Melts a wide record into one record per product with a quantity (and the product column of each). */
  private readonly melt: ((record: string[]) => { record: string[]; column: number }[]) | null;
  private readonly setup: BlockSetup;

  constructor(setup: BlockSetup) {
    this.setup = setup;
    this.readLine = lineReader(setup);
    this.join = setup.lookups?.length
      ? joiner(setup.lookups, setup.fileColumns ?? setup.header.length)
      : null;
    const wide = setup.wide;
    const width = setup.header.length;
    this.melt = wide
      ? (record) => {
          const out: { record: string[]; column: number }[] = [];
          for (const j of wide.columns) {
            const quantity = (record[j] ?? '').trim();
            if (quantity === '') continue;
            const melted = record.slice(0, width);
            while (melted.length < width) melted.push('');
            melted.push(setup.header[j] as string, quantity);
            out.push({ record: melted, column: j });
          }
          return out;
        }
      : null;
  }

  /** Reads one block (UTF-8 bytes of whole records starting at physical line `firstLine`). */
  read(bytes: Buffer, firstLine: number): ReadLines {
    const { file, header, index, mapping } = this.setup;
    const lines: ReadLines = {
      refs: [],
      walls: [],
      negative: [],
      amounts: [],
      excls: [],
      terminals: [],
      sellers: [],
      methods: [],
      suffixes: [],
      groups: [],
      milli: [],
      read: 0,
    };
    const v = emptyLineValues();
    const keep = () => {
      lines.refs.push(v.ref);
      lines.walls.push(v.wall);
      lines.negative.push(v.negative);
      lines.amounts.push(v.amount);
      lines.excls.push(v.excl);
      lines.terminals.push(v.terminal);
      lines.sellers.push(v.seller);
      lines.methods.push(v.method);
      lines.suffixes.push(v.suffix);
      lines.groups.push(v.group);
      lines.milli.push(v.milli);
    };
    let records: string[][];
    try {
      records = readRecords(bytes, mapping.delimiter);
    } catch (e) {
      if (e instanceof CsvError) {
        const at = (e as CsvError & { lines?: number }).lines ?? 1;
        lines.error = {
          reason: `unreadable CSV: ${e.message}`,
          location: { file, line: firstLine + at - 1 },
        };
        return lines;
      }
      throw e;
    }
    for (let k = 0; k < records.length; k++) {
      let column = -1;
      try {
        const record = records[k] as string[];
        const widened = this.join ? this.join.widen(record) : record;
        if (this.melt) {
          for (const part of this.melt(widened)) {
            column = part.column;
            this.readLine(part.record, v);
            keep();
          }
        } else {
          this.readLine(widened, v);
          keep();
        }
      } catch (e) {
        if (!(e instanceof FieldProblem) && !(e instanceof LookupMiss)) throw e;
        lines.read = k;
        let i = e instanceof LookupMiss ? e.column : (index[e.key] ?? -1);
        // The article and quantity of a melted wide record come from its product column.
        if (column >= 0 && (i === index.article || i === index.quantity)) i = column;
        // A bad value brought by a lookup is located in the lookup file's row.
        const joined = e instanceof LookupMiss ? e.location : (this.join?.locate(i) ?? null);
        if (joined) {
          lines.error = { reason: e.reason, location: joined };
          return lines;
        }
        const line = recordLines(bytes, mapping.delimiter, firstLine)[k] ?? firstLine;
        lines.error = {
          reason: e.reason,
          location: {
            file,
            line,
            column: i + 1,
            columnName: header[i] ?? (e instanceof FieldProblem ? e.key : ''),
          },
        };
        return lines;
      }
    }
    lines.read = records.length;
    return lines;
  }
}

/**
 * Turns the lines of each block ({@link ReadLines}, in file order) into finished `ticket_lines`
 * COPY rows: groups lines by ticket value, numbers them, gives each new ticket an id (asked for
 * in batches through `takeIds`), skips the tickets already present, and sums what the ticket rows
 * and the family and VAT aggregates need. One per import, on the thread that feeds PostgreSQL.
 */
export class Assembler {
  private readonly tickets = new Map<string, TicketAcc>();
  private readonly present: Set<string>;
  private ids: number[] = [];
  private nextId = 0;
  private linesRead = 0;
  private readonly setup: BlockSetup & { siteId: number; present: string[] };
  private readonly takeIds: () => Promise<number[]>;
  private reader: BlockReader | undefined;

  /** @param takeIds gives the next batch of ticket ids reserved from `ticket_id_seq`. */
  constructor(setup: BlockSetup & { siteId: number; present: string[] }, takeIds: () => Promise<number[]>) {
    this.setup = setup;
    this.takeIds = takeIds;
    this.present = new Set(setup.present);
  }

  private async refill(): Promise<void> {
    this.ids = await this.takeIds();
    this.nextId = 0;
  }

  /** True when the line just read opens a new ticket and no reserved id is left for it. */
  private needsIds(v: LineValues): boolean {
    return this.nextId >= this.ids.length && !this.tickets.has(v.ref) && !this.present.has(v.ref);
  }

  /**
   * Adds the line just read to its ticket and its COPY row to `out` (synchronous: the hot loop
   * awaits only when {@link needsIds} says a batch of ids must be fetched first).
   */
  private addLine(v: LineValues, out: string[]): void {
    let t = this.tickets.get(v.ref);
    if (!t) {
      const id = this.present.has(v.ref) ? 0 : (this.ids[this.nextId++] as number);
      t = {
        id,
        firstWall: v.wall,
        lines: 0,
        allNegative: true,
        total: 0,
        excl: 0,
        terminal: null,
        seller: null,
        payments: null,
        group: { key: v.group, milli: 0n, net: 0, excl: 0, lines: 0 },
        groups: null,
      };
      this.tickets.set(v.ref, t);
    } else if (v.wall < t.firstWall) {
      t.firstWall = v.wall;
    }
    let g = t.group;
    if (g.key !== v.group) {
      t.groups ??= new Map();
      let other = t.groups.get(v.group);
      if (!other) {
        other = { key: v.group, milli: 0n, net: 0, excl: 0, lines: 0 };
        t.groups.set(v.group, other);
      }
      g = other;
    }
    g.milli += v.milli;
    g.net += v.amount;
    g.excl += v.excl;
    g.lines++;
    t.lines++;
    if (!v.negative) t.allNegative = false;
    t.total += v.amount;
    t.excl += v.excl;
    if (v.terminal >= 0 && (t.terminal === null || v.terminal < t.terminal)) t.terminal = v.terminal;
    if (v.seller !== null && (t.seller === null || v.seller < t.seller)) t.seller = v.seller;
    if (v.method !== null) {
      t.payments ??= new Map();
      t.payments.set(v.method, (t.payments.get(v.method) ?? 0) + v.amount);
    }
    if (t.id !== 0) out.push(`${this.setup.siteId}\t${t.id}\t${t.lines}\t${v.suffix}`);
  }

  /**
   * Adds the lines of the next block (in file order).
   * @returns the COPY text of its new lines, their count, the records read, and the block's
   *   first bad line if any (the lines before it are in the text).
   */
  async add(lines: ReadLines): Promise<{ rows: string; count: number; read: number; error?: BlockError }> {
    const out: string[] = [];
    const v = emptyLineValues();
    const n = lines.refs.length;
    for (let i = 0; i < n; i++) {
      v.ref = lines.refs[i] as string;
      v.wall = lines.walls[i] as string;
      v.negative = lines.negative[i] as boolean;
      v.amount = lines.amounts[i] as number;
      v.excl = lines.excls[i] as number;
      v.terminal = lines.terminals[i] as number;
      v.seller = lines.sellers[i] ?? null;
      v.method = lines.methods[i] ?? null;
      v.suffix = lines.suffixes[i] as string;
      v.group = lines.groups[i] as string;
      v.milli = lines.milli[i] as bigint;
      if (this.needsIds(v)) await this.refill();
      this.addLine(v, out);
    }
    this.linesRead += lines.read;
    const rows = out.length > 0 ? `${out.join('\n')}\n` : '';
    return lines.error
      ? { rows, count: out.length, read: lines.read, error: lines.error }
      : { rows, count: out.length, read: lines.read };
  }

  /** Reads and adds one block on this thread (small files, no worker). */
  block(
    bytes: Buffer,
    firstLine: number,
  ): Promise<{ rows: string; count: number; read: number; error?: BlockError }> {
    this.reader ??= new BlockReader(this.setup);
    return this.add(this.reader.read(bytes, firstLine));
  }

  /** The ticket and payment rows, once every block is read. */
  finish(): AssemblySummary {
    const cancelPrefix = this.setup.mapping.cancellation?.ticketPrefix ?? null;
    const siteId = this.setup.siteId;
    const tickets: string[] = [];
    const payments: string[] = [];
    const lineGroups: string[] = [];
    const terminals = new Set<number>();
    const sellers = new Set<string>();
    let inserted = 0;
    for (const [ref, t] of this.tickets) {
      const kind =
        cancelPrefix !== null && ref.startsWith(cancelPrefix)
          ? 'CANCELLATION'
          : t.allNegative
            ? 'RETURN'
            : 'SALE';
      tickets.push(
        `${t.id}\t${copyText(ref)}\t${t.firstWall}\t${kind}\t${t.terminal ?? '\\N'}\t${copyText(t.seller)}\t${t.total}\t${t.excl}`,
      );
      if (t.id === 0) continue;
      inserted++;
      for (const g of t.groups ? [t.group, ...t.groups.values()] : [t.group]) {
        lineGroups.push(
          `${t.id}\t${g.key}\t${decimalText({ units: g.milli, scale: 3 })}\t${g.net}\t${g.excl}\t${g.lines}`,
        );
      }
      if (t.terminal !== null) terminals.add(t.terminal);
      if (t.seller !== null) sellers.add(t.seller);
      if (t.payments) {
        let no = 0;
        for (const [method, amount] of [...t.payments].sort(([a], [b]) => a.localeCompare(b))) {
          payments.push(`${siteId}\t${t.id}\t${++no}\t${method}\t${amount}`);
        }
      }
    }
    return {
      linesRead: this.linesRead,
      ticketsRead: this.tickets.size,
      ticketsInserted: inserted,
      tickets: tickets.length > 0 ? `${tickets.join('\n')}\n` : '',
      payments: payments.length > 0 ? `${payments.join('\n')}\n` : '',
      lineGroups: lineGroups.length > 0 ? `${lineGroups.join('\n')}\n` : '',
      paymentCount: payments.length,
      terminals: [...terminals],
      sellers: [...sellers],
    };
  }
}

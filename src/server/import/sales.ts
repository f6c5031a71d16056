/**
 * Import of a sales export (CSV, plain or gzip) into a site (issue #2 §3), behind
 * `npm run import` and usable from tests as {@link importSalesFile}.
 *
 * Guarantees:
 * - One transaction: the site and company it creates, the tickets, lines, payments and the
 *   daily aggregate are all written, or nothing is (a bad line aborts with `file:line:column`).
 * - Idempotent: a ticket is identified by (site, source, ticket value) where `source` is
 *   `file:<base name without .gz>`; importing a file of the same name again adds only the
 *   tickets not yet present, so re-importing the same file changes nothing (and a longer export of
 *   the same name adds only its new tickets).
 * - Exact amounts: numbers are parsed as decimals and each line's amount is
 *   `quantity × unit price` rounded half away from zero to the cent; VAT-exclusive amounts are
 *   `round(amount / (1 + rate))` per line and ticket totals are sums of lines.
 * - Streamed: the file is parsed as it is read (csv-parse) and each line, once checked and
 *   priced, goes straight into `ticket_lines` through COPY while PostgreSQL ingests (no second
 *   pass over the lines: the bench holds the import within 2x of a bare COPY of the same rows).
 *   Ticket ids come from `ticket_id_seq` in growing blocks, taken between COPY segments. Tickets
 *   (one per ticket value) are staged in a temporary table and inserted by one INSERT … SELECT
 *   that dates them in the site's time zone and business day. Memory grows with the number of
 *   tickets (about 200 bytes each), not lines.
 *
 * Fiscal date: the file's times are wall-clock times in the site's time zone; a ticket (the
 * earliest time of its lines) belongs to the day its time falls in once moved back by the site's
 * day start, so with a day start of 05:00 a ticket at 01:30 belongs to the previous date.
 * Ticket kinds: CANCELLATION when the ticket value starts with `cancellation.ticketPrefix` (its
 * quantities are made negative if the file wrote them positive), RETURN when every quantity of
 * the ticket is negative, SALE otherwise.
 */
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { tz } from '@date-fns/tz';
import { parse as parseCsv } from 'csv-parse';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { parse as parseDate } from 'date-fns';
import iconv from 'iconv-lite';
import type pg from 'pg';
import { refreshDailySales } from '../db/aggregates.ts';
import { CopyWriter, copyText, RowBuffer } from './copy.ts';
import {
  type Decimal, decimalFromNumber, decimalText, exclVatCents, lineAmountCents, parseDecimal, toCents,
} from './decimal.ts';
import { checkDayStart, type Mapping, MappingError, parseMapping, readMappingFile } from './mapping.ts';

/** Where an import stopped: file, physical line (header = 1), 1-based column and its header name. */
export interface ImportLocation {
  file: string;
  line: number;
  column?: number;
  columnName?: string;
}

/**
 * A line of the file (or of the price list) that cannot be imported, or a site that does not
 * match the import's settings. `message` reads `file:line:column (Column): reason`.
 */
export class ImportError extends Error {
  readonly location: ImportLocation | undefined;
  readonly reason: string;
  constructor(reason: string, location?: ImportLocation) {
    const where = location
      ? `${location.file}:${location.line}${location.column ? `:${location.column}` : ''}${location.columnName !== undefined ? ` (${location.columnName})` : ''}: `
      : '';
    super(`${where}${reason}`);
    this.reason = reason;
    this.location = location;
  }
}

/** Progress of a running import: bytes of the file read so far (compressed bytes for .gz). */
export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  lines: number;
}

export interface ImportOptions {
  /** The CSV file, plain or gzip (detected from its first bytes). */
  file: string;
  /** A mapping object, or the path of a mapping JSON file. */
  mapping: Mapping | Record<string, unknown> | string;
  /** Folder a relative `prices.file` is read from when `mapping` is an object (default: the current folder). */
  mappingDir?: string;
  /** Site name (libellé); created when missing. */
  site: string;
  /** Company (raison sociale) of a site created by the import; default: the site's name. */
  company?: string;
  /** Day start `HH:mm` of a site created by the import (default 00:00); must match an existing site's. */
  dayStart?: string;
  log?: (message: string) => void;
  progress?: (progress: ImportProgress) => void;
}

export interface ImportResult {
  siteId: number;
  siteCreated: boolean;
  /** The `source` the tickets carry: `file:<base name>`. */
  source: string;
  /** Data lines read from the file (header excluded). */
  linesRead: number;
  /** Distinct ticket values in the file. */
  ticketsRead: number;
  ticketsInserted: number;
  /** Tickets already present from an earlier import of a file of the same name. */
  ticketsSkipped: number;
  linesInserted: number;
  paymentsInserted: number;
  /** Fiscal dates the file's tickets fall on, or null for a file without data lines. */
  fromDate: string | null;
  toDate: string | null;
  seconds: number;
}

const REFERENCE_DATE = new Date(2000, 0, 1);
const UTC = tz('UTC');

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * Parses wall-clock date-times with a date-fns format, memoised per text (exports repeat the
 * same time on every line of a ticket, and date-fns parsing costs ~15 µs).
 * Returns `YYYY-MM-DD HH:mm:ss` or null when the text does not match the format.
 */
function wallClockParser(format: string): (text: string) => string | null {
  const memo = new Map<string, string | null>();
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    let value: string | null = null;
    let d = parseDate(text, format, REFERENCE_DATE);
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
    d = REFERENCE_DATE;
    memo.set(text, value);
    return value;
  };
}

/** Payment methods of the schema, from the words tills write. */
function paymentMethod(raw: string): string | null {
  const w = raw.trim().toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (w === '') return null;
  if (/^(cash|especes?|liquide|bar)$/.test(w)) return 'CASH';
  if (/^(card|cards|carte|cb|carte bancaire|credit card|debit card|visa|mastercard|amex|kreditkarte|ec)$/.test(w)) return 'CARD';
  if (/(meal voucher|ticket restaurant|titre restaurant|ticket resto|swile|^tr$|essensgutschein)/.test(w)) return 'MEAL_VOUCHER';
  if (/^(cheque|check|scheck)$/.test(w)) return 'CHEQUE';
  return 'OTHER';
}

async function openSource(file: string, onBytes: (n: number) => void): Promise<Readable> {
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(2);
  await handle.read(head, 0, 2, 0);
  await handle.close();
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  raw.on('data', (chunk) => onBytes(chunk.length));
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (!gzip) return raw;
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  raw.on('error', (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}

function decoded(stream: Readable, encoding: string): Readable {
  const normal = encoding.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (normal === 'utf8') return stream;
  // iconv-lite's stream is a Node Transform; its typings only promise a ReadWriteStream.
  const decoder = iconv.decodeStream(encoding) as unknown as Transform;
  stream.on('error', (e) => decoder.destroy(e));
  return stream.pipe(decoder);
}

/** Reads the price list of `mapping.prices`: article name → unit price incl. VAT. */
async function readPrices(mapping: Mapping, baseDir: string): Promise<Map<string, Decimal> | null> {
  const spec = mapping.prices;
  if (!spec) return null;
  const file = path.isAbsolute(spec.file) ? spec.file : path.join(baseDir, spec.file);
  const decimal = spec.decimal ?? mapping.decimal;
  let text: string;
  try {
    text = iconv.decode(await fs.readFile(file), spec.encoding ?? mapping.encoding);
  } catch (e) {
    throw new ImportError(`cannot read the price list: ${e instanceof Error ? e.message : String(e)}`, { file, line: 0 });
  }
  const rows = parseCsvSync(text, { delimiter: spec.delimiter ?? mapping.delimiter, bom: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  const header = rows[0]?.record ?? [];
  const articleIndex = header.indexOf(spec.article);
  const priceIndex = header.indexOf(spec.unitPrice);
  for (const [name, index] of [[spec.article, articleIndex], [spec.unitPrice, priceIndex]] as const) {
    if (index < 0) throw new ImportError(`column "${name}" is not in the price list's header (${header.join(', ')})`, { file, line: 1 });
  }
  const prices = new Map<string, Decimal>();
  for (const { record, info } of rows.slice(1)) {
    const article = (record[articleIndex] ?? '').trim();
    const price = parseDecimal(record[priceIndex] ?? '', decimal);
    if (!price) {
      throw new ImportError(`"${record[priceIndex] ?? ''}" is not a number`, { file, line: info.lines, column: priceIndex + 1, columnName: spec.unitPrice });
    }
    const earlier = prices.get(article);
    if (earlier && (earlier.units * 10n ** BigInt(price.scale)) !== (price.units * 10n ** BigInt(earlier.scale))) {
      throw new ImportError(`article "${article}" is listed twice with different prices`, { file, line: info.lines, column: articleIndex + 1, columnName: spec.article });
    }
    prices.set(article, price);
  }
  return prices;
}

interface SiteRow {
  id: number;
  company_id: number;
  day_start: string;
  time_zone: string;
  currency: string;
}

/** Finds or creates the site (and its company), checking an existing one matches the import. */
async function resolveSite(
  client: pg.ClientBase,
  options: ImportOptions,
  mapping: Mapping,
): Promise<{ site: SiteRow; created: boolean }> {
  const existing = await client.query<SiteRow>(
    'SELECT id, company_id, day_start, time_zone, currency FROM sites WHERE libelle = $1 FOR UPDATE',
    [options.site],
  );
  const companyName = options.company ?? options.site;
  const ensureCompany = async (): Promise<number> => {
    await client.query('INSERT INTO companies (raison_sociale, enseigne) VALUES ($1, $1) ON CONFLICT (raison_sociale) DO NOTHING', [companyName]);
    const { rows } = await client.query<{ id: number }>('SELECT id FROM companies WHERE raison_sociale = $1', [companyName]);
    const id = rows[0]?.id;
    if (id === undefined) throw new Error(`company "${companyName}" vanished during the import`);
    return id;
  };
  const found = existing.rows[0];
  if (!found) {
    const companyId = await ensureCompany();
    const { rows } = await client.query<SiteRow>(
      `INSERT INTO sites (libelle, company_id, time_zone, day_start, currency) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, company_id, day_start, time_zone, currency`,
      [options.site, companyId, mapping.timeZone ?? 'Europe/Paris', options.dayStart ?? '00:00', mapping.currency ?? 'EUR'],
    );
    const site = rows[0];
    if (!site) throw new Error('site insert returned no row');
    return { site, created: true };
  }
  const mismatch = (what: string, siteValue: string, asked: string) =>
    new ImportError(`site "${options.site}" already exists with ${what} ${siteValue}, not ${asked}; nothing was imported`);
  if (options.dayStart !== undefined && options.dayStart !== found.day_start) throw mismatch('day start', found.day_start, options.dayStart);
  if (mapping.timeZone !== undefined && mapping.timeZone !== found.time_zone) throw mismatch('time zone', found.time_zone, mapping.timeZone);
  if (mapping.currency !== undefined && mapping.currency !== found.currency) throw mismatch('currency', found.currency, mapping.currency);
  if (options.company !== undefined) {
    const { rows } = await client.query<{ raison_sociale: string }>('SELECT raison_sociale FROM companies WHERE id = $1', [found.company_id]);
    const current = rows[0]?.raison_sociale ?? '';
    if (current !== options.company) throw mismatch('company', current, options.company);
  }
  return { site: found, created: false };
}

/** What the import learns of one ticket value while streaming its lines. */
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
}

const LINE_COLUMNS = 'site_id, ticket_id, line_no, article_code, article, family, quantity, unit_price_cents, amount_cents, vat_rate, amount_excl_cents, tax_cents';

/** Ticket ids reserved from `ticket_id_seq` in growing blocks (an import that fails leaves a gap, as sequences do). */
async function reserveTicketIds(client: pg.ClientBase, n: number): Promise<number[]> {
  const { rows } = await client.query<{ ids: string[] }>(
    "SELECT array_agg(nextval('ticket_id_seq')::text ORDER BY g) AS ids FROM generate_series(1, $1) AS g",
    [n],
  );
  return (rows[0]?.ids ?? []).map(Number);
}

/**
 * Imports a sales file into a site, in one transaction (see the module comment for the rules).
 * @returns counts of what was read and written, and the fiscal dates covered.
 * @throws ImportError for a bad line (`file:line:column (Column): reason`, nothing written) or a
 *   site whose settings differ from the import's; MappingError for an invalid mapping.
 */
export async function importSalesFile(pool: pg.Pool, options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  let mapping: Mapping;
  let baseDir = options.mappingDir ?? process.cwd();
  if (typeof options.mapping === 'string') {
    ({ mapping, baseDir } = await readMappingFile(options.mapping));
  } else {
    mapping = parseMapping(options.mapping);
  }
  const dayStart = options.dayStart === undefined ? undefined : checkDayStart(options.dayStart);
  const file = options.file;
  let totalBytes: number;
  try {
    totalBytes = (await fs.stat(file)).size;
  } catch (e) {
    throw new ImportError(`cannot read the file: ${e instanceof Error ? e.message : String(e)}`, { file, line: 0 });
  }
  const prices = await readPrices(mapping, baseDir);
  const source = `file:${path.basename(file).replace(/\.gz$/i, '')}`;
  const cols = mapping.columns;
  const decimalMark = mapping.decimal;
  const defaultVat = mapping.vatRate === undefined ? null : decimalFromNumber(mapping.vatRate);
  const defaultVatText = defaultVat ? decimalText(defaultVat) : '';
  const cancelPrefix = mapping.cancellation?.ticketPrefix ?? null;
  const parseWall = wallClockParser(mapping.dateFormat);
  const parseDateTime = wallClockParser(`${mapping.dateFormat} ${mapping.timeFormat ?? ''}`);

  const client = await pool.connect();
  let copy: CopyWriter | undefined;
  let broken = false;
  try {
    await client.query('BEGIN');
    const { site, created } = await resolveSite(client, { ...options, dayStart }, mapping);
    if (created) log(`Site "${options.site}" created (${site.currency}, ${site.time_zone}, day start ${site.day_start}).`);
    // One import of a given source into a site at a time, so the set of tickets already
    // present, read below, stays true until COMMIT.
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [site.id, source]);
    const present = new Set(
      (await client.query<{ ref: string }>('SELECT source_ref AS ref FROM tickets WHERE site_id = $1 AND source = $2', [site.id, source]))
        .rows.map((r) => r.ref),
    );

    let bytesRead = 0;
    let linesRead = 0;
    const reportEvery = 1 << 20;
    let nextReport = reportEvery;
    const onBytes = (n: number) => {
      bytesRead += n;
      if (bytesRead >= nextReport) {
        nextReport = bytesRead + reportEvery;
        options.progress?.({ bytesRead, totalBytes, lines: linesRead });
      }
    };
    const input = decoded(await openSource(file, onBytes), mapping.encoding);
    const parser = input.pipe(parseCsv({
      delimiter: mapping.delimiter,
      bom: true,
      skip_empty_lines: true,
      // The physical line of each record, appended to it (cheaper than `info`, which copies an object per record).
      on_record: (record: string[], context: { lines: number }) => {
        (record as unknown[]).push(context.lines);
        return record;
      },
    }));
    input.on('error', (e) => parser.destroy(e));

    let header: string[] | null = null;
    const index: Record<string, number> = {};
    const at = (line: number, key: string, reason: string): ImportError => {
      const i = index[key] ?? -1;
      return new ImportError(reason, { file, line, column: i + 1, columnName: header?.[i] ?? key });
    };
    const optional = (record: string[], key: string): string | null => {
      const i = index[key];
      if (i === undefined) return null;
      const v = (record[i] ?? '').trim();
      return v === '' ? null : v;
    };
    const tickets = new Map<string, TicketAcc>();
    let ids: number[] = [];
    let nextId = 0;
    let block = 1024;
    let linesWritten = 0;
    copy = new CopyWriter(client, `ticket_lines (${LINE_COLUMNS})`);

    try {
      for await (const raw of parser as AsyncIterable<unknown[]>) {
        const line = raw.pop() as number;
        const record = raw as string[];
        if (header === null) {
          header = record.map((h) => h.trim());
          for (const [key, name] of Object.entries(cols)) {
            if (name === null || name === undefined) continue;
            const i = header.indexOf(name);
            if (i < 0) throw new ImportError(`column "${name}" (mapping "${key}") is not in the header: ${header.join(', ')}`, { file, line });
            index[key] = i;
          }
          continue;
        }
        linesRead++;
        const ref = (record[index.ticket as number] ?? '').trim();
        if (ref === '') throw at(line, 'ticket', 'empty ticket value');

        let wall: string | null;
        if (cols.datetime) {
          const text = record[index.datetime as number] ?? '';
          wall = parseWall(text.trim());
          if (wall === null) throw at(line, 'datetime', `"${text}" is not a date matching "${mapping.dateFormat}"`);
        } else {
          const dateText = (record[index.date as number] ?? '').trim();
          const timeText = (record[index.time as number] ?? '').trim();
          wall = parseDateTime(`${dateText} ${timeText}`);
          if (wall === null) {
            if (parseWall(dateText) === null) throw at(line, 'date', `"${dateText}" is not a date matching "${mapping.dateFormat}"`);
            throw at(line, 'time', `"${timeText}" is not a time matching "${mapping.timeFormat}"`);
          }
        }

        const quantityText = record[index.quantity as number] ?? '';
        const quantity = parseDecimal(quantityText, decimalMark);
        if (!quantity) throw at(line, 'quantity', `"${quantityText}" is not a number`);
        if (cancelPrefix !== null && quantity.units > 0n && ref.startsWith(cancelPrefix)) quantity.units = -quantity.units;

        const article = (record[index.article as number] ?? '').trim();
        let price: Decimal | null | undefined = null;
        const priceText = cols.unitPrice ? (record[index.unitPrice as number] ?? '').trim() : '';
        if (priceText !== '') {
          price = parseDecimal(priceText, decimalMark);
          if (!price) throw at(line, 'unitPrice', `"${priceText}" is not a number`);
        } else {
          price = prices?.get(article);
          if (!price) throw at(line, 'article', `no price for article "${article}"${prices ? ' in the price list' : ''}`);
        }

        let vat = defaultVat;
        let vatText = defaultVatText;
        if (cols.vatRate) {
          const text = (record[index.vatRate as number] ?? '').replace('%', '').trim();
          if (text !== '' || !defaultVat) {
            const percent = parseDecimal(text, decimalMark);
            if (!percent) throw at(line, 'vatRate', `"${text}" is not a VAT rate in percent`);
            vat = { units: percent.units, scale: percent.scale + 2 };
            vatText = decimalText(vat);
          }
        }
        if (!vat) throw at(line, 'vatRate', 'no VAT rate');

        let terminal: number | null = null;
        const terminalText = optional(record, 'terminal');
        if (terminalText !== null) {
          if (!/^\d{1,9}$/.test(terminalText)) throw at(line, 'terminal', `"${terminalText}" is not a terminal number`);
          terminal = Number(terminalText);
        }
        const seller = optional(record, 'seller');
        const paymentText = optional(record, 'payment');
        const method = paymentText === null ? null : paymentMethod(paymentText);

        const amount = lineAmountCents(quantity, price);
        const excl = exclVatCents(amount, vat);

        let t = tickets.get(ref);
        if (!t) {
          let id = 0;
          if (!present.has(ref)) {
            if (nextId >= ids.length) {
              // COPY holds the connection: pause it to take the next block of ids.
              linesWritten += await copy.end();
              ids = await reserveTicketIds(client, block);
              nextId = 0;
              block = Math.min(block * 2, 65_536);
              copy = new CopyWriter(client, `ticket_lines (${LINE_COLUMNS})`);
            }
            id = ids[nextId++] as number;
          }
          t = { id, firstWall: wall, lines: 0, allNegative: true, total: 0, excl: 0, terminal, seller, payments: null };
          tickets.set(ref, t);
        } else if (wall < t.firstWall) {
          t.firstWall = wall;
        }
        t.lines++;
        t.allNegative &&= quantity.units < 0n;
        t.total += amount;
        t.excl += excl;
        if (terminal !== null && (t.terminal === null || terminal < t.terminal)) t.terminal = terminal;
        if (seller !== null && (t.seller === null || seller < t.seller)) t.seller = seller;
        if (method !== null) {
          t.payments ??= new Map();
          t.payments.set(method, (t.payments.get(method) ?? 0) + amount);
        }
        if (t.id !== 0) {
          const due = copy.push(
            `${site.id}\t${t.id}\t${t.lines}\t${copyText(optional(record, 'articleCode'))}\t${copyText(article)}\t${copyText(optional(record, 'family'))}\t${decimalText(quantity)}\t${toCents(price)}\t${amount}\t${vatText}\t${excl}\t${amount - excl}`,
          );
          if (due) await copy.flush();
        }
      }
    } catch (e) {
      if (e instanceof ImportError) throw e;
      const csv = e as { code?: string; lines?: number; message?: string };
      if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) {
        throw new ImportError(`unreadable CSV: ${csv.message ?? csv.code}`, { file, line: csv.lines ?? linesRead + 1 });
      }
      throw e;
    }
    if (header === null) throw new ImportError('the file is empty (no header line)', { file, line: 1 });
    linesWritten += await copy.end();
    copy = undefined;
    options.progress?.({ bytesRead: totalBytes, totalBytes, lines: linesRead });
    log(`${linesRead} lines read in ${((performance.now() - started) / 1000).toFixed(1)} s; writing tickets…`);

    // Tickets are few next to lines: staged, then dated in the site's zone and day by SQL.
    await client.query(
      `CREATE TEMP TABLE import_tickets (
         ticket_id bigint NOT NULL, ref text NOT NULL, local_ts timestamp NOT NULL, kind text NOT NULL,
         terminal_id int, seller_code text, total bigint NOT NULL, excl bigint NOT NULL
       ) ON COMMIT DROP`,
    );
    const ticketCopy = new CopyWriter(client, 'import_tickets');
    const paymentRows = new RowBuffer();
    const terminals = new Set<number>();
    const sellers = new Set<string>();
    let inserted = 0;
    for (const [ref, t] of tickets) {
      const kind = cancelPrefix !== null && ref.startsWith(cancelPrefix) ? 'CANCELLATION' : t.allNegative ? 'RETURN' : 'SALE';
      const due = ticketCopy.push(`${t.id}\t${copyText(ref)}\t${t.firstWall}\t${kind}\t${t.terminal ?? '\\N'}\t${copyText(t.seller)}\t${t.total}\t${t.excl}`);
      if (due) await ticketCopy.flush();
      if (t.id === 0) continue;
      inserted++;
      if (t.terminal !== null) terminals.add(t.terminal);
      if (t.seller !== null) sellers.add(t.seller);
      if (t.payments) {
        let no = 0;
        for (const [method, amount] of [...t.payments].sort(([a], [b]) => a.localeCompare(b))) {
          paymentRows.push(`${site.id}\t${t.id}\t${++no}\t${method}\t${amount}`);
        }
      }
    }
    await ticketCopy.end();
    const { rows } = await client.query<{ from_date: string | null; to_date: string | null; new_from: string | null; new_to: string | null }>(
      `WITH ins AS (
         INSERT INTO tickets (site_id, ticket_id, fiscal_date, opened_at, terminal_id, seller_code, kind,
                              total_cents, total_excl_cents, tax_cents, source, source_ref)
         SELECT $1, ticket_id, (local_ts - $2::interval)::date, local_ts AT TIME ZONE $3, terminal_id, seller_code, kind,
                total, excl, total - excl, $4, ref
           FROM import_tickets WHERE ticket_id <> 0
         RETURNING fiscal_date
       )
       SELECT (SELECT min((local_ts - $2::interval)::date) FROM import_tickets) AS from_date,
              (SELECT max((local_ts - $2::interval)::date) FROM import_tickets) AS to_date,
              (SELECT min(fiscal_date) FROM ins) AS new_from,
              (SELECT max(fiscal_date) FROM ins) AS new_to`,
      [site.id, site.day_start, site.time_zone, source],
    );
    const r = rows[0];
    if (!r) throw new Error('ticket insert returned no row');
    if (paymentRows.rows > 0) {
      const paymentCopy = new CopyWriter(client, 'payments (site_id, ticket_id, payment_no, method, amount_cents)');
      await paymentCopy.chunks(paymentRows.chunks());
      await paymentCopy.end();
    }
    if (terminals.size > 0) {
      await client.query(
        'INSERT INTO terminals (site_id, terminal_id, libelle) SELECT $1, t, t::text FROM unnest($2::int[]) AS t ON CONFLICT DO NOTHING',
        [site.id, [...terminals]],
      );
    }
    if (sellers.size > 0) {
      await client.query(
        'INSERT INTO sellers (site_id, code, nom) SELECT $1, s, s FROM unnest($2::text[]) AS s ON CONFLICT DO NOTHING',
        [site.id, [...sellers]],
      );
    }
    if (r.new_from && r.new_to) await refreshDailySales(client, site.id, r.new_from, r.new_to);
    await client.query('COMMIT');
    const result: ImportResult = {
      siteId: site.id,
      siteCreated: created,
      source,
      linesRead,
      ticketsRead: tickets.size,
      ticketsInserted: inserted,
      ticketsSkipped: tickets.size - inserted,
      linesInserted: linesWritten,
      paymentsInserted: paymentRows.rows,
      fromDate: r.from_date,
      toDate: r.to_date,
      seconds: (performance.now() - started) / 1000,
    };
    log(`${result.ticketsInserted} tickets and ${result.linesInserted} lines imported into "${options.site}"` +
      (result.ticketsSkipped ? `, ${result.ticketsSkipped} tickets already present` : '') +
      ` in ${result.seconds.toFixed(1)} s.`);
    return result;
  } catch (e) {
    broken = true;
    if (copy) copy.abort(e instanceof Error ? e : new Error(String(e)));
    throw e;
  } finally {
    // A failed transaction (possibly mid-COPY) is never reused: the connection is discarded,
    // which makes PostgreSQL roll everything back.
    client.release(broken ? true : undefined);
  }
}

export { MappingError };

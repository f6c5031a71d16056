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
 * - Streamed: the file is read as it comes (gunzip, transcoding to UTF-8) and cut into blocks of
 *   whole records (blocks.ts); for a big file a worker thread reads them (csv-parse,
 *   dates, exact amounts: lines.ts `BlockReader`) while the main thread puts their lines back in
 *   file order into finished `ticket_lines` rows (`Assembler`) and feeds them to PostgreSQL
 *   through COPY — no second pass over the lines (bench/import.ts compares the whole import with
 *   a bare COPY of the same rows). Ticket ids come from `ticket_id_seq` in growing batches, taken
 *   between COPY segments. Tickets (one per ticket value) are staged in a temporary table and
 *   inserted by one INSERT … SELECT that dates them in the site's time zone and business day.
 *   The per-day aggregates of a load onto days without tickets are summed from the lines'
 *   groups per ticket, family and VAT rate kept while reading, not from the lines written.
 *   Memory grows with the number of tickets, not of lines.
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
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parse as parseCsvSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import type pg from 'pg';
import { refreshDailySales } from '../db/aggregates.ts';
import { recordDataLoad } from '../db/data-loads.ts';
import { type Block, ReaderWorkers, recordBlocks } from './blocks.ts';
import { CopyWriter } from './copy.ts';
import { type Decimal, parseDecimal } from './decimal.ts';
import { ImportError, type ImportLocation } from './import-error.ts';
import {
  Assembler,
  type AssemblySummary,
  type BlockError,
  type BlockSetup,
  type ReadLines,
} from './lines.ts';
import { readLookups } from './lookups.ts';
import { checkDayStart, type Mapping, MappingError, parseMapping, readMappingFile } from './mapping.ts';

export { ImportError, type ImportLocation, MappingError };

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
  /**
   * Worker threads reading the file: 0 reads it on the main thread (the default up to 1.5 MB),
   * 1 is the default above; 2 or more read alternate blocks (more CPU in all, for idle cores).
   */
  workers?: number;
  /** Size of the blocks the file is cut into, in bytes (default 512 KiB; tests use tiny blocks). */
  blockBytes?: number;
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

/**
 * The file's bytes as UTF-8, streamed: gunzipped when it starts with the gzip magic bytes,
 * transcoded from the mapping's encoding, without a leading BOM.
 */
async function openUtf8(
  file: string,
  encoding: string,
  onBytes: (n: number) => void,
): Promise<AsyncIterable<Buffer>> {
  const handle = await fs.open(file, 'r');
  const head = Buffer.alloc(2);
  await handle.read(head, 0, 2, 0);
  await handle.close();
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  raw.on('data', (chunk) => onBytes(chunk.length));
  let stream: Readable = raw;
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = createGunzip({ chunkSize: 1 << 20 });
    raw.on('error', (e) => gunzip.destroy(e));
    stream = raw.pipe(gunzip);
  }
  const utf8 = encoding.toLowerCase().replace(/[^a-z0-9]/g, '') === 'utf8';
  const source = stream;
  return (async function* () {
    let first = true;
    if (utf8) {
      for await (const chunk of source) {
        let bytes = chunk as Buffer;
        if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
        first = false;
        yield bytes;
      }
      return;
    }
    // Blocks are cut on ASCII bytes: any other encoding is read as text and handed on as UTF-8.
    const decoder = iconv.getDecoder(encoding);
    for await (const chunk of source) {
      let text = decoder.write(chunk as Buffer);
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.length > 0) first = false;
      yield Buffer.from(text, 'utf8');
    }
    const rest = decoder.end();
    if (rest) yield Buffer.from(rest, 'utf8');
  })();
}

/**
 * Cents in the smallest amount of ISO 4217 `currency` (1 for EUR, 100 for KRW or JPY, which
 * have no minor unit), from the currency data Intl carries.
 */
export function centsStep(currency: string): number {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return digits >= 2 ? 1 : 10 ** (2 - digits);
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
    throw new ImportError(`cannot read the price list: ${e instanceof Error ? e.message : String(e)}`, {
      file,
      line: 0,
    });
  }
  const rows = parseCsvSync(text, {
    delimiter: spec.delimiter ?? mapping.delimiter,
    bom: true,
    skip_empty_lines: true,
    info: true,
  }) as unknown as { record: string[]; info: { lines: number } }[];
  const header = rows[0]?.record ?? [];
  const articleIndex = header.indexOf(spec.article);
  const priceIndex = header.indexOf(spec.unitPrice);
  for (const [name, index] of [
    [spec.article, articleIndex],
    [spec.unitPrice, priceIndex],
  ] as const) {
    if (index < 0)
      throw new ImportError(`column "${name}" is not in the price list's header (${header.join(', ')})`, {
        file,
        line: 1,
      });
  }
  const prices = new Map<string, Decimal>();
  for (const { record, info } of rows.slice(1)) {
    const article = (record[articleIndex] ?? '').trim();
    const price = parseDecimal(record[priceIndex] ?? '', decimal);
    if (!price) {
      throw new ImportError(`"${record[priceIndex] ?? ''}" is not a number`, {
        file,
        line: info.lines,
        column: priceIndex + 1,
        columnName: spec.unitPrice,
      });
    }
    const earlier = prices.get(article);
    if (
      earlier &&
      earlier.units * 10n ** BigInt(price.scale) !== price.units * 10n ** BigInt(earlier.scale)
    ) {
      throw new ImportError(`article "${article}" is listed twice with different prices`, {
        file,
        line: info.lines,
        column: articleIndex + 1,
        columnName: spec.article,
      });
    }
    prices.set(article, price);
  }
  for (const [inFile, inList] of Object.entries(spec.aliases ?? {})) {
    const price = prices.get(inList);
    if (!price)
      throw new ImportError(`alias "${inFile}" → "${inList}": "${inList}" is not in the price list`, {
        file,
        line: 0,
      });
    prices.set(inFile, price);
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
    await client.query(
      'INSERT INTO companies (raison_sociale, enseigne) VALUES ($1, $1) ON CONFLICT (raison_sociale) DO NOTHING',
      [companyName],
    );
    const { rows } = await client.query<{ id: number }>(
      'SELECT id FROM companies WHERE raison_sociale = $1',
      [companyName],
    );
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
      [
        options.site,
        companyId,
        mapping.timeZone ?? 'Europe/Paris',
        options.dayStart ?? '00:00',
        mapping.currency ?? 'EUR',
      ],
    );
    const site = rows[0];
    if (!site) throw new Error('site insert returned no row');
    return { site, created: true };
  }
  const mismatch = (what: string, siteValue: string, asked: string) =>
    new ImportError(
      `site "${options.site}" already exists with ${what} ${siteValue}, not ${asked}; nothing was imported`,
    );
  if (options.dayStart !== undefined && options.dayStart !== found.day_start)
    throw mismatch('day start', found.day_start, options.dayStart);
  if (mapping.timeZone !== undefined && mapping.timeZone !== found.time_zone)
    throw mismatch('time zone', found.time_zone, mapping.timeZone);
  if (mapping.currency !== undefined && mapping.currency !== found.currency)
    throw mismatch('currency', found.currency, mapping.currency);
  if (options.company !== undefined) {
    const { rows } = await client.query<{ raison_sociale: string }>(
      'SELECT raison_sociale FROM companies WHERE id = $1',
      [found.company_id],
    );
    const current = rows[0]?.raison_sociale ?? '';
    if (current !== options.company) throw mismatch('company', current, options.company);
  }
  return { site: found, created: false };
}

/** The mapping of `options` and the folder its relative files (price list, lookups) are read from. */
async function loadMapping(options: ImportOptions): Promise<{ mapping: Mapping; baseDir: string }> {
  if (typeof options.mapping === 'string') return readMappingFile(options.mapping);
  return { mapping: parseMapping(options.mapping), baseDir: options.mappingDir ?? process.cwd() };
}

/**
 * The size of `file` in bytes.
 * @throws ImportError when it cannot be read.
 */
async function fileBytes(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch (e) {
    throw new ImportError(`cannot read the file: ${e instanceof Error ? e.message : String(e)}`, {
      file,
      line: 0,
    });
  }
}

/**
 * Starts the load inside the open transaction: finds or creates the site, takes the lock of
 * (site, source), reads the refs of the tickets already present and creates the staging tables.
 * @throws ImportError when an existing site's settings differ from the import's.
 */
async function startLoad(
  client: pg.ClientBase,
  options: ImportOptions,
  mapping: Mapping,
  source: string,
): Promise<{ site: SiteRow; created: boolean; present: string[] }> {
  const { site, created } = await resolveSite(client, options, mapping);
  if (created)
    options.log?.(
      `Site "${options.site}" created (${site.currency}, ${site.time_zone}, day start ${site.day_start}).`,
    );
  // One import of a given source into a site at a time, so the set of tickets already
  // present, read below, stays true until COMMIT.
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [site.id, source]);
  const present = (
    await client.query<{ ref: string }>(
      'SELECT source_ref AS ref FROM tickets WHERE site_id = $1 AND source = $2',
      [site.id, source],
    )
  ).rows.map((r) => r.ref);
  // The staging tables of the end of the load, created now while the workers start rather than
  // after the last line, when every statement adds to the import's time.
  await client.query(
    `CREATE TEMP TABLE import_tickets (
       ticket_id bigint NOT NULL, ref text NOT NULL, local_ts timestamp NOT NULL, kind text NOT NULL,
       terminal_id int, seller_code text, total bigint NOT NULL, excl bigint NOT NULL
     ) ON COMMIT DROP;
     CREATE TEMP TABLE import_line_groups (
       ticket_id bigint NOT NULL, family text, vat_rate numeric NOT NULL, quantity numeric NOT NULL,
       net bigint NOT NULL, excl bigint NOT NULL, lines int NOT NULL
     ) ON COMMIT DROP`,
  );
  return { site, created, present };
}

/** Bytes read between two progress reports: a MiB. */
const REPORT_EVERY_BYTES = 1 << 20;

/** Progress of the reading: bytes counted as they are read, reported every MiB with the lines so far. */
class ProgressCounter {
  private bytesRead = 0;
  private lines = 0;
  private nextReport = REPORT_EVERY_BYTES;
  private readonly report: ((progress: ImportProgress) => void) | undefined;
  private readonly totalBytes: number;

  constructor(report: ((progress: ImportProgress) => void) | undefined, totalBytes: number) {
    this.report = report;
    this.totalBytes = totalBytes;
  }

  readonly onBytes = (n: number): void => {
    this.bytesRead += n;
    if (this.bytesRead >= this.nextReport) {
      this.nextReport = this.bytesRead + REPORT_EVERY_BYTES;
      this.report?.({ bytesRead: this.bytesRead, totalBytes: this.totalBytes, lines: this.lines });
    }
  };

  addLines(n: number): void {
    this.lines += n;
  }
}

/** The columns of the file as the line reader needs them: everything of {@link BlockSetup} the header gives. */
type HeaderColumns = Pick<BlockSetup, 'header' | 'index' | 'fileColumns' | 'lookups' | 'wide'>;

/**
 * Header reading: the first record of the file, widened by the mapping's joined files
 * (`<name>.<column>` after the file's columns), and the index of each mapped column in it; in
 * wide format, the product columns, the melted product and quantity going after the record.
 * @throws ImportError for an empty file, or a mapped column missing from the header.
 */
async function readHeader(
  blocks: AsyncGenerator<Block>,
  file: string,
  mapping: Mapping,
  baseDir: string,
): Promise<HeaderColumns> {
  const headerBlock = (await blocks.next()).value as Block | undefined;
  if (!headerBlock) throw new ImportError('the file is empty (no header line)', { file, line: 1 });
  const headerRecord =
    (parseCsvSync(headerBlock.bytes.toString('utf8'), { delimiter: mapping.delimiter }) as string[][])[0] ??
    [];
  const fileHeader = headerRecord.map((h) => h.trim());
  const { tables: lookups, header } = await readLookups(mapping, baseDir, fileHeader);
  const columnIndex = (name: string, what: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new ImportError(`${what} is not in the header: ${header.join(', ')}`, { file, line: 1 });
    return i;
  };
  const index: Record<string, number> = {};
  for (const [key, name] of Object.entries(mapping.columns)) {
    if (name === null || name === undefined) continue;
    index[key] = columnIndex(name, `column "${name}" (mapping "${key}")`);
  }
  const columns: HeaderColumns = { header, index, fileColumns: fileHeader.length, lookups };
  if (mapping.wide) {
    const products = mapping.wide.articles.map((name) =>
      columnIndex(name, `product column "${name}" (mapping "wide")`),
    );
    columns.wide = { columns: products };
    // Melted records carry the product's header and its quantity after the widened record.
    index.article = header.length;
    index.quantity = header.length + 1;
  }
  return columns;
}

const LINE_COLUMNS =
  'site_id, ticket_id, line_no, article_code, article, family, quantity, unit_price_cents, amount_cents, vat_rate, amount_excl_cents, tax_cents';

/** Ticket ids reserved from `ticket_id_seq` in growing blocks (an import that fails leaves a gap, as sequences do). */
async function reserveTicketIds(client: pg.ClientBase, n: number): Promise<number[]> {
  const { rows } = await client.query<{ ids: string[] }>(
    "SELECT array_agg(nextval('ticket_id_seq')::text ORDER BY g) AS ids FROM generate_series(1, $1) AS g",
    [n],
  );
  return (rows[0]?.ids ?? []).map(Number);
}

/**
 * The connection while lines are written: it does one thing at a time, COPY segments of
 * `ticket_lines` and, between them, the reservation of the next batch of ticket ids (batches
 * doubling from 4,096 up to 65,536). Every use goes through one queue.
 */
class LineCopy {
  private connection: Promise<unknown> = Promise.resolve();
  private copy: CopyWriter | undefined;
  private idBatch = 4096;
  private linesWritten = 0;
  private readonly client: pg.ClientBase;

  constructor(client: pg.ClientBase) {
    this.client = client;
    this.copy = new CopyWriter(client, `ticket_lines (${LINE_COLUMNS})`);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.connection.then(work);
    this.connection = next.catch(() => {});
    return next;
  }

  /** Ends the current COPY segment, reserves the next batch of ticket ids, opens the next segment. */
  readonly takeIds = (): Promise<number[]> =>
    this.exclusive(async () => {
      this.linesWritten += await (this.copy as CopyWriter).end();
      const ids = await reserveTicketIds(this.client, this.idBatch);
      this.idBatch = Math.min(this.idBatch * 2, 65_536);
      this.copy = new CopyWriter(this.client, `ticket_lines (${LINE_COLUMNS})`);
      return ids;
    });

  /** Queues COPY text rows of `ticket_lines`. */
  write(rows: string): Promise<void> {
    return this.exclusive(() => (this.copy as CopyWriter).chunks([rows]));
  }

  /** Waits for the queue, ends the last segment; answers the lines written in all. */
  async finish(): Promise<number> {
    await this.connection;
    this.linesWritten += await (this.copy as CopyWriter).end();
    this.copy = undefined;
    return this.linesWritten;
  }

  /** Abandons the COPY in progress, if any (the transaction is then rolled back). */
  abort(reason: Error): void {
    this.copy?.abort(reason);
  }
}

/**
 * Assembly: reads the blocks after the header (on `worker`'s threads when given, else here),
 * puts their lines back in file order into `ticket_lines` rows and writes them through
 * `lineCopy`. Closes `worker` once every block is read.
 * @throws ImportError at the first bad line.
 */
async function assembleLines(
  blocks: AsyncGenerator<Block>,
  setup: ConstructorParameters<typeof Assembler>[0],
  worker: ReaderWorkers | undefined,
  lineCopy: LineCopy,
  progress: ProgressCounter,
): Promise<AssemblySummary> {
  const write = async (output: { rows: string; read: number; error?: BlockError }) => {
    progress.addLines(output.read);
    if (output.rows) await lineCopy.write(output.rows);
    if (output.error) throw new ImportError(output.error.reason, output.error.location);
  };
  const assembler = new Assembler(setup, lineCopy.takeIds);
  if (!worker) {
    for await (const block of blocks) await write(await assembler.block(block.bytes, block.firstLine));
    return assembler.finish();
  }
  const { present: _present, siteId: _siteId, ...readerSetup } = setup;
  worker.start(readerSetup);
  // Two blocks per thread in flight: each thread has its next block while the main thread
  // assembles and sends the previous ones.
  const depth = 2 * worker.size;
  const inFlight: Promise<ReadLines>[] = [];
  const next = async () => write(await assembler.add(await (inFlight.shift() as Promise<ReadLines>)));
  for await (const block of blocks) {
    const p = worker.read(block);
    p.catch(() => {}); // consumed (and rethrown) in order below
    inFlight.push(p);
    if (inFlight.length >= depth) await next();
  }
  while (inFlight.length > 0) await next();
  await worker.close();
  return assembler.finish();
}

/** What the ticket insert tells: the fiscal dates of the file, of the tickets inserted, and whether the site had tickets on them before. */
interface TicketDates {
  from_date: string | null;
  to_date: string | null;
  new_from: string | null;
  new_to: string | null;
  prior: boolean;
}

/**
 * Tickets are few next to lines: staged (import_tickets), then inserted by one statement that
 * dates them in the site's zone and business day.
 */
async function insertTickets(
  client: pg.ClientBase,
  summary: AssemblySummary,
  site: SiteRow,
  source: string,
): Promise<TicketDates> {
  const ticketCopy = new CopyWriter(client, 'import_tickets');
  await ticketCopy.chunks([summary.tickets]);
  await ticketCopy.end();
  // `prior`: whether the site had tickets on the load's dates before it (every part of one
  // statement sees the tickets as they were before its INSERT).
  const { rows } = await client.query<TicketDates>(
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
            (SELECT max(fiscal_date) FROM ins) AS new_to,
            EXISTS (SELECT 1 FROM tickets
                     WHERE site_id = $1
                       AND fiscal_date BETWEEN (SELECT min((local_ts - $2::interval)::date) FROM import_tickets WHERE ticket_id <> 0)
                                           AND (SELECT max((local_ts - $2::interval)::date) FROM import_tickets WHERE ticket_id <> 0)) AS prior`,
    [site.id, site.day_start, site.time_zone, source],
  );
  const dates = rows[0];
  if (!dates) throw new Error('ticket insert returned no row');
  return dates;
}

/** The payments of the new tickets, and the terminals and sellers they name that the site did not have. */
async function insertPaymentsTerminalsSellers(
  client: pg.ClientBase,
  summary: AssemblySummary,
  siteId: number,
): Promise<void> {
  if (summary.paymentCount > 0) {
    const paymentCopy = new CopyWriter(
      client,
      'payments (site_id, ticket_id, payment_no, method, amount_cents)',
    );
    await paymentCopy.chunks([summary.payments]);
    await paymentCopy.end();
  }
  if (summary.terminals.length > 0) {
    await client.query(
      'INSERT INTO terminals (site_id, terminal_id, libelle) SELECT $1, t, t::text FROM unnest($2::int[]) AS t ON CONFLICT DO NOTHING',
      [siteId, summary.terminals],
    );
  }
  if (summary.sellers.length > 0) {
    await client.query(
      'INSERT INTO sellers (site_id, code, nom) SELECT $1, s, s FROM unnest($2::text[]) AS s ON CONFLICT DO NOTHING',
      [siteId, summary.sellers],
    );
  }
}

/** Refreshes the daily aggregates of the days the load added tickets to. */
async function refreshLoadedDays(
  client: pg.ClientBase,
  siteId: number,
  dates: TicketDates,
  summary: AssemblySummary,
  linesWritten: number,
): Promise<void> {
  if (!dates.new_from || !dates.new_to) return;
  if (!dates.prior) {
    // The load's tickets are all the tickets of their days: the family and VAT aggregates are
    // summed from the lines' groups the worker kept per ticket (a few rows per ticket) rather
    // than by joining the lines just written back to their tickets.
    const groupCopy = new CopyWriter(client, 'import_line_groups');
    await groupCopy.chunks([summary.lineGroups]);
    await groupCopy.end();
    // The aggregates read the new tickets (and payments) by site and date: fresh statistics
    // keep the planner from expecting none. The lines are not read, so not analysed here
    // (autovacuum does after COMMIT).
    if (summary.ticketsInserted >= 1_000) {
      await client.query(`ANALYZE tickets${summary.paymentCount >= 1_000 ? ', payments' : ''}`);
    }
    await refreshDailySales(client, siteId, dates.new_from, dates.new_to, {
      lineGroups: 'import_line_groups',
    });
    return;
  }
  // Fresh statistics before the aggregates are rebuilt from what was just loaded: with those
  // of before the load (another site only, or none), the planner expects almost no ticket for
  // this site and joins them to their lines by scanning every line per ticket, which takes
  // minutes on a year of lines. ANALYZE inside the transaction counts the rows it inserted itself.
  if (linesWritten >= 10_000) await client.query('ANALYZE tickets, ticket_lines, payments');
  await refreshDailySales(client, siteId, dates.new_from, dates.new_to);
}

/** What an import answers, from what it read and wrote; `started` is its `performance.now()` at the start. */
function importResult(
  siteId: number,
  siteCreated: boolean,
  source: string,
  summary: AssemblySummary,
  linesWritten: number,
  dates: TicketDates,
  started: number,
): ImportResult {
  return {
    siteId,
    siteCreated,
    source,
    linesRead: summary.linesRead,
    ticketsRead: summary.ticketsRead,
    ticketsInserted: summary.ticketsInserted,
    ticketsSkipped: summary.ticketsRead - summary.ticketsInserted,
    linesInserted: linesWritten,
    paymentsInserted: summary.paymentCount,
    fromDate: dates.from_date,
    toDate: dates.to_date,
    seconds: (performance.now() - started) / 1000,
  };
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
  const { mapping, baseDir } = await loadMapping(options);
  const dayStart = options.dayStart === undefined ? undefined : checkDayStart(options.dayStart);
  const file = options.file;
  const totalBytes = await fileBytes(file);
  const prices = await readPrices(mapping, baseDir);
  const source = `file:${path.basename(file).replace(/\.gz$/i, '')}`;
  // Reading the file (csv-parse above all) costs more CPU than PostgreSQL's COPY of its rows: a
  // big file is read by a worker thread while the main thread assembles tickets and feeds the
  // COPY, and PostgreSQL ingests on another core. One reader by default: a second one reads
  // alternate blocks but costs more CPU in all (its own module loading, JIT and heap), which
  // on two cores shared with PostgreSQL is not won back in time. Started first, it
  // loads its modules while the transaction starts.
  const workerCount = options.workers ?? (totalBytes > 1_500_000 ? 1 : 0);
  const worker: ReaderWorkers | undefined = workerCount > 0 ? new ReaderWorkers(workerCount) : undefined;

  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    await worker?.close();
    throw e;
  }
  let lineCopy: LineCopy | undefined;
  let broken = false;
  try {
    await client.query('BEGIN');
    const { site, created, present } = await startLoad(
      client,
      { ...options, dayStart, log },
      mapping,
      source,
    );
    const progress = new ProgressCounter(options.progress, totalBytes);
    const blocks = recordBlocks(
      await openUtf8(file, mapping.encoding, progress.onBytes),
      options.blockBytes ?? 512 << 10,
    );
    const columns = await readHeader(blocks, file, mapping, baseDir);
    const setup = {
      file,
      mapping,
      ...columns,
      prices,
      siteId: site.id,
      present,
      centsStep: centsStep(site.currency),
    };
    lineCopy = new LineCopy(client);
    const summary = await assembleLines(blocks, setup, worker, lineCopy, progress);
    const linesWritten = await lineCopy.finish();
    lineCopy = undefined;
    const linesRead = summary.linesRead;
    options.progress?.({ bytesRead: totalBytes, totalBytes, lines: linesRead });
    log(
      `${linesRead} lines read in ${((performance.now() - started) / 1000).toFixed(1)} s; writing tickets…`,
    );

    const dates = await insertTickets(client, summary, site, source);
    await insertPaymentsTerminalsSellers(client, summary, site.id);
    await refreshLoadedDays(client, site.id, dates, summary, linesWritten);
    // What GET exports/status says of the site's last load; in the same transaction as the data.
    await recordDataLoad(client, {
      siteId: site.id,
      source,
      firstFiscalDate: dates.new_from ?? null,
      lastFiscalDate: dates.new_to ?? null,
      tickets: summary.ticketsInserted,
    });
    await client.query('COMMIT');
    const result = importResult(site.id, created, source, summary, linesWritten, dates, started);
    log(
      `${result.ticketsInserted} tickets and ${result.linesInserted} lines imported into "${options.site}"` +
        (result.ticketsSkipped ? `, ${result.ticketsSkipped} tickets already present` : '') +
        ` in ${result.seconds.toFixed(1)} s.`,
    );
    return result;
  } catch (e) {
    broken = true;
    lineCopy?.abort(e instanceof Error ? e : new Error(String(e)));
    throw e;
  } finally {
    await worker?.close();
    // A failed transaction (possibly mid-COPY) is never reused: the connection is discarded,
    // which makes PostgreSQL roll everything back.
    client.release(broken ? true : undefined);
  }
}

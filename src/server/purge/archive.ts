/**
 * The archive of a purge (issue #30, decision 0040): the rows about to be deleted, written to a
 * gzip-compressed JSON-lines file with a SHA-256 manifest beside it, then read back from disk
 * and verified before anything is deleted.
 *
 * File: one line per row, `{"table":"<name>","row":<the row as PostgreSQL's row_to_json wrote it>}`,
 * tables in the order given, rows in primary-key order. The row text is PostgreSQL's own, kept
 * byte for byte (no number goes through a JavaScript float), so a table's SHA-256 over its row
 * texts (each followed by `\n`) is the same computed from the database and from the file.
 *
 * Guarantees: the file is written under a temporary name, flushed to disk and renamed, so a
 * file under its final name is whole; {@link verifyArchive} reads it back from disk and checks
 * the file's SHA-256 and every table's row count and SHA-256 against what was read from the
 * database; any difference throws {@link ArchiveError}, and the caller deletes nothing.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import Cursor from 'pg-cursor';
import type pg from 'pg';

/** Rows read from the database per cursor batch. */
const BATCH_ROWS = 2_000;

/** Why an archive could not be written or verified; nothing is deleted after it. */
export class ArchiveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ArchiveError';
  }
}

/** One table's rows to archive: `sql` selects `row_to_json(t)::text AS j`, ordered by primary key. */
export interface ArchivedTable {
  name: string;
  sql: string;
  values: unknown[];
}

/** Rows and SHA-256 (hex, over each row text followed by `\n`) of one archived table. */
export interface TableDigest {
  rows: number;
  sha256: string;
}

/** What an archive holds: the file, its SHA-256 (hex) and size in bytes, and each table's digest. */
export interface ArchiveManifest {
  format: 'comptoir-purge-archive/1';
  file: string;
  sha256: string;
  bytes: number;
  tables: Record<string, TableDigest>;
  /** What was archived and why (site, period, comment, who, when). */
  about: Record<string, unknown>;
}

const linePrefix = (table: string) => `{"table":${JSON.stringify(table)},"row":`;

/** Streams the rows of `tables` read on `client` into `lines`, hashing each table's row texts. */
async function* archiveLines(
  client: pg.PoolClient,
  tables: readonly ArchivedTable[],
  digests: Record<string, TableDigest>,
): AsyncGenerator<string> {
  for (const table of tables) {
    const hash = createHash('sha256');
    let rows = 0;
    const cursor = client.query(new Cursor<{ j: string }>(table.sql, table.values));
    try {
      for (
        let batch = await cursor.read(BATCH_ROWS);
        batch.length > 0;
        batch = await cursor.read(BATCH_ROWS)
      ) {
        let chunk = '';
        for (const { j } of batch) {
          hash.update(`${j}\n`);
          chunk += `${linePrefix(table.name)}${j}}\n`;
        }
        rows += batch.length;
        yield chunk;
      }
    } finally {
      await cursor.close();
    }
    digests[table.name] = { rows, sha256: hash.digest('hex') };
  }
}

/** Passes chunks through while hashing them and counting their bytes. */
async function* hashing(source: AsyncIterable<Buffer>, hash: Hash, size: { bytes: number }) {
  for await (const chunk of source) {
    hash.update(chunk);
    size.bytes += chunk.length;
    yield chunk;
  }
}

/**
 * Writes the rows of `tables` (read on `client`, inside the purge's transaction) to the gzip
 * file `file` (its folder is created), flushed to disk, and its manifest to `<file>.manifest.json`.
 * @returns the manifest (the file's SHA-256 as written, every table's digest as read from the database).
 * @throws ArchiveError when the folder or a file cannot be written (the partial file is removed).
 */
export async function writeArchive(
  client: pg.PoolClient,
  file: string,
  tables: readonly ArchivedTable[],
  about: Record<string, unknown>,
): Promise<ArchiveManifest> {
  const partial = `${file}.partial`;
  const digests: Record<string, TableDigest> = {};
  const fileHash = createHash('sha256');
  const size = { bytes: 0 };
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await pipeline(
      Readable.from(archiveLines(client, tables, digests)),
      createGzip(),
      (gz: AsyncIterable<Buffer>) => hashing(gz, fileHash, size),
      createWriteStream(partial, { flags: 'wx' }),
    );
    const handle = await open(partial, 'r');
    await handle.sync().finally(() => handle.close());
    await rename(partial, file);
    const manifest: ArchiveManifest = {
      format: 'comptoir-purge-archive/1',
      file: path.basename(file),
      sha256: fileHash.digest('hex'),
      bytes: size.bytes,
      tables: digests,
      about,
    };
    await writeFile(manifestPath(file), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
    return manifest;
  } catch (error) {
    await rm(partial, { force: true }).catch(() => {});
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`archive ${file} could not be written: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The manifest's path beside the archive `file`. */
export function manifestPath(file: string): string {
  return `${file}.manifest.json`;
}

/** Hashes each line's row text into its table's digest. @throws ArchiveError on a line of no known table */
async function hashLines(
  lines: AsyncIterable<string>,
  hashes: Map<string, { hash: Hash; rows: number }>,
  file: string,
): Promise<void> {
  for await (const line of lines) {
    if (line === '') continue;
    const { table } = JSON.parse(line) as { table: string };
    const seen = hashes.get(table);
    const prefix = linePrefix(table);
    if (!seen || !line.startsWith(prefix) || !line.endsWith('}')) {
      throw new ArchiveError(`archive ${file}: unexpected line for table ${table}`);
    }
    seen.hash.update(`${line.slice(prefix.length, -1)}\n`);
    seen.rows += 1;
  }
}

/**
 * Reads the archive `file` back from disk and checks it against `manifest`: the file's SHA-256
 * and size, then, decompressed, that every line is JSON of a known table and that each table's
 * row count and SHA-256 equal the manifest's (which were taken from the database).
 * @throws ArchiveError naming the first difference (or the read error).
 */
export async function verifyArchive(file: string, manifest: ArchiveManifest): Promise<void> {
  const fileHash = createHash('sha256');
  const size = { bytes: 0 };
  const hashes = new Map<string, { hash: Hash; rows: number }>();
  for (const name of Object.keys(manifest.tables)) hashes.set(name, { hash: createHash('sha256'), rows: 0 });
  try {
    const gunzip = createGunzip();
    // pipeline, not pipe: a damaged file's zlib error must reach us, not crash the process.
    const reading = pipeline(Readable.from(hashing(createReadStream(file), fileHash, size)), gunzip);
    reading.catch(() => {}); // awaited below; this only keeps it from being "unhandled" meanwhile
    const lines = createInterface({ input: gunzip, crlfDelay: Infinity });
    // readline re-emits its input's errors; after an early stop nobody iterates to receive them.
    lines.on('error', () => {});
    try {
      await hashLines(lines, hashes, file);
    } finally {
      gunzip.destroy();
    }
    await reading;
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`archive ${file} could not be read back: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const sha256 = fileHash.digest('hex');
  if (sha256 !== manifest.sha256 || size.bytes !== manifest.bytes) {
    throw new ArchiveError(`archive ${file}: SHA-256 ${sha256} read back, ${manifest.sha256} written`);
  }
  for (const [name, expected] of Object.entries(manifest.tables)) {
    const seen = hashes.get(name);
    const got = seen ? seen.hash.digest('hex') : '';
    if (!seen || seen.rows !== expected.rows || got !== expected.sha256) {
      throw new ArchiveError(
        `archive ${file}: table ${name} read back with ${seen?.rows ?? 0} rows, ${expected.rows} in the database`,
      );
    }
  }
}

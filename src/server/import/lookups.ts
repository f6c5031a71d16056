/**
 * Joined files of a mapping (`lookups`): exports of normalised tills come as several files —
 * order lines holding an order id and a product id, orders holding the date, products holding
 * the price and the type, types holding the family. Each lookup file is read once, whole, into
 * a table keyed on its key column; every line of the sales file is then widened with the
 * columns of the rows it joins (`<name>.<column>`), in the mapping's order, so a later lookup
 * can join on a column brought by an earlier one.
 *
 * Guarantees: a key appears once in its file (else the import stops at the second occurrence);
 * a line whose key has no row stops the import, located at the column holding the key (in the
 * sales file, or in the lookup row that brought it); a bad value read from a lookup column is
 * located in the lookup file. Tables are plain data (structured-clone friendly) so they cross to
 * the import's worker thread.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseCsvSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { ImportError, type ImportLocation } from './import-error.ts';
import type { Mapping } from './mapping.ts';

/** One row of a lookup file: its physical line (header = 1) and its fields. */
export interface LookupRow {
  line: number;
  record: string[];
}

/** A lookup file, read and keyed. */
export interface LookupTable {
  name: string;
  /** Path of the file, as reported in messages. */
  file: string;
  /** The file's header (its own column names, without the prefix). */
  header: string[];
  key: string;
  /** Index of the joining column in the widened record (sales file columns, then earlier lookups'). */
  onIndex: number;
  /** Index in the widened record of this lookup's first column. */
  offset: number;
  rows: Map<string, LookupRow>;
}

/**
 * Reads the lookup files of `mapping` and places their columns after `fileHeader`.
 * @returns the tables and the widened header (`fileHeader` then `<name>.<column>` of each lookup).
 * @throws ImportError for an unreadable file, a missing key or `on` column, or a key listed twice.
 */
export async function readLookups(
  mapping: Mapping,
  baseDir: string,
  fileHeader: readonly string[],
): Promise<{ tables: LookupTable[]; header: string[] }> {
  const header = [...fileHeader];
  const tables: LookupTable[] = [];
  for (const spec of mapping.lookups ?? []) {
    const file = path.isAbsolute(spec.file) ? spec.file : path.join(baseDir, spec.file);
    let text: string;
    try {
      text = iconv.decode(await fs.readFile(file), spec.encoding ?? mapping.encoding);
    } catch (e) {
      throw new ImportError(
        `cannot read the lookup file "${spec.name}": ${e instanceof Error ? e.message : String(e)}`,
        { file, line: 0 },
      );
    }
    const parsed = parseCsvSync(text, {
      delimiter: spec.delimiter ?? mapping.delimiter,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    const own = (parsed[0]?.record ?? []).map((h) => h.trim());
    const keyIndex = own.indexOf(spec.key);
    if (keyIndex < 0)
      throw new ImportError(`key column "${spec.key}" is not in the header (${own.join(', ')})`, {
        file,
        line: 1,
      });
    const onIndex = header.indexOf(spec.on);
    if (onIndex < 0) {
      throw new ImportError(
        `lookup "${spec.name}" joins on "${spec.on}", which is neither a column of the file nor of an earlier lookup (${header.join(', ')})`,
      );
    }
    const rows = new Map<string, LookupRow>();
    for (const { record, info } of parsed.slice(1)) {
      const fields = own.map((_, i) => record[i] ?? '');
      const key = (fields[keyIndex] ?? '').trim();
      const where: ImportLocation = { file, line: info.lines, column: keyIndex + 1, columnName: spec.key };
      if (key === '') throw new ImportError('empty key', where);
      const earlier = rows.get(key);
      if (earlier) throw new ImportError(`key "${key}" is already on line ${earlier.line}`, where);
      rows.set(key, { line: info.lines, record: fields });
    }
    tables.push({ name: spec.name, file, header: own, key: spec.key, onIndex, offset: header.length, rows });
    for (const h of own) header.push(`${spec.name}.${h}`);
  }
  return { tables, header };
}

/** A key with no row in a lookup: where the key was read and why. */
export class LookupMiss {
  readonly location: ImportLocation | null;
  /** Index of the key's column in the widened record, when it is a column of the sales file. */
  readonly column: number;
  readonly reason: string;
  constructor(column: number, location: ImportLocation | null, reason: string) {
    this.column = column;
    this.location = location;
    this.reason = reason;
  }
}

/**
 * The widening of the sales file's records by `tables`.
 * `widen(record)` returns the record followed by the joined rows' fields (or throws a
 * {@link LookupMiss}); `locate(i)` is the lookup file, line and column of widened column `i`
 * for the record widened last, or null for a column of the sales file.
 */
export function joiner(tables: readonly LookupTable[], fileColumns: number) {
  const matched: (LookupRow | undefined)[] = [];
  const locate = (i: number): ImportLocation | null => {
    if (i < fileColumns) return null;
    for (const [k, t] of tables.entries()) {
      if (i < t.offset || i >= t.offset + t.header.length) continue;
      const row = matched[k];
      if (!row) return null;
      return {
        file: t.file,
        line: row.line,
        column: i - t.offset + 1,
        columnName: t.header[i - t.offset] as string,
      };
    }
    return null;
  };
  const widen = (record: readonly string[]): string[] => {
    const out = record.slice(0, fileColumns);
    while (out.length < fileColumns) out.push('');
    for (const [k, t] of tables.entries()) {
      const key = (out[t.onIndex] ?? '').trim();
      const row = t.rows.get(key);
      matched[k] = row;
      if (!row) {
        throw new LookupMiss(
          t.onIndex,
          locate(t.onIndex),
          `no row with ${t.key} "${key}" in ${path.basename(t.file)}`,
        );
      }
      for (const v of row.record) out.push(v);
    }
    return out;
  };
  return { widen, locate };
}

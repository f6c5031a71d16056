/**
 * The mapping file of `npm run import` (issue #2 §3): how the columns of a sales export map to
 * tickets and ticket lines. Validated with zod so a wrong mapping stops the import before any
 * line is read, with a message naming the bad field.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import iconv from 'iconv-lite';
import { z } from 'zod';

const columnName = z.string().min(1).nullish();

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const MappingSchema = z
  .object({
    /** Field separator of the file, one character (`,` `;` tab…). */
    delimiter: z.string().length(1).default(','),
    /** Decimal mark of numbers in the file: `.` or `,`. */
    decimal: z.enum(['.', ',']).default('.'),
    /** Text encoding of the file, any name iconv-lite knows (`utf-8`, `latin1`, `windows-1252`…). */
    encoding: z
      .string()
      .default('utf-8')
      .refine((e) => iconv.encodingExists(e), 'unknown encoding'),
    /**
     * date-fns format of the `datetime` column (e.g. `d/M/yyyy H:mm`), or of the `date` column when
     * the file has separate date and time columns.
     */
    dateFormat: z.string().min(1),
    /** date-fns format of the `time` column, when the file has one (e.g. `HH:mm:ss`). */
    timeFormat: z.string().min(1).optional(),
    columns: z
      .object({
        /** Lines with the same value in this column form one ticket. */
        ticket: z.string().min(1),
        /** Date and time of the line, in the site's time zone, read with `dateFormat`. */
        datetime: columnName,
        /** Date of the line (with `time`), instead of `datetime`. */
        date: columnName,
        time: columnName,
        /** Article name (absent with `wide`: the product column's header is the article). */
        article: z.string().min(1).optional(),
        /** Quantity (absent with `wide`: the product column holds it). */
        quantity: z.string().min(1).optional(),
        /** Unit price including VAT; when absent (or empty on a line) the `prices` list gives it. */
        unitPrice: columnName,
        articleCode: columnName,
        family: columnName,
        /** Terminal (caisse) number, a whole number. */
        terminal: columnName,
        /** Seller (vendeur) code. */
        seller: columnName,
        /** Payment method of the line's amount (`cash`, `card`, `meal voucher`, `cheque`…; others count as OTHER). */
        payment: columnName,
        /** VAT rate of the line in percent (`20`, `5,5`, `10 %`); when absent, `vatRate` applies. */
        vatRate: columnName,
      })
      .strict(),
    /** Optional price list joined on the article name; a relative `file` is read from the mapping file's folder. */
    prices: z
      .object({
        file: z.string().min(1),
        article: z.string().min(1),
        unitPrice: z.string().min(1),
        delimiter: z.string().length(1).optional(),
        decimal: z.enum(['.', ',']).optional(),
        encoding: z.string().optional(),
        /** Article names of the file spelled otherwise in the price list: `{ "file name": "list name" }`. */
        aliases: z.record(z.string(), z.string()).optional(),
      })
      .strict()
      .optional(),
    /**
     * Wide format: one row per ticket and one column per product holding its quantity (a bakery's
     * export). Each listed column with a quantity gives a line whose article is the column's
     * header; a row with no quantity in any of them holds no sale and is skipped.
     */
    wide: z
      .object({ articles: z.array(z.string().min(1)).min(1) })
      .strict()
      .optional(),
    /**
     * Other files joined to each line on a key, in order (a normalised export: order lines →
     * orders for the date, → products for the price, → product types for the family). The
     * columns of a lookup are named `<name>.<column>` in `columns`, and a later lookup may join
     * on an earlier one's column. Each key must appear once in its file; a line whose key is
     * missing stops the import.
     */
    lookups: z
      .array(
        z
          .object({
            /** Prefix of its columns in `columns` (`orders` → `orders.date`). */
            name: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'letters, digits, _ and - only'),
            /** The file; a relative path is read from the mapping file's folder. */
            file: z.string().min(1),
            /** Its key column. */
            key: z.string().min(1),
            /** The column of the line holding the key: a column of the file, or `<name>.<column>` of an earlier lookup. */
            on: z.string().min(1),
            delimiter: z.string().length(1).optional(),
            encoding: z
              .string()
              .refine((e) => iconv.encodingExists(e), 'unknown encoding')
              .optional(),
          })
          .strict(),
      )
      .optional(),
    /** VAT rate as a fraction (0.2 = 20 %), used when the file has no VAT column. */
    vatRate: z.number().min(0).max(1).optional(),
    /** Tickets whose value starts with `ticketPrefix` are cancellations; negative quantities are always returns. */
    cancellation: z
      .object({ ticketPrefix: z.string().min(1) })
      .strict()
      .optional(),
    /** ISO 4217 currency of the site created by the import (default EUR). */
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR or GBP')
      .optional(),
    /** IANA time zone in which the file's times are written, for the site created by the import (default Europe/Paris). */
    timeZone: z
      .string()
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'unknown IANA time zone')
      .optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const c = m.columns;
    if (!c.datetime && !(c.date && c.time)) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns', 'datetime'],
        message: 'give either "datetime" or both "date" and "time"',
      });
    }
    if (c.datetime && (c.date || c.time)) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns', 'datetime'],
        message: 'give "datetime" or "date"+"time", not both',
      });
    }
    if (c.time && !m.timeFormat) {
      ctx.addIssue({ code: 'custom', path: ['timeFormat'], message: 'required with a "time" column' });
    }
    if (!c.unitPrice && !m.prices) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns', 'unitPrice'],
        message: 'give a unit price column or a "prices" list',
      });
    }
    if (m.wide && (c.article || c.quantity)) {
      ctx.addIssue({
        code: 'custom',
        path: ['columns', 'article'],
        message:
          'with "wide", the product columns give the article and the quantity: leave out "article" and "quantity"',
      });
    }
    if (!m.wide && !c.article)
      ctx.addIssue({
        code: 'custom',
        path: ['columns', 'article'],
        message: 'required (unless "wide" gives the articles)',
      });
    if (!m.wide && !c.quantity)
      ctx.addIssue({
        code: 'custom',
        path: ['columns', 'quantity'],
        message: 'required (unless "wide" gives the quantities)',
      });
    const names = new Set<string>();
    for (const [i, l] of (m.lookups ?? []).entries()) {
      if (names.has(l.name))
        ctx.addIssue({ code: 'custom', path: ['lookups', i, 'name'], message: `"${l.name}" is used twice` });
      names.add(l.name);
    }
    if (!c.vatRate && m.vatRate === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['vatRate'],
        message: 'required when the file has no VAT column',
      });
    }
  });

/** A validated mapping; `baseDir` is the folder relative `prices.file` paths are read from. */
export type Mapping = z.infer<typeof MappingSchema>;

/** Thrown when a mapping is not valid; the message names each bad field. */
export class MappingError extends Error {}

/**
 * Validates `raw` as a mapping.
 * @param where name used in messages (the mapping file's path).
 * @throws MappingError naming every bad field.
 */
export function parseMapping(raw: unknown, where = 'mapping'): Mapping {
  const parsed = MappingSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new MappingError(`Invalid mapping ${where}:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/**
 * Reads and validates a mapping JSON file.
 * @returns the mapping and the folder it was read from.
 * @throws MappingError when the file is not JSON or not a valid mapping.
 */
export async function readMappingFile(file: string): Promise<{ mapping: Mapping; baseDir: string }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (e) {
    throw new MappingError(`Cannot read mapping ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { mapping: parseMapping(raw, file), baseDir: path.dirname(path.resolve(file)) };
}

/** Validates a `HH:mm` day start; returns it, or throws MappingError. */
export function checkDayStart(value: string): string {
  if (!HHMM.test(value)) throw new MappingError(`Invalid day start "${value}": expected HH:mm, e.g. 05:00`);
  return value;
}

/**
 * The import builds the per-day aggregates of a load whose days had no ticket from the groups it
 * summed while reading (lines.ts), not from the lines it wrote; a load onto days that already
 * had tickets rebuilds them from the tables. Either way the aggregate tables must hold exactly
 * what a full rebuild from the tickets gives (refreshDailySales without options), row for row.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BREAKDOWN_TABLES, refreshDailySales } from '../../src/server/db/aggregates.ts';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { createTestDatabase } from '../helpers/db.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-import-agg-'));
});
afterAll(async () => {
  await db.close();
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.pool.query(`TRUNCATE tickets, ticket_lines, payments, daily_sales, ${BREAKDOWN_TABLES.join(', ')},
    terminals, sellers, group_sites, sites, companies CASCADE`);
});

/**
 * Families, two VAT rates, a quantity with 4 decimals, a return, a cancellation, discount lines
 * (a negative price, of a family and of none), payments, terminals, sellers, a day start.
 */
const MAPPING = {
  delimiter: ';',
  decimal: ',',
  dateFormat: 'dd/MM/yyyy HH:mm',
  columns: {
    ticket: 'Ticket',
    datetime: 'Date',
    article: 'Item',
    quantity: 'Qty',
    unitPrice: 'Price',
    family: 'Family',
    vatRate: 'VAT',
    terminal: 'Till',
    seller: 'Seller',
    payment: 'Paid',
  },
  vatRate: 0.1,
  cancellation: { ticketPrefix: 'A' },
  timeZone: 'Europe/Paris',
};

const HEADER = 'Ticket;Date;Item;Qty;Price;Family;VAT;Till;Seller;Paid';
const FIRST = [
  HEADER,
  '1;01/03/2024 12:10;Burger;2;9,95;Food;10;1;ana;card',
  '1;01/03/2024 12:10;Beer;1;4,5;Drinks;20;1;ana;card',
  '1;01/03/2024 12:11;Fries;1;3;Food;;1;ana;cash',
  '1;01/03/2024 12:11;Remise fidélité;1;-2;Food;10;1;ana;card',
  '2;01/03/2024 19:45;Cola;0,3335;2,5;Drinks;20;2;bob;cash',
  '2;01/03/2024 19:45;Cola;0,0005;2,5;Drinks;20;2;bob;cash',
  '3;02/03/2024 02:30;Burger;-1;9,95;Food;10;2;bob;card',
  'A3;02/03/2024 13:00;Burger;1;9,95;Food;10;1;;',
  '4;31/03/2024 02:30;Wine;1;7;;20;1;ana;cheque',
  '5;05/03/2024 11:00;Salad;1,5;6,4;Food;5,5;3;;luncheon voucher',
  '5;05/03/2024 11:00;Remise;1;-0,64;;5,5;3;;luncheon voucher',
].join('\n');
/** Another file onto the first's days (and one day after): the aggregates are rebuilt from the tables. */
const SECOND = [
  HEADER,
  '10;01/03/2024 13:00;Burger;1;9,95;Food;10;1;ana;card',
  '11;02/03/2024 18:00;Beer;3;4,5;Drinks;20;2;bob;cash',
  '12;06/03/2024 18:00;Beer;1;4,5;Drinks;20;2;bob;cash',
].join('\n');

const TABLES = ['daily_sales', ...BREAKDOWN_TABLES];

/** Every aggregate row, as text, in a stable order. */
async function aggregates(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const { rows } = await db.pool.query<{ row: string }>(
      `SELECT (t.*)::text AS row FROM ${table} t ORDER BY 1`,
    );
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

/** The aggregates as a full rebuild from the tickets leaves them (rolled back afterwards). */
async function rebuilt(siteId: number, from: string, to: string): Promise<Record<string, string[]>> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await refreshDailySales(client, siteId, from, to);
    const out: Record<string, string[]> = {};
    for (const table of TABLES) {
      const { rows } = await client.query<{ row: string }>(
        `SELECT (t.*)::text AS row FROM ${table} t ORDER BY 1`,
      );
      out[table] = rows.map((r) => r.row);
    }
    await client.query('ROLLBACK');
    return out;
  } finally {
    client.release();
  }
}

describe.each([0, 1, 2])('aggregates of an import with %i worker thread(s)', (workers) => {
  it('equal a full rebuild from the tickets, for a first load and for a load onto days that had tickets', async () => {
    const first = path.join(dir, `first-${workers}.csv`);
    const second = path.join(dir, `second-${workers}.csv`);
    await fs.writeFile(first, FIRST);
    await fs.writeFile(second, SECOND);
    const a = await importSalesFile(db.pool, {
      workers,
      blockBytes: 64,
      file: first,
      mapping: MAPPING,
      site: 'Soho',
      dayStart: '05:00',
    });
    expect(a.ticketsInserted).toBe(6);
    const afterFirst = await aggregates();
    // Every table has rows: none of the figures went missing — but daily_corrections, since an
    // imported file cannot mark a line as voided (corrections.ts), and the rebuild agrees.
    for (const table of TABLES) {
      if (table === 'daily_corrections') expect(afterFirst[table], table).toEqual([]);
      else expect(afterFirst[table]?.length, table).toBeGreaterThan(0);
    }
    expect(afterFirst).toEqual(await rebuilt(a.siteId, '2024-02-01', '2024-04-30'));
    // The discount lines' 2.00 + 0.64, in each table that holds discounts (migration 0011).
    for (const table of [
      'daily_ticket_stats',
      'daily_hour_sales',
      'daily_terminal_sales',
      'daily_seller_sales',
      'daily_family_sales',
    ]) {
      const { rows } = await db.pool.query<{ cents: string }>(
        `SELECT sum(discount_cents) AS cents FROM ${table}`,
      );
      expect(rows[0]?.cents, table).toBe('264');
    }

    const b = await importSalesFile(db.pool, {
      workers,
      blockBytes: 64,
      file: second,
      mapping: MAPPING,
      site: 'Soho',
    });
    expect(b.ticketsInserted).toBe(3);
    const afterSecond = await aggregates();
    expect(afterSecond).not.toEqual(afterFirst);
    expect(afterSecond).toEqual(await rebuilt(a.siteId, '2024-02-01', '2024-04-30'));
  });
});

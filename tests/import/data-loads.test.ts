/**
 * Every load of sales data leaves a `data_loads` row in its own transaction (what GET
 * exports/status shows as a site's last load): the CSV import with its file, dates and ticket
 * count, a re-import that adds nothing with zero tickets, the demo chain with one row per site.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoChain } from '../../src/server/demo/generate.ts';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { createTestDatabase } from '../helpers/db.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cpt-loads-'));
});
afterAll(async () => {
  await db.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const MAPPING = {
  delimiter: ',',
  decimal: '.',
  dateFormat: 'yyyy-MM-dd HH:mm',
  columns: { ticket: 'Ticket', datetime: 'Date', article: 'Item', quantity: 'Qty', unitPrice: 'Price' },
  vatRate: 0.2,
};

async function loads() {
  const { rows } = await db.pool.query(
    `SELECT site_id, source, first_fiscal_date::text AS first, last_fiscal_date::text AS last, tickets
       FROM data_loads ORDER BY id`,
  );
  return rows;
}

describe('data loads', () => {
  it('an import records its file, fiscal dates and tickets; a re-import that adds nothing records zero', async () => {
    const file = path.join(dir, 'soho.csv');
    await fs.writeFile(
      file,
      'Ticket,Date,Item,Qty,Price\n1,2024-03-01 12:10,Burger,2,9.95\n2,2024-03-02 19:45,Cola,1,2.5\n',
    );
    const first = await importSalesFile(db.pool, { workers: 0, file, mapping: MAPPING, site: 'Soho' });
    await importSalesFile(db.pool, { workers: 0, file, mapping: MAPPING, site: 'Soho' });
    expect(await loads()).toEqual([
      { site_id: first.siteId, source: 'file:soho.csv', first: '2024-03-01', last: '2024-03-02', tickets: 2 },
      { site_id: first.siteId, source: 'file:soho.csv', first: null, last: null, tickets: 0 },
    ]);
  });

  it('a refused import records nothing', async () => {
    const before = (await loads()).length;
    const file = path.join(dir, 'bad.csv');
    await fs.writeFile(file, 'Ticket,Date,Item,Qty,Price\n3,not a date,Burger,1,9.95\n');
    await expect(
      importSalesFile(db.pool, { workers: 0, file, mapping: MAPPING, site: 'Soho' }),
    ).rejects.toThrow();
    expect(await loads()).toHaveLength(before);
  });

  it('the demo chain records one load per site with its span and tickets', async () => {
    await db.pool.query('TRUNCATE data_loads');
    const demo = await generateDemoChain(db.pool, {
      seed: 7,
      now: new Date('2026-11-20T15:00:00Z'),
      days: 2,
    });
    const rows = await loads();
    expect(rows).toHaveLength(demo.sites);
    for (const r of rows)
      expect(r).toMatchObject({ source: 'demo', first: '2026-11-19', last: '2026-11-20' });
    expect(rows.reduce((s, r) => s + r.tickets, 0)).toBe(demo.tickets);
  });
});

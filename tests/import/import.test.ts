import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ImportError, importSalesFile } from '../../src/server/import/sales.ts';
import { setUpImportFiles } from '../helpers/import-files.ts';

const sandbox = setUpImportFiles('cpt-import-');
const { write } = sandbox;

/** The usual shape of an export: one line per item, price incl. VAT in the file. */
const BASIC = {
  delimiter: ',',
  decimal: '.',
  dateFormat: 'yyyy-MM-dd HH:mm',
  columns: { ticket: 'Ticket', datetime: 'Date', article: 'Item', quantity: 'Qty', unitPrice: 'Price' },
  vatRate: 0.2,
  cancellation: { ticketPrefix: 'C' },
};

async function counts() {
  const { rows } = await sandbox.db.pool.query(`SELECT
      (SELECT count(*) FROM companies)::int AS companies, (SELECT count(*) FROM sites)::int AS sites,
      (SELECT count(*) FROM tickets)::int AS tickets, (SELECT count(*) FROM ticket_lines)::int AS lines,
      (SELECT count(*) FROM daily_sales)::int AS days`);
  return rows[0];
}

async function snapshot() {
  const q = async (sql: string) => (await sandbox.db.pool.query(sql)).rows;
  return {
    sites: await q('SELECT * FROM sites ORDER BY id'),
    tickets: await q('SELECT * FROM tickets ORDER BY site_id, ticket_id'),
    lines: await q('SELECT * FROM ticket_lines ORDER BY site_id, ticket_id, line_no'),
    daily: await q('SELECT * FROM daily_sales ORDER BY site_id, fiscal_date'),
  };
}

describe.each([0, 1])('importSalesFile with %i worker thread(s)', (workers) => {
  it('loads a good file: one ticket per ticket value, exact cents, VAT per line, daily sales', async () => {
    const file = await write(
      'good.csv',
      [
        'Ticket,Date,Item,Qty,Price',
        '1001,2024-03-01 12:10,Burger,2,9.95',
        '1001,2024-03-01 12:10,Cola,1,2.5',
        '1002,2024-03-01 19:45,Burger,1,9.95',
        '1003,2024-03-02 12:00,Fries,3,2.555',
        '',
      ].join('\n'),
    );
    const result = await importSalesFile(sandbox.db.pool, {
      workers,
      file,
      mapping: BASIC,
      site: 'Soho',
      company: 'London Food Ltd',
    });
    expect(result).toMatchObject({
      siteCreated: true,
      linesRead: 4,
      ticketsRead: 3,
      ticketsInserted: 3,
      ticketsSkipped: 0,
      linesInserted: 4,
      fromDate: '2024-03-01',
      toDate: '2024-03-02',
      source: 'file:good.csv',
    });
    const { rows: tickets } = await sandbox.db.pool.query(
      `SELECT source_ref, fiscal_date, kind, total_cents, total_excl_cents, tax_cents, to_char(opened_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS utc
         FROM tickets ORDER BY source_ref`,
    );
    expect(tickets).toEqual([
      // 2 × 9.95 + 2.50 = 22.40; excl per line round(1990/1.2) = 1658, round(250/1.2) = 208
      {
        source_ref: '1001',
        fiscal_date: '2024-03-01',
        kind: 'SALE',
        total_cents: 2240,
        total_excl_cents: 1866,
        tax_cents: 374,
        utc: '2024-03-01 11:10',
      },
      {
        source_ref: '1002',
        fiscal_date: '2024-03-01',
        kind: 'SALE',
        total_cents: 995,
        total_excl_cents: 829,
        tax_cents: 166,
        utc: '2024-03-01 18:45',
      },
      // 3 × 2.555 = 7.665 → 7.67 (half away from zero, no float drift)
      {
        source_ref: '1003',
        fiscal_date: '2024-03-02',
        kind: 'SALE',
        total_cents: 767,
        total_excl_cents: 639,
        tax_cents: 128,
        utc: '2024-03-02 11:00',
      },
    ]);
    const { rows: lines } = await sandbox.db.pool.query(
      'SELECT line_no, article, quantity::text, unit_price_cents, amount_cents, vat_rate::text FROM ticket_lines ORDER BY ticket_id, line_no',
    );
    expect(lines[0]).toEqual({
      line_no: 1,
      article: 'Burger',
      quantity: '2.000',
      unit_price_cents: 995,
      amount_cents: 1990,
      vat_rate: '0.2000',
    });
    expect(lines[1]).toMatchObject({ line_no: 2, article: 'Cola', amount_cents: 250 });
    const { rows: daily } = await sandbox.db.pool.query(
      'SELECT fiscal_date, tickets, net_cents, net_excl_cents, tax_cents FROM daily_sales ORDER BY fiscal_date',
    );
    expect(daily).toEqual([
      { fiscal_date: '2024-03-01', tickets: 2, net_cents: 3235, net_excl_cents: 2695, tax_cents: 540 },
      { fiscal_date: '2024-03-02', tickets: 1, net_cents: 767, net_excl_cents: 639, tax_cents: 128 },
    ]);
    const { rows: site } = await sandbox.db.pool.query(
      'SELECT s.libelle, s.currency, s.time_zone, s.day_start, c.raison_sociale FROM sites s JOIN companies c ON c.id = s.company_id',
    );
    expect(site).toEqual([
      {
        libelle: 'Soho',
        currency: 'EUR',
        time_zone: 'Europe/Paris',
        day_start: '00:00',
        raison_sociale: 'London Food Ltd',
      },
    ]);
  });

  it('aborts on an unparseable date with file:line:column and the column name, and writes nothing', async () => {
    const file = await write(
      'bad-date.csv',
      [
        'Ticket,Date,Item,Qty,Price',
        '1,2024-03-01 12:10,Burger,1,9.95',
        '2,2024-03-01 12:11,Burger,1,9.95',
        '3,2024-13-45 12:12,Burger,1,9.95',
        '4,2024-03-01 12:13,Burger,1,9.95',
      ].join('\n'),
    );
    const error = await importSalesFile(sandbox.db.pool, {
      workers,
      file,
      mapping: BASIC,
      site: 'Soho',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toBe(
      `${file}:4:2 (Date): "2024-13-45 12:12" is not a date matching "yyyy-MM-dd HH:mm"`,
    );
    expect(await counts()).toEqual({ companies: 0, sites: 0, tickets: 0, lines: 0, days: 0 });
  });

  it('aborts on an unparseable quantity, naming its column', async () => {
    const file = await write(
      'bad-qty.csv',
      'Ticket,Date,Item,Qty,Price\n1,2024-03-01 12:10,Burger,two,9.95\n',
    );
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file, mapping: BASIC, site: 'Soho' }),
    ).rejects.toThrow(`${file}:2:4 (Qty): "two" is not a number`);
    expect(await counts()).toEqual({ companies: 0, sites: 0, tickets: 0, lines: 0, days: 0 });
  });

  it('joins a price list read beside the mapping file, and aborts on an article it lacks', async () => {
    const mappingDir = path.join(sandbox.dir, 'mappings');
    await fs.mkdir(mappingDir, { recursive: true });
    // The real price list starts with a UTF-8 BOM and uses CRLF: so does this one.
    await fs.writeFile(
      path.join(mappingDir, 'prices.csv'),
      '\uFEFFItem Name,Product Price\r\nPlain Papadum,0.8\r\nGarlic Naan,2.95\r\n',
    );
    const mappingFile = path.join(mappingDir, 'takeaway.json');
    await fs.writeFile(
      mappingFile,
      JSON.stringify({
        dateFormat: 'd/M/yyyy H:mm',
        columns: {
          ticket: 'Order Number',
          datetime: 'Order Date',
          article: 'Item Name',
          quantity: 'Quantity',
          unitPrice: null,
        },
        prices: { file: 'prices.csv', article: 'Item Name', unitPrice: 'Product Price' },
        vatRate: 0.2,
        currency: 'GBP',
        timeZone: 'Europe/London',
      }),
    );
    const good = await write(
      'orders.csv',
      'Order Number,Order Date,Item Name,Quantity\n16118,3/8/2019 20:25,Plain Papadum,2\n16118,3/8/2019 20:25,Garlic Naan,1\n',
    );
    const result = await importSalesFile(sandbox.db.pool, {
      workers,
      file: good,
      mapping: mappingFile,
      site: 'Takeaway',
    });
    expect(result.ticketsInserted).toBe(1);
    const { rows } = await sandbox.db.pool.query(
      "SELECT t.total_cents, t.fiscal_date, to_char(t.opened_at AT TIME ZONE 'UTC', 'HH24:MI') AS utc, s.currency, s.time_zone FROM tickets t JOIN sites s ON s.id = t.site_id",
    );
    // 2 × 0.80 + 2.95, at 20:25 London summer time (UTC+1)
    expect(rows).toEqual([
      {
        total_cents: 455,
        fiscal_date: '2019-08-03',
        utc: '19:25',
        currency: 'GBP',
        time_zone: 'Europe/London',
      },
    ]);

    const bad = await write(
      'orders-unknown.csv',
      'Order Number,Order Date,Item Name,Quantity\n1,3/8/2019 20:25,Garlic Naan,1\n2,3/8/2019 20:30,Peshwari Naan,1\n',
    );
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file: bad, mapping: mappingFile, site: 'Takeaway 2' }),
    ).rejects.toThrow(`${bad}:3:3 (Item Name): no price for article "Peshwari Naan" in the price list`);
    const { rows: after } = await sandbox.db.pool.query(
      "SELECT count(*)::int AS n FROM sites WHERE libelle = 'Takeaway 2'",
    );
    expect(after[0].n).toBe(0);
  });

  it('changes nothing when the same file is imported again', async () => {
    const file = await write(
      'again.csv',
      'Ticket,Date,Item,Qty,Price\n1,2024-03-01 12:10,Burger,1,9.95\n2,2024-03-02 12:10,Burger,2,9.95\nC3,2024-03-02 12:20,Burger,-1,9.95\n',
    );
    const first = await importSalesFile(sandbox.db.pool, { workers, file, mapping: BASIC, site: 'Soho' });
    const before = await snapshot();
    const second = await importSalesFile(sandbox.db.pool, { workers, file, mapping: BASIC, site: 'Soho' });
    expect(second).toMatchObject({
      siteCreated: false,
      ticketsRead: 3,
      ticketsInserted: 0,
      ticketsSkipped: 3,
      linesInserted: 0,
    });
    expect(first.ticketsInserted).toBe(3);
    expect(await snapshot()).toEqual(before);
  });

  it('counts returns (negative quantities) and C-prefixed cancellations negatively', async () => {
    const file = await write(
      'returns.csv',
      [
        'Ticket,Date,Item,Qty,Price',
        '536365,2010-12-01 08:26,Lantern,6,3.39',
        '536366,2010-12-01 09:00,Lantern,-2,3.39',
        'C536367,2010-12-01 10:00,Lantern,-1,3.39',
        // a cancellation written with a positive quantity still counts negatively
        'C536368,2010-12-01 10:05,Heart,1,2.55',
        // a negative price (a bad-debt adjustment) is taken as written
        'A563185,2010-12-01 11:00,Adjust bad debt,1,-11062.06',
      ].join('\n'),
    );
    await importSalesFile(sandbox.db.pool, { workers, file, mapping: BASIC, site: 'Retail' });
    const { rows } = await sandbox.db.pool.query(
      'SELECT source_ref, kind, total_cents FROM tickets ORDER BY source_ref',
    );
    expect(rows).toEqual([
      { source_ref: '536365', kind: 'SALE', total_cents: 2034 },
      { source_ref: '536366', kind: 'RETURN', total_cents: -678 },
      { source_ref: 'A563185', kind: 'SALE', total_cents: -1106206 },
      { source_ref: 'C536367', kind: 'CANCELLATION', total_cents: -339 },
      { source_ref: 'C536368', kind: 'CANCELLATION', total_cents: -255 },
    ]);
    const { rows: daily } = await sandbox.db.pool.query('SELECT tickets, net_cents FROM daily_sales');
    expect(daily).toEqual([{ tickets: 2, net_cents: 2034 - 678 - 339 - 255 - 1106206 }]);
  });

  it('puts a 01:30 ticket on the previous fiscal date when the day starts at 05:00', async () => {
    const file = await write(
      'late.csv',
      'Ticket,Date,Item,Qty,Price\n1,2024-03-01 23:50,Beer,1,5\n2,2024-03-02 01:30,Beer,1,5\n3,2024-03-02 05:00,Coffee,1,2\n',
    );
    const result = await importSalesFile(sandbox.db.pool, {
      workers,
      file,
      mapping: BASIC,
      site: 'Bar',
      dayStart: '05:00',
    });
    expect(result).toMatchObject({ fromDate: '2024-03-01', toDate: '2024-03-02' });
    const { rows } = await sandbox.db.pool.query(
      'SELECT source_ref, fiscal_date FROM tickets ORDER BY source_ref',
    );
    expect(rows).toEqual([
      { source_ref: '1', fiscal_date: '2024-03-01' },
      { source_ref: '2', fiscal_date: '2024-03-01' },
      { source_ref: '3', fiscal_date: '2024-03-02' },
    ]);
    const { rows: site } = await sandbox.db.pool.query('SELECT day_start FROM sites');
    expect(site).toEqual([{ day_start: '05:00' }]);
    // The site keeps its day start: another one is refused rather than silently mixing two.
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file, mapping: BASIC, site: 'Bar', dayStart: '04:00' }),
    ).rejects.toThrow('site "Bar" already exists with day start 05:00, not 04:00');
  });

  it('reads a gzip file', async () => {
    const file = await write(
      'sales.csv.gz',
      gzipSync(
        'Ticket,Date,Item,Qty,Price\n1,2024-03-01 12:10,Burger,1,9.95\n2,2024-03-01 12:20,Burger,1,9.95\n',
      ),
    );
    const result = await importSalesFile(sandbox.db.pool, { workers, file, mapping: BASIC, site: 'Soho' });
    expect(result).toMatchObject({ ticketsInserted: 2, linesInserted: 2, source: 'file:sales.csv' });
  });

  it('reads semicolons, decimal commas, latin1 text and separate date and time columns', async () => {
    const text =
      'Ticket;Jour;Heure;Article;Famille;Qté;Prix TTC;TVA;Caisse;Vendeur;Règlement\n' +
      'T1;01/03/2024;12:10:00;Crème brûlée;Desserts;2;7,50;10;1;V01;Carte\n' +
      'T1;01/03/2024;12:10:00;Café;Boissons;1;2,35;10;1;V01;Espèces\n' +
      'T2;01/03/2024;20:05:00;Pichet de rosé;Vins;0,5;18,90;20 %;2;V02;Ticket restaurant\n';
    const file = await write('caisse-latin1.csv', iconv.encode(text, 'latin1'));
    const mapping = {
      delimiter: ';',
      decimal: ',',
      encoding: 'latin1',
      dateFormat: 'dd/MM/yyyy',
      timeFormat: 'HH:mm:ss',
      columns: {
        ticket: 'Ticket',
        date: 'Jour',
        time: 'Heure',
        article: 'Article',
        family: 'Famille',
        quantity: 'Qté',
        unitPrice: 'Prix TTC',
        vatRate: 'TVA',
        terminal: 'Caisse',
        seller: 'Vendeur',
        payment: 'Règlement',
      },
    };
    await importSalesFile(sandbox.db.pool, { workers, file, mapping, site: 'Lyon' });
    const { rows: lines } = await sandbox.db.pool.query(
      'SELECT article, family, quantity::text, amount_cents, vat_rate::text, amount_excl_cents FROM ticket_lines ORDER BY ticket_id, line_no',
    );
    expect(lines).toEqual([
      {
        article: 'Crème brûlée',
        family: 'Desserts',
        quantity: '2.000',
        amount_cents: 1500,
        vat_rate: '0.1000',
        amount_excl_cents: 1364,
      },
      {
        article: 'Café',
        family: 'Boissons',
        quantity: '1.000',
        amount_cents: 235,
        vat_rate: '0.1000',
        amount_excl_cents: 214,
      },
      {
        article: 'Pichet de rosé',
        family: 'Vins',
        quantity: '0.500',
        amount_cents: 945,
        vat_rate: '0.2000',
        amount_excl_cents: 788,
      },
    ]);
    const { rows: tickets } = await sandbox.db.pool.query(
      'SELECT source_ref, terminal_id, seller_code, total_cents FROM tickets ORDER BY source_ref',
    );
    expect(tickets).toEqual([
      { source_ref: 'T1', terminal_id: 1, seller_code: 'V01', total_cents: 1735 },
      { source_ref: 'T2', terminal_id: 2, seller_code: 'V02', total_cents: 945 },
    ]);
    const { rows: payments } = await sandbox.db.pool.query(
      'SELECT method, amount_cents FROM payments ORDER BY ticket_id, payment_no',
    );
    expect(payments).toEqual([
      { method: 'CARD', amount_cents: 1500 },
      { method: 'CASH', amount_cents: 235 },
      { method: 'MEAL_VOUCHER', amount_cents: 945 },
    ]);
    const { rows: refs } = await sandbox.db.pool.query(
      'SELECT (SELECT count(*) FROM terminals)::int AS terminals, (SELECT count(*) FROM sellers)::int AS sellers',
    );
    expect(refs).toEqual([{ terminals: 2, sellers: 2 }]);
  });

  it('names the time column when only the time is unreadable', async () => {
    const file = await write('bad-time.csv', 'T;D;H;A;Q;P\n1;01/03/2024;25:99;Café;1;2,35\n');
    const mapping = {
      delimiter: ';',
      decimal: ',',
      dateFormat: 'dd/MM/yyyy',
      timeFormat: 'HH:mm',
      vatRate: 0.1,
      columns: { ticket: 'T', date: 'D', time: 'H', article: 'A', quantity: 'Q', unitPrice: 'P' },
    };
    await expect(importSalesFile(sandbox.db.pool, { workers, file, mapping, site: 'Lyon' })).rejects.toThrow(
      `${file}:2:3 (H): "25:99" is not a time matching "HH:mm"`,
    );
  });
});

describe('npm run import', () => {
  it('prints file:line:column and exits 1 on a bad line, then imports a good file into the database of DATABASE_URL', async () => {
    const mappingFile = path.join(sandbox.dir, 'basic.json');
    await fs.writeFile(mappingFile, JSON.stringify(BASIC));
    const bad = await write(
      'cli-bad.csv',
      'Ticket,Date,Item,Qty,Price\n1,2024-03-01 12:10,Burger,1,9.95\n2,2024-03-01 12:11,Burger,1,9,95\n',
    );
    const cli = path.resolve(import.meta.dirname, '../../src/server/cli/import.ts');
    const env = { ...process.env, DATABASE_URL: sandbox.db.url };
    const failed = spawnSync(process.execPath, [cli, bad, '--mapping', mappingFile, '--site', 'Soho'], {
      env,
      encoding: 'utf8',
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain(`${bad}:3`);
    expect(await counts()).toEqual({ companies: 0, sites: 0, tickets: 0, lines: 0, days: 0 });

    const good = await write(
      'cli-good.csv',
      'Ticket,Date,Item,Qty,Price\n1,2024-03-01 12:10,Burger,1,9.95\n',
    );
    const ok = spawnSync(
      process.execPath,
      [
        cli,
        good,
        '--mapping',
        mappingFile,
        '--site',
        'Soho',
        '--company',
        'Food Ltd',
        '--day-start',
        '04:00',
      ],
      { env, encoding: 'utf8' },
    );
    expect(ok.stderr).not.toContain('Nothing was imported');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('1 tickets and 1 lines written');
    const { rows } = await sandbox.db.pool.query(
      'SELECT s.day_start, c.raison_sociale FROM sites s JOIN companies c ON c.id = s.company_id',
    );
    expect(rows).toEqual([{ day_start: '04:00', raison_sociale: 'Food Ltd' }]);
  });

  it('answers a usage error with exit status 2', () => {
    const cli = path.resolve(import.meta.dirname, '../../src/server/cli/import.ts');
    const run = spawnSync(process.execPath, [cli, 'file.csv'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Usage: npm run import');
  });
});

describe('files cut into blocks', () => {
  it('keeps quoted fields with commas, quotes and newlines whole across blocks, and still reports the physical line', async () => {
    const rows = ['Ticket,Date,Item,Qty,Price'];
    for (let i = 1; i <= 40; i++) {
      const item = i % 7 === 0 ? `"Mug ""Paris"", blue,\nlarge ${i}"` : `Item ${i}`;
      rows.push(`${Math.ceil(i / 3)},2024-03-01 12:${String(i).padStart(2, '0')},${item},1,1.50`);
    }
    const good = await write('blocks.csv', `${rows.join('\n')}\n`);
    for (const workers of [0, 1]) {
      await sandbox.db.pool.query('TRUNCATE tickets, ticket_lines, daily_sales, sites, companies CASCADE');
      const result = await importSalesFile(sandbox.db.pool, {
        file: good,
        mapping: BASIC,
        site: 'Soho',
        workers,
        blockBytes: 64,
      });
      expect(result).toMatchObject({ linesRead: 40, ticketsInserted: 14, linesInserted: 40 });
      const { rows: mugs } = await sandbox.db.pool.query(
        "SELECT article FROM ticket_lines WHERE article LIKE 'Mug%' ORDER BY article",
      );
      expect(mugs).toHaveLength(5);
      expect(mugs[0].article).toBe('Mug "Paris", blue,\nlarge 14');
    }
    // Physical lines: header 1, then each record one line, plus one more line per quoted newline before it.
    const bad = rows.slice();
    bad[30] = bad[30]?.replace(',1,1.50', ',one,1.50') as string;
    const file = await write('blocks-bad.csv', `${bad.join('\n')}\n`);
    const newlinesBefore = bad.slice(0, 30).filter((r) => r.includes('\n')).length;
    for (const workers of [0, 1]) {
      await expect(
        importSalesFile(sandbox.db.pool, { file, mapping: BASIC, site: 'Soho 2', workers, blockBytes: 64 }),
      ).rejects.toThrow(`${file}:${31 + newlinesBefore}:4 (Qty): "one" is not a number`);
    }
  });

  it('reports a quote that never closes on the line where it opened, and writes nothing', async () => {
    const rows = ['Ticket,Date,Item,Qty,Price'];
    for (let i = 1; i <= 40; i++)
      rows.push(
        `${i},2024-03-01 12:${String(i).padStart(2, '0')},${i === 25 ? '"Mug, blue' : `Item ${i}`},1,1.50`,
      );
    const file = await write('unclosed.csv', `${rows.join('\n')}\n`);
    await sandbox.db.pool.query('TRUNCATE tickets, ticket_lines, daily_sales, sites, companies CASCADE');
    for (const workers of [0, 1]) {
      await expect(
        importSalesFile(sandbox.db.pool, { file, mapping: BASIC, site: 'Soho', workers, blockBytes: 64 }),
      ).rejects.toThrow(`${file}:26: unreadable CSV: a quoted field opened on this line is never closed`);
      expect(await counts()).toMatchObject({ tickets: 0, lines: 0 });
    }
  });

  it('reports a record with a missing field on its line, and keeps a quote inside an unquoted field as text', async () => {
    const rows = ['Ticket,Date,Item,Qty,Price'];
    for (let i = 1; i <= 40; i++)
      rows.push(
        `${i},2024-03-01 12:${String(i).padStart(2, '0')},${i === 5 ? '12" pizza' : `Item ${i}`},1,1.50`,
      );
    const good = await write('stray-quote.csv', `${rows.join('\n')}\n`);
    const narrow = rows.slice();
    narrow[30] = '30,2024-03-01 12:30,Item 30,1';
    const bad = await write('narrow.csv', `${narrow.join('\n')}\n`);
    for (const workers of [0, 1]) {
      await sandbox.db.pool.query('TRUNCATE tickets, ticket_lines, daily_sales, sites, companies CASCADE');
      await expect(
        importSalesFile(sandbox.db.pool, {
          file: bad,
          mapping: BASIC,
          site: 'Soho',
          workers,
          blockBytes: 64,
        }),
      ).rejects.toThrow(
        new RegExp(
          `^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:31: unreadable CSV: Invalid Record Length`,
        ),
      );
      expect(await counts()).toMatchObject({ tickets: 0, lines: 0 });
      const result = await importSalesFile(sandbox.db.pool, {
        file: good,
        mapping: BASIC,
        site: 'Soho',
        workers,
        blockBytes: 64,
      });
      expect(result).toMatchObject({ linesRead: 40, linesInserted: 40 });
      const { rows: pizza } = await sandbox.db.pool.query(
        "SELECT article FROM ticket_lines WHERE article LIKE '%pizza'",
      );
      expect(pizza).toEqual([{ article: '12" pizza' }]);
    }
  });
});

/**
 * Wide exports (`wide` in the mapping): one row per ticket and one column per product holding
 * its quantity, priced from a price list (with `aliases` for names spelled otherwise there);
 * and currencies without minor unit (KRW), whose amounts stay whole units.
 */
import { describe, expect, it } from 'vitest';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { setUpImportFiles } from '../helpers/import-files.ts';

const sandbox = setUpImportFiles('cpt-wide-');
const { write } = sandbox;

const PRICES = 'product_name,price,calories\nangbutter,4800,600\njam,1500,56\nvalina latte,4500,195\n';
const HEADER = 'datetime,day of week,total,angbutter,jam,vanila latte,order_id\n';

function mapping(prices: string, currency = 'KRW') {
  return {
    dateFormat: 'yyyy-MM-dd HH:mm',
    columns: { ticket: 'order_id', datetime: 'datetime' },
    wide: { articles: ['angbutter', 'jam', 'vanila latte'] },
    prices: {
      file: prices,
      article: 'product_name',
      unitPrice: 'price',
      aliases: { 'vanila latte': 'valina latte' },
    },
    vatRate: 0.1,
    currency,
    timeZone: 'Asia/Seoul',
  };
}

async function lines() {
  return (
    await sandbox.db.pool.query(
      `SELECT t.source_ref, l.line_no, l.article, l.quantity::int AS quantity, l.amount_cents, l.amount_excl_cents, l.tax_cents
       FROM ticket_lines l JOIN tickets t USING (site_id, ticket_id) ORDER BY t.ticket_id, l.line_no`,
    )
  ).rows;
}

describe.each([0, 1])('wide import with %i worker thread(s)', (workers) => {
  it('melts each row into one line per product bought, skips rows without any, and keeps KRW amounts whole', async () => {
    const prices = await write('prices.csv', PRICES);
    const file = await write(
      'sales.csv',
      `${HEADER}2019-07-11 15:35,Thur,23800.0,1.0,,2.0,a1\n,,,,,,a2\n2019-07-11 16:10,Thur,,,,,a3\n2019-07-11 16:12,Thur,1500.0,,1.0,,a4\n`,
    );
    const result = await importSalesFile(sandbox.db.pool, {
      workers,
      file,
      mapping: mapping(prices),
      site: 'Bakery',
    });
    expect(result).toMatchObject({ linesRead: 4, ticketsInserted: 2, linesInserted: 3 });
    expect(await lines()).toEqual([
      // 4,800 KRW: excl. round(4800 / 1.1) = 4,364 KRW, VAT 436 KRW — whole won, stored in hundredths.
      {
        source_ref: 'a1',
        line_no: 1,
        article: 'angbutter',
        quantity: 1,
        amount_cents: 480_000,
        amount_excl_cents: 436_400,
        tax_cents: 43_600,
      },
      {
        source_ref: 'a1',
        line_no: 2,
        article: 'vanila latte',
        quantity: 2,
        amount_cents: 900_000,
        amount_excl_cents: 818_200,
        tax_cents: 81_800,
      },
      {
        source_ref: 'a4',
        line_no: 1,
        article: 'jam',
        quantity: 1,
        amount_cents: 150_000,
        amount_excl_cents: 136_400,
        tax_cents: 13_600,
      },
    ]);
    const { rows } = await sandbox.db.pool.query('SELECT currency FROM sites');
    expect(rows).toEqual([{ currency: 'KRW' }]);
  });

  it('takes VAT out to the cent for a currency with cents', async () => {
    const prices = await write('prices.csv', PRICES);
    const file = await write('sales-eur.csv', `${HEADER}2019-07-11 15:35,Thur,,1,,,b1\n`);
    await importSalesFile(sandbox.db.pool, {
      workers,
      file,
      mapping: mapping(prices, 'EUR'),
      site: 'Bakery EUR',
    });
    // 4,800.00 EUR excl. 10 % VAT: round(480000 / 1.1) = 436,364 cents.
    expect((await lines())[0]).toMatchObject({
      amount_cents: 480_000,
      amount_excl_cents: 436_364,
      tax_cents: 43_636,
    });
  });

  it('locates a bad quantity, and a product missing from the price list, at the product column of the row', async () => {
    const prices = await write('prices.csv', 'product_name,price\nangbutter,4800\njam,1500\n');
    const file = await write(
      'bad.csv',
      `${HEADER}2019-07-11 15:35,Thur,,1.0,,,c1\n2019-07-11 15:40,Thur,,1.0,lots,,c2\n`,
    );
    const m = mapping(prices);
    const noAlias = { ...m, prices: { ...m.prices, aliases: {} } };
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file, mapping: noAlias, site: 'Bakery' }),
    ).rejects.toThrow(`${file}:3:5 (jam): "lots" is not a number`);
    const latte = await write(
      'latte.csv',
      `${HEADER}2019-07-11 15:35,Thur,,1.0,,,d1\n2019-07-11 15:40,Thur,,,,1.0,d2\n`,
    );
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file: latte, mapping: noAlias, site: 'Bakery' }),
    ).rejects.toThrow(`${latte}:3:6 (vanila latte): no price for article "vanila latte" in the price list`);
    const { rows } = await sandbox.db.pool.query('SELECT count(*)::int AS n FROM sites');
    expect(rows[0].n).toBe(0);
  });

  it('refuses a wide mapping that also names an article or quantity column', async () => {
    const prices = await write('prices.csv', PRICES);
    const file = await write('sales.csv', `${HEADER}2019-07-11 15:35,Thur,,1.0,,,e1\n`);
    await expect(
      importSalesFile(sandbox.db.pool, {
        workers,
        file,
        mapping: {
          ...mapping(prices),
          columns: { ticket: 'order_id', datetime: 'datetime', quantity: 'jam' },
        },
        site: 'Bakery',
      }),
    ).rejects.toThrow('with "wide", the product columns give the article and the quantity');
  });
});

/**
 * Joined files (`lookups` in the mapping): a normalised export — order lines, orders, products,
 * product types — imported as one sales file, with errors located in the file that holds the
 * bad field, as `file:line:column (Column): reason`.
 */
import { describe, expect, it } from 'vitest';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { setUpImportFiles } from '../helpers/import-files.ts';

const sandbox = setUpImportFiles('cpt-lookups-');
const { write } = sandbox;

const ORDERS = 'order_id,date,time\n1,2015-01-01,11:38:36\n2,2015-01-01,23:57:40\n';
const PIZZAS = 'pizza_id,pizza_type_id,size,price\nhawaiian_m,hawaiian,M,13.25\nveggie_s,veggie,S,12\n';
const TYPES =
  '\uFEFFpizza_type_id,name,category,ingredients\nhawaiian,The Hawaiian Pizza,Classic,"Ham, Pineapple"\nveggie,The Veggie Pizza,Veggie,"Peppers, Onions"\n';

/** A mapping joining order lines to orders, pizzas, and (through pizzas) pizza types. */
function mapping(files: { orders: string; pizzas: string; types: string }) {
  return {
    dateFormat: 'yyyy-MM-dd',
    timeFormat: 'HH:mm:ss',
    lookups: [
      { name: 'orders', file: files.orders, key: 'order_id', on: 'order_id' },
      { name: 'pizzas', file: files.pizzas, key: 'pizza_id', on: 'pizza_id' },
      { name: 'types', file: files.types, key: 'pizza_type_id', on: 'pizzas.pizza_type_id' },
    ],
    columns: {
      ticket: 'order_id',
      date: 'orders.date',
      time: 'orders.time',
      article: 'types.name',
      articleCode: 'pizza_id',
      family: 'types.category',
      quantity: 'quantity',
      unitPrice: 'pizzas.price',
    },
    vatRate: 0.1,
    currency: 'USD',
    timeZone: 'America/New_York',
  };
}

async function counts() {
  const { rows } = await sandbox.db.pool.query(
    'SELECT (SELECT count(*) FROM sites)::int AS sites, (SELECT count(*) FROM ticket_lines)::int AS lines',
  );
  return rows[0];
}

describe.each([0, 1])('import with joined files, %i worker thread(s)', (workers) => {
  it('widens each order line with its order, pizza and pizza type, chained through an earlier lookup', async () => {
    const files = {
      orders: await write('orders.csv', ORDERS),
      pizzas: await write('pizzas.csv', PIZZAS),
      types: await write('types.csv', TYPES),
    };
    const file = await write(
      'order_details.csv',
      'order_details_id,order_id,pizza_id,quantity\n1,1,hawaiian_m,2\n2,1,veggie_s,1\n3,2,veggie_s,3\n',
    );
    const result = await importSalesFile(sandbox.db.pool, {
      workers,
      file,
      mapping: mapping(files),
      site: 'Pizza',
    });
    expect(result).toMatchObject({ linesRead: 3, ticketsInserted: 2, linesInserted: 3 });
    const lines = (
      await sandbox.db.pool.query(
        `SELECT t.source_ref, t.fiscal_date, to_char(t.opened_at AT TIME ZONE 'UTC', 'HH24:MI:SS') AS utc, l.article, l.article_code,
              l.family, l.quantity::int AS quantity, l.amount_cents, l.amount_excl_cents
         FROM ticket_lines l JOIN tickets t USING (site_id, ticket_id) ORDER BY l.ticket_id, l.line_no`,
      )
    ).rows;
    expect(lines).toEqual([
      // 2 × 13.25 = 26.50, excl. 10 % VAT round(2650 / 1.1) = 2409; 11:38:36 New York = 16:38:36 UTC.
      {
        source_ref: '1',
        fiscal_date: '2015-01-01',
        utc: '16:38:36',
        article: 'The Hawaiian Pizza',
        article_code: 'hawaiian_m',
        family: 'Classic',
        quantity: 2,
        amount_cents: 2650,
        amount_excl_cents: 2409,
      },
      {
        source_ref: '1',
        fiscal_date: '2015-01-01',
        utc: '16:38:36',
        article: 'The Veggie Pizza',
        article_code: 'veggie_s',
        family: 'Veggie',
        quantity: 1,
        amount_cents: 1200,
        amount_excl_cents: 1091,
      },
      {
        source_ref: '2',
        fiscal_date: '2015-01-01',
        utc: '04:57:40',
        article: 'The Veggie Pizza',
        article_code: 'veggie_s',
        family: 'Veggie',
        quantity: 3,
        amount_cents: 3600,
        amount_excl_cents: 3273,
      },
    ]);
  });

  it('stops at a line whose key has no row, naming the line and its column, and writes nothing', async () => {
    const files = {
      orders: await write('orders.csv', ORDERS),
      pizzas: await write('pizzas.csv', PIZZAS),
      types: await write('types.csv', TYPES),
    };
    const file = await write(
      'details-unknown.csv',
      'order_details_id,order_id,pizza_id,quantity\n1,1,hawaiian_m,2\n2,1,calzone_l,1\n',
    );
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file, mapping: mapping(files), site: 'Pizza' }),
    ).rejects.toThrow(`${file}:3:3 (pizza_id): no row with pizza_id "calzone_l" in pizzas.csv`);
    expect(await counts()).toEqual({ sites: 0, lines: 0 });
  });

  it('locates a key missing further down the chain, and a bad value, in the lookup file that holds them', async () => {
    const orders = await write('orders.csv', ORDERS);
    const types = await write('types.csv', TYPES);
    const file = await write(
      'details.csv',
      'order_details_id,order_id,pizza_id,quantity\n1,1,hawaiian_m,2\n2,2,veggie_s,1\n',
    );
    const badType = await write(
      'pizzas-bad-type.csv',
      'pizza_id,pizza_type_id,size,price\nhawaiian_m,hawaiian,M,13.25\nveggie_s,vegan,S,12\n',
    );
    await expect(
      importSalesFile(sandbox.db.pool, {
        workers,
        file,
        mapping: mapping({ orders, pizzas: badType, types }),
        site: 'Pizza',
      }),
    ).rejects.toThrow(`${badType}:3:2 (pizza_type_id): no row with pizza_type_id "vegan" in types.csv`);
    const badPrice = await write(
      'pizzas-bad-price.csv',
      'pizza_id,pizza_type_id,size,price\nhawaiian_m,hawaiian,M,13.25\nveggie_s,veggie,S,twelve\n',
    );
    await expect(
      importSalesFile(sandbox.db.pool, {
        workers,
        file,
        mapping: mapping({ orders, pizzas: badPrice, types }),
        site: 'Pizza',
      }),
    ).rejects.toThrow(`${badPrice}:3:4 (price): "twelve" is not a number`);
    const badTime = await write(
      'orders-bad-time.csv',
      'order_id,date,time\n1,2015-01-01,11:38:36\n2,2015-01-01,noon\n',
    );
    await expect(
      importSalesFile(sandbox.db.pool, {
        workers,
        file,
        mapping: mapping({ orders: badTime, pizzas: await write('pizzas.csv', PIZZAS), types }),
        site: 'Pizza',
      }),
    ).rejects.toThrow(`${badTime}:3:3 (time): "noon" is not a time matching "HH:mm:ss"`);
    expect(await counts()).toEqual({ sites: 0, lines: 0 });
  });

  it('refuses a lookup file listing a key twice, and a join on a column that does not exist', async () => {
    const file = await write(
      'details.csv',
      'order_details_id,order_id,pizza_id,quantity\n1,1,hawaiian_m,2\n',
    );
    const twice = await write(
      'orders-twice.csv',
      'order_id,date,time\n1,2015-01-01,11:38:36\n1,2015-01-02,12:00:00\n',
    );
    const files = {
      orders: twice,
      pizzas: await write('pizzas.csv', PIZZAS),
      types: await write('types.csv', TYPES),
    };
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file, mapping: mapping(files), site: 'Pizza' }),
    ).rejects.toThrow(`${twice}:3:1 (order_id): key "1" is already on line 2`);
    const wrongOn = mapping({ ...files, orders: await write('orders.csv', ORDERS) });
    wrongOn.lookups[2] = { ...(wrongOn.lookups[2] as (typeof wrongOn.lookups)[number]), on: 'pizza_type_id' };
    await expect(
      importSalesFile(sandbox.db.pool, { workers, file, mapping: wrongOn, site: 'Pizza' }),
    ).rejects.toThrow(
      'lookup "types" joins on "pizza_type_id", which is neither a column of the file nor of an earlier lookup',
    );
    expect(await counts()).toEqual({ sites: 0, lines: 0 });
  });
});

/**
 * Real-data checks (issue #2 §3, §5, §8): the two real exports of ../shared/data are imported
 * with the mappings shipped in docs/mappings, and every fiscal date's ticket count and amounts
 * (in `daily_sales` and in `tickets`) must equal, to the cent, figures computed here straight
 * from the raw files — with code independent of the importer (its own CSV reading, date
 * reading and exact integer arithmetic).
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { createTestDatabase } from '../helpers/db.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const DATA = path.resolve(REPO, '../shared/data');
const TAKEAWAY = path.join(DATA, 'takeaway-restaurants-london/restaurant-1-orders.csv');
const TAKEAWAY_PRICES = path.join(DATA, 'takeaway-restaurants-london/restaurant-1-products-price.csv');
const UCI = path.join(DATA, 'uci-online-retail/online_retail_uci_2010-2011.csv.gz');
/** Well under a minute, on this 2-core machine, with the rest of CI around. */
const MAX_SECONDS = 45;

function requireData(): void {
  const missing = [TAKEAWAY, TAKEAWAY_PRICES, UCI].filter((f) => !existsSync(f));
  if (missing.length > 0) {
    throw new Error(
      `The real data sets are missing (${missing.join(', ')}). This suite reads ../shared/data beside the repository; it never copies them in.`,
    );
  }
}

/** A decimal text as an integer number of ten-thousandths (prices have at most 3 decimals). */
function tenThousandths(text: string): bigint {
  const m = /^(-?)(\d*)(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!m || (m[2] === '' && m[3] === undefined)) throw new Error(`not a price: ${text}`);
  const value = BigInt(`${m[2] || '0'}${(m[3] ?? '').padEnd(4, '0')}`);
  return m[1] === '-' ? -value : value;
}

/** `numerator / denominator` to the nearest integer, halves away from zero (denominator > 0). */
function nearest(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const rounded = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

interface Day {
  tickets: number;
  net: bigint;
  excl: bigint;
  tax: bigint;
}
interface TicketAcc {
  first: string;
  cancel: boolean;
  allNegative: boolean;
  net: bigint;
  excl: bigint;
}

/**
 * Expected figures per fiscal date (day start 00:00): a ticket is the set of lines with one
 * ticket value, dated by its earliest time; it counts in `tickets` when it is a sale (neither
 * a C-cancellation nor all-negative); amounts include every ticket; VAT 20 % per line.
 */
function expectedByDate(
  lines: { ticket: string; when: string; quantity: bigint; price4: bigint }[],
  cancelPrefix: string | null,
) {
  const tickets = new Map<string, TicketAcc>();
  for (const l of lines) {
    const cancel = cancelPrefix !== null && l.ticket.startsWith(cancelPrefix);
    const quantity = cancel && l.quantity > 0n ? -l.quantity : l.quantity;
    const amount = nearest(quantity * l.price4, 100n);
    const excl = nearest(amount * 10n, 12n);
    const t = tickets.get(l.ticket);
    if (!t) {
      tickets.set(l.ticket, { first: l.when, cancel, allNegative: quantity < 0n, net: amount, excl });
    } else {
      if (l.when < t.first) t.first = l.when;
      t.allNegative &&= quantity < 0n;
      t.net += amount;
      t.excl += excl;
    }
  }
  const days = new Map<string, Day>();
  for (const t of tickets.values()) {
    const date = t.first.slice(0, 10);
    const d = days.get(date) ?? { tickets: 0, net: 0n, excl: 0n, tax: 0n };
    if (!t.cancel && !t.allNegative) d.tickets++;
    d.net += t.net;
    d.excl += t.excl;
    d.tax += t.net - t.excl;
    days.set(date, d);
  }
  return { tickets: tickets.size, days };
}

function asRows(days: Map<string, Day>) {
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, d]) => ({
      fiscal_date: date,
      tickets: d.tickets,
      net_cents: Number(d.net),
      net_excl_cents: Number(d.excl),
      tax_cents: Number(d.tax),
    }));
}

type Db = Awaited<ReturnType<typeof createTestDatabase>>;

async function figures(db: Db, siteId: number) {
  const daily = (
    await db.pool.query(
      'SELECT fiscal_date, tickets, net_cents, net_excl_cents, tax_cents FROM daily_sales WHERE site_id = $1 ORDER BY fiscal_date',
      [siteId],
    )
  ).rows;
  const fromTickets = (
    await db.pool.query(
      `SELECT fiscal_date, (count(*) FILTER (WHERE kind = 'SALE'))::int AS tickets, sum(total_cents)::bigint AS net_cents,
            sum(total_excl_cents)::bigint AS net_excl_cents, sum(tax_cents)::bigint AS tax_cents
       FROM tickets WHERE site_id = $1 AND NOT training_mode GROUP BY fiscal_date ORDER BY fiscal_date`,
      [siteId],
    )
  ).rows;
  const counts = (
    await db.pool.query(
      `SELECT (SELECT count(*) FROM tickets WHERE site_id = $1)::int AS tickets,
            (SELECT count(*) FROM ticket_lines WHERE site_id = $1)::int AS lines`,
      [siteId],
    )
  ).rows[0];
  return { daily, fromTickets, counts };
}

describe('import of the real exports of ../shared/data', () => {
  let db: Db;
  beforeAll(async () => {
    requireData();
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('imports the London takeaway (with its price list) with every fiscal date equal to the raw file, to the penny', async () => {
    const prices = new Map<string, bigint>();
    for (const row of parse(await fs.readFile(TAKEAWAY_PRICES), { bom: true, columns: true }) as Record<
      string,
      string
    >[]) {
      prices.set(row['Item Name'] as string, tenThousandths(row['Product Price'] as string));
    }
    const lines = (parse(await fs.readFile(TAKEAWAY), { columns: true }) as Record<string, string>[]).map(
      (row) => {
        const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2})$/.exec(row['Order Date'] as string);
        if (!m) throw new Error(`unexpected date ${row['Order Date']}`);
        const price4 = prices.get(row['Item Name'] as string);
        if (price4 === undefined) throw new Error(`no price for ${row['Item Name']}`);
        return {
          ticket: row['Order Number'] as string,
          when: `${m[3]}-${m[2]?.padStart(2, '0')}-${m[1]?.padStart(2, '0')} ${m[4]?.padStart(2, '0')}:${m[5]}`,
          quantity: BigInt(row.Quantity as string),
          price4,
        };
      },
    );
    const expected = expectedByDate(lines, null);

    const result = await importSalesFile(db.pool, {
      file: TAKEAWAY,
      mapping: path.join(REPO, 'docs/mappings/takeaway-restaurant-1.json'),
      site: 'Takeaway London 1',
      company: 'London Takeaways',
    });
    console.log(
      `takeaway restaurant 1: ${result.linesRead} lines, ${result.ticketsInserted} tickets imported in ${result.seconds.toFixed(2)} s`,
    );
    expect(result.seconds).toBeLessThan(MAX_SECONDS);
    expect(result).toMatchObject({ linesRead: 74_818, ticketsInserted: 13_397, linesInserted: 74_818 });
    expect(expected.tickets).toBe(13_397);

    const got = await figures(db, result.siteId);
    const want = asRows(expected.days);
    expect(got.daily).toEqual(want);
    expect(got.fromTickets).toEqual(want);
    // PROVENANCE.txt: the implied revenue of the file is 445,058.45.
    expect(want.reduce((s, d) => s + d.net_cents, 0)).toBe(44_505_845);

    const again = await importSalesFile(db.pool, {
      file: TAKEAWAY,
      mapping: path.join(REPO, 'docs/mappings/takeaway-restaurant-1.json'),
      site: 'Takeaway London 1',
    });
    expect(again).toMatchObject({ ticketsInserted: 0, linesInserted: 0, ticketsSkipped: 13_397 });
    expect(await figures(db, result.siteId)).toEqual(got);
  });

  it('imports UCI Online Retail (gzip, C cancellations, returns, 3-decimal and negative prices) with every fiscal date equal to the raw file', async () => {
    const rows = parse(gunzipSync(await fs.readFile(UCI)), { columns: true }) as Record<string, string>[];
    const lines = rows.map((row) => ({
      ticket: row.InvoiceNo as string,
      when: row.InvoiceDate as string,
      quantity: BigInt(row.Quantity as string),
      price4: tenThousandths(row.UnitPrice as string),
    }));
    const expected = expectedByDate(lines, 'C');

    const result = await importSalesFile(db.pool, {
      file: UCI,
      mapping: path.join(REPO, 'docs/mappings/uci-online-retail.json'),
      site: 'UCI Online Retail',
    });
    console.log(
      `UCI online retail: ${result.linesRead} lines, ${result.ticketsInserted} tickets imported in ${result.seconds.toFixed(2)} s`,
    );
    expect(result.seconds).toBeLessThan(MAX_SECONDS);
    expect(result).toMatchObject({ linesRead: 541_909, ticketsInserted: 25_900, linesInserted: 541_909 });
    expect(expected.tickets).toBe(25_900);

    const got = await figures(db, result.siteId);
    const want = asRows(expected.days);
    expect(got.daily).toEqual(want);
    expect(got.fromTickets).toEqual(want);
    const { rows: kinds } = await db.pool.query(
      'SELECT kind, count(*)::int AS n FROM tickets WHERE site_id = $1 GROUP BY kind ORDER BY kind',
      [result.siteId],
    );
    // PROVENANCE.txt: 3,836 cancellation invoices.
    expect(kinds.find((k) => k.kind === 'CANCELLATION')?.n).toBe(3_836);

    const again = await importSalesFile(db.pool, {
      file: UCI,
      mapping: path.join(REPO, 'docs/mappings/uci-online-retail.json'),
      site: 'UCI Online Retail',
    });
    expect(again).toMatchObject({ ticketsInserted: 0, linesInserted: 0, ticketsSkipped: 25_900 });
    expect(await figures(db, result.siteId)).toEqual(got);
  });
});

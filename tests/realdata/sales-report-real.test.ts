/**
 * The sales report on real data (issue #2 §5: "the figures must equal sums computed straight
 * from the source files"): the two real exports of ../shared/data are imported, then the
 * report is asked through the real API (bo/getReport, JSON and CSV) and every row — tickets,
 * net sales incl. and excl. VAT, VAT, average ticket — must equal figures computed here from
 * the raw files, with code of this file only (its own CSV reading and integer arithmetic).
 *
 * Business rules the expected figures follow (SPEC.md / issue #2 §3): lines with one ticket
 * value form a ticket, dated by its earliest line (day start 00:00); line amount =
 * quantity × unit price rounded to the penny, VAT 20 % taken out per line; a ticket whose
 * value starts with C (UCI) is a cancellation and counts negatively, a ticket of negative lines
 * only is a return; `tickets` counts the other (sale) tickets.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { addDays, format, parse as parseDate } from 'date-fns';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/contract/reports.ts';
import { importSalesFile } from '../../src/server/import/sales.ts';
import { type AuthHeaders, createTestApp, type TestApp } from '../helpers/app.ts';
import { expectedSalesTotals } from '../reports/chain.ts';
import { datasetAnswer } from '../helpers/dataset-answer.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const DATA = path.resolve(REPO, '../shared/data');
const TAKEAWAY = path.join(DATA, 'takeaway-restaurants-london/restaurant-1-orders.csv');
const TAKEAWAY_PRICES = path.join(DATA, 'takeaway-restaurants-london/restaurant-1-products-price.csv');
const UCI = path.join(DATA, 'uci-online-retail/online_retail_uci_2010-2011.csv.gz');
const PASSWORD = 'Real-Data-2026!';

interface Line {
  ticket: string;
  when: string;
  quantity: bigint;
  pricePence1000: bigint;
}
interface ExpectedRow {
  fiscalDate: string;
  tickets: number;
  netSales: number;
  netSalesExclTax: number;
  tax: number;
  averageTicket: number;
}

/** A price text (at most 3 decimals) as thousandths of a pound. */
function thousandths(text: string): bigint {
  const m = /^(-?)(\d*)(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (!m) throw new Error(`not a price: ${text}`);
  const v = BigInt(`${m[2] || '0'}${(m[3] ?? '').padEnd(3, '0')}`);
  return m[1] === '-' ? -v : v;
}

/** a / b to the nearest integer, halves away from zero (b > 0). */
function roundDiv(a: bigint, b: bigint): bigint {
  const q = ((a < 0n ? -a : a) * 2n + b) / (2n * b);
  return a < 0n ? -q : q;
}

function expectedRows(lines: Line[], cancelPrefix: string | null): ExpectedRow[] {
  const tickets = new Map<
    string,
    { first: string; cancel: boolean; negativeOnly: boolean; net: bigint; excl: bigint }
  >();
  for (const l of lines) {
    const cancel = cancelPrefix !== null && l.ticket.startsWith(cancelPrefix);
    const quantity = cancel && l.quantity > 0n ? -l.quantity : l.quantity;
    // thousandths × quantity → pence: divide by 10.
    const amount = roundDiv(quantity * l.pricePence1000, 10n);
    const excl = roundDiv(amount * 5n, 6n); // amount / 1.2
    const t = tickets.get(l.ticket);
    if (!t) tickets.set(l.ticket, { first: l.when, cancel, negativeOnly: quantity < 0n, net: amount, excl });
    else {
      if (l.when < t.first) t.first = l.when;
      t.negativeOnly &&= quantity < 0n;
      t.net += amount;
      t.excl += excl;
    }
  }
  const days = new Map<string, ExpectedRow>();
  for (const t of tickets.values()) {
    const date = t.first.slice(0, 10);
    const d = days.get(date) ?? {
      fiscalDate: date,
      tickets: 0,
      netSales: 0,
      netSalesExclTax: 0,
      tax: 0,
      averageTicket: 0,
    };
    if (!t.cancel && !t.negativeOnly) d.tickets += 1;
    d.netSales += Number(t.net);
    d.netSalesExclTax += Number(t.excl);
    d.tax += Number(t.net - t.excl);
    days.set(date, d);
  }
  const rows = [...days.values()].sort((a, b) => a.fiscalDate.localeCompare(b.fiscalDate));
  for (const r of rows) r.averageTicket = r.tickets === 0 ? 0 : Math.round(r.netSales / r.tickets);
  return rows;
}

let t: TestApp;
let headers: AuthHeaders;
let userId: number;

beforeAll(async () => {
  const missing = [TAKEAWAY, TAKEAWAY_PRICES, UCI].filter((f) => !existsSync(f));
  if (missing.length > 0)
    throw new Error(`The real data sets are missing: ${missing.join(', ')} (read from ../shared/data).`);
  t = await createTestApp();
  userId = await t.createUser({ login: 'analyst', password: PASSWORD, droits: ['RAPPORTS'], allSites: true });
  headers = await t.signIn('analyst', PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

async function report(
  siteId: number,
  dateDebut: string,
  dateFin: string,
  fmt: 'JSON' | 'CSV',
  language = 'en',
) {
  // The imports write sites behind the server's back, as `npm run import` does from another
  // process: let its caches hear of them first (src/server/db/changes.ts).
  await t.app.changes.settled();
  return t.app.inject({
    url:
      `/api/bo/getReport?id=${userId}&rapportClassName=RapportVentes&typeRapport=Daily&format=${fmt}` +
      `&language=${language}&dateDebut=${dateDebut}&dateFin=${dateFin}&sites[]=${siteId}`,
    headers,
  });
}

/** The report's rows without the site columns, to compare with the expected figures. */
function figures(d: Dataset) {
  return d.rows.map(({ siteId: _s, site: _l, ...rest }) => rest);
}

describe('sales report on the real exports of ../shared/data', () => {
  it('equals, day by day and to the penny, the London takeaway file over every 400-day window', async () => {
    const prices = new Map<string, bigint>();
    for (const row of parse(await fs.readFile(TAKEAWAY_PRICES), { bom: true, columns: true }) as Record<
      string,
      string
    >[]) {
      prices.set(row['Item Name']!, thousandths(row['Product Price']!));
    }
    const lines: Line[] = (
      parse(await fs.readFile(TAKEAWAY), { columns: true }) as Record<string, string>[]
    ).map((row) => ({
      ticket: row['Order Number']!,
      when: format(parseDate(row['Order Date']!, 'd/M/yyyy H:mm', new Date(2000, 0, 1)), 'yyyy-MM-dd HH:mm'),
      quantity: BigInt(row.Quantity!),
      pricePence1000: prices.get(row['Item Name']!)!,
    }));
    const expected = expectedRows(lines, null);
    const imported = await importSalesFile(t.database.pool, {
      file: TAKEAWAY,
      mapping: path.join(REPO, 'docs/mappings/takeaway-restaurant-1.json'),
      site: 'Takeaway London 1',
    });

    const first = expected[0]!.fiscalDate;
    const last = expected.at(-1)!.fiscalDate;
    const got: Dataset['rows'] = [];
    for (let start = first; start <= last; ) {
      const end = format(addDays(new Date(`${start}T12:00:00`), 399), 'yyyy-MM-dd');
      const res = await report(imported.siteId, start, end, 'JSON');
      expect(res.statusCode).toBe(200);
      const d = datasetAnswer(res);
      expect(d.currency).toBe('GBP');
      expect(d.totals).toMatchObject(
        expectedSalesTotals(expected.filter((r) => r.fiscalDate >= start && r.fiscalDate <= end)),
      );
      got.push(...figures(d));
      start = format(addDays(new Date(`${end}T12:00:00`), 1), 'yyyy-MM-dd');
    }
    expect(got).toEqual(expected);
    // PROVENANCE.txt: the implied revenue of the file is £445,058.45.
    expect(got.reduce((a, r) => a + (r.netSales as number), 0)).toBe(44_505_845);
  });

  it('equals the UCI Online Retail file (cancellations and returns negative) in one report of the whole year, JSON and CSV', async () => {
    const rows = parse(gunzipSync(await fs.readFile(UCI)), { columns: true }) as Record<string, string>[];
    const expected = expectedRows(
      rows.map((row) => ({
        ticket: row.InvoiceNo!,
        when: row.InvoiceDate!,
        quantity: BigInt(row.Quantity!),
        pricePence1000: thousandths(row.UnitPrice!),
      })),
      'C',
    );
    const imported = await importSalesFile(t.database.pool, {
      file: UCI,
      mapping: path.join(REPO, 'docs/mappings/uci-online-retail.json'),
      site: 'UCI Online Retail',
    });
    const first = expected[0]!.fiscalDate;
    const last = expected.at(-1)!.fiscalDate;

    const res = await report(imported.siteId, first, last, 'JSON');
    expect(res.statusCode).toBe(200);
    const d = datasetAnswer(res);
    expect(figures(d)).toEqual(expected);
    expect(d.totals).toMatchObject(expectedSalesTotals(expected));

    const csv = await report(imported.siteId, first, last, 'CSV', 'fr');
    const records: string[][] = parse(csv.rawPayload.toString('utf8'), { bom: true, delimiter: ';' });
    expect(records).toHaveLength(expected.length + 2);
    const pence = (cell: string) => Math.round(Number(cell.replace(',', '.')) * 100);
    const want = expectedSalesTotals(expected);
    const total = records.at(-1)!;
    expect(total[0]).toBe('Total');
    expect([
      Number(total[3]),
      pence(total[4]!),
      pence(total[5]!),
      pence(total[6]!),
      pence(total[7]!),
    ]).toEqual([want.tickets, want.netSales, want.netSalesExclTax, want.tax, want.averageTicket]);
  });
});

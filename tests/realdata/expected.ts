/**
 * Expected report figures computed straight from the raw files of ../shared/data (issue #4
 * point 7), with code of the real-data suite only: its own CSV reading (csv-parse), its own
 * date reading and exact integer arithmetic (bigint), never the importer's or the reports'
 * code. The only project module read is the contract's day-part bounds (contract/day-parts.ts,
 * the documented rule of SPEC.md §9), which are a definition, not a computation.
 *
 * Business rules followed (docs/mappings/README.md, SPEC.md, the report modules' documented
 * rules):
 * - lines with one ticket value form a ticket, dated by its earliest line; fiscal date = the
 *   date of that wall-clock time (day start 00:00); its local hour and `HH:mm` are read from it;
 * - line amount = quantity × unit price rounded half away from zero to the cent; amount excl.
 *   VAT = round(amount × 100 / (100 + rate %)) per line, VAT the difference; ticket totals are
 *   sums of lines;
 * - a ticket whose value starts with the cancellation prefix is a CANCELLATION (positive
 *   quantities count negatively), one of negative lines only a RETURN, any other a SALE;
 *   ticket counts count SALE tickets, amounts include every ticket;
 * - averages are `Math.round(net / tickets)` (0 without sale tickets), shares `part / whole`.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { addDays, format, parse as parseDate, subDays } from 'date-fns';
import { DAY_PARTS } from '../../src/contract/day-parts.ts';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const DATA = path.resolve(REPO, '../shared/data');

/** The raw files the suite reads. */
export const FILES = {
  takeaway: path.join(DATA, 'takeaway-restaurants-london/restaurant-1-orders.csv'),
  takeawayPrices: path.join(DATA, 'takeaway-restaurants-london/restaurant-1-products-price.csv'),
  takeaway2: path.join(DATA, 'takeaway-restaurants-london/restaurant-2-orders.HEAD-SAMPLE-1998rows.csv'),
  uci: path.join(DATA, 'uci-online-retail/online_retail_uci_2010-2011.csv.gz'),
  pizzaDetails: path.join(DATA, 'maven-pizza-sales/order_details.csv'),
  pizzaOrders: path.join(DATA, 'maven-pizza-sales/orders.csv'),
  pizzas: path.join(DATA, 'maven-pizza-sales/pizzas.csv'),
  pizzaTypes: path.join(DATA, 'maven-pizza-sales/pizza_types.csv'),
  bakery: path.join(DATA, 'korean-bakery-chuncheon/Bakery_sales.csv'),
  bakeryPrices: path.join(DATA, 'korean-bakery-chuncheon/Bakery_calories_prices.csv'),
} as const;

/** Throws a readable error when a data file is missing (the suite never copies them in). */
export function requireFiles(...files: string[]): void {
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length > 0) {
    throw new Error(
      `The real data sets are missing: ${missing.join(', ')} (read from ../shared/data beside the repository).`,
    );
  }
}

/** One line of a raw file, read by the suite. */
export interface RawLine {
  ticket: string;
  /** Wall-clock time `YYYY-MM-DD HH:mm:ss`. */
  when: string;
  /** Whole quantity (every data set has whole quantities). */
  quantity: bigint;
  /** Unit price incl. VAT in ten-thousandths of the currency unit. */
  price: bigint;
  family: string | null;
}

export type Kind = 'SALE' | 'RETURN' | 'CANCELLATION';

/** A ticket as the business rules make it; amounts in cents. */
export interface ExpTicket {
  ref: string;
  /** Order of first appearance in the file (ties of time are listed in this order). */
  seq: number;
  first: string;
  kind: Kind;
  net: bigint;
  excl: bigint;
  lines: number;
}

/** A line with its amounts, cents. */
export interface ExpLine {
  ticket: ExpTicket;
  family: string | null;
  quantity: bigint;
  amount: bigint;
  excl: bigint;
}

/** `a / b` to the nearest integer, halves away from zero (b > 0). */
export function roundDiv(a: bigint, b: bigint): bigint {
  const q = ((a < 0n ? -a : a) * 2n + b) / (2n * b);
  return a < 0n ? -q : q;
}

/** A decimal text (at most 4 decimals) as ten-thousandths. */
export function tenThousandths(text: string): bigint {
  const m = /^(-?)(\d*)(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!m || (m[2] === '' && m[3] === undefined)) throw new Error(`not a number: "${text}"`);
  const v = BigInt(`${m[2] || '0'}${(m[3] ?? '').padEnd(4, '0')}`);
  return m[1] === '-' ? -v : v;
}

/** A whole quantity, written `3` or `3.0`. */
export function wholeQuantity(text: string): bigint {
  const m = /^(-?\d+)(?:\.0+)?$/.exec(text.trim());
  if (!m) throw new Error(`not a whole quantity: "${text}"`);
  return BigInt(m[1] as string);
}

/**
 * Groups lines into tickets and prices them.
 * @param vatPercent the single VAT rate of the mapping, in percent (20 for 0.2).
 * @param step cents in the currency's smallest amount: 1 (cents), or 100 for a currency without
 *   minor unit (KRW), whose line amounts and amounts excl. VAT are whole units.
 */
export function assemble(
  raw: readonly RawLine[],
  {
    cancelPrefix = null,
    vatPercent,
    step = 1n,
  }: { cancelPrefix?: string | null; vatPercent: bigint; step?: bigint },
): { tickets: ExpTicket[]; lines: ExpLine[] } {
  const byRef = new Map<string, ExpTicket & { allNegative: boolean }>();
  const lines: ExpLine[] = [];
  for (const l of raw) {
    const cancel = cancelPrefix !== null && l.ticket.startsWith(cancelPrefix);
    const quantity = cancel && l.quantity > 0n ? -l.quantity : l.quantity;
    // quantity × price (ten-thousandths of a unit) → cents: / 100, in whole steps.
    const amount = roundDiv(quantity * l.price, 100n * step) * step;
    const excl = roundDiv((amount / step) * 100n, 100n + vatPercent) * step;
    let t = byRef.get(l.ticket);
    if (!t) {
      t = {
        ref: l.ticket,
        seq: byRef.size,
        first: l.when,
        kind: cancel ? 'CANCELLATION' : 'SALE',
        net: 0n,
        excl: 0n,
        lines: 0,
        allNegative: true,
      };
      byRef.set(l.ticket, t);
    } else if (l.when < t.first) t.first = l.when;
    if (quantity >= 0n) t.allNegative = false;
    t.net += amount;
    t.excl += excl;
    t.lines++;
    lines.push({ ticket: t, family: l.family, quantity, amount, excl });
  }
  const tickets = [...byRef.values()];
  for (const t of tickets) if (t.kind !== 'CANCELLATION' && t.allNegative) t.kind = 'RETURN';
  return { tickets, lines };
}

export const fiscalDate = (t: ExpTicket): string => t.first.slice(0, 10);
export const localHour = (t: ExpTicket): number => Number(t.first.slice(11, 13));
const n = (v: bigint): number => Number(v);
export const average = (net: number, tickets: number): number =>
  tickets === 0 ? 0 : Math.round(net / tickets);
export const share = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
const inPeriod = (from: string, to: string) => (t: ExpTicket) => fiscalDate(t) >= from && fiscalDate(t) <= to;

interface Figures {
  tickets: number;
  net: number;
  excl: number;
}
function figuresOf(tickets: readonly ExpTicket[]): Figures {
  const f = { tickets: 0, net: 0, excl: 0 };
  for (const t of tickets) {
    if (t.kind === 'SALE') f.tickets++;
    f.net += n(t.net);
    f.excl += n(t.excl);
  }
  return f;
}

/** First and last fiscal dates of the tickets. */
export function span(tickets: readonly ExpTicket[]): { first: string; last: string } {
  let first = '9999';
  let last = '0000';
  for (const t of tickets) {
    const d = fiscalDate(t);
    if (d < first) first = d;
    if (d > last) last = d;
  }
  return { first, last };
}

/** Consecutive windows of at most `days` days covering `first`..`last`. */
export function windows(first: string, last: string, days: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let start = first; start <= last; ) {
    const end = wire(addDays(day(start), days - 1));
    out.push([start, end < last ? end : last]);
    start = wire(addDays(day(end), 1));
  }
  return out;
}

/** Calendar months (first..last day) covering `first`..`last`. */
export function months(first: string, last: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let y = Number(first.slice(0, 4));
  let m = Number(first.slice(5, 7));
  for (;;) {
    const start = `${y}-${String(m).padStart(2, '0')}-01`;
    if (start > last) break;
    const end = wire(subDays(new Date(m === 12 ? y + 1 : y, m === 12 ? 0 : m, 1, 12), 1));
    out.push([start, end]);
    m++;
    if (m === 13) {
      m = 1;
      y++;
    }
  }
  return out;
}

function day(wireDate: string): Date {
  return parseDate(`${wireDate} 12`, 'yyyy-MM-dd HH', new Date(2000, 0, 1));
}
function wire(d: Date): string {
  return format(d, 'yyyy-MM-dd');
}

const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00–${String(h + 1).padStart(2, '0')}:00`;

/** RapportVentesHoraire rows and totals: every local hour 0–23. */
export function hourly(all: readonly ExpTicket[], from: string, to: string) {
  const tickets = all.filter(inPeriod(from, to));
  const total = figuresOf(tickets);
  const hours = Array.from({ length: 24 }, (_, h) => figuresOf(tickets.filter((t) => localHour(t) === h)));
  const cells = (f: Figures) => ({
    tickets: f.tickets,
    netSales: f.net,
    netSalesExclTax: f.excl,
    averageTicket: average(f.net, f.tickets),
    share: share(f.net, total.net),
  });
  return {
    rows: hours.map((f, h) => ({ hour: hourLabel(h), ...cells(f) })),
    totals: { hour: null, ...cells(total) },
    hours,
  };
}

/** RapportVentesTranche rows (day part keys instead of labels) and totals. */
export function dayParts(all: readonly ExpTicket[], from: string, to: string) {
  const tickets = all.filter(inPeriod(from, to));
  const total = figuresOf(tickets);
  const cells = (f: Figures) => ({
    tickets: f.tickets,
    netSales: f.net,
    netSalesExclTax: f.excl,
    averageTicket: average(f.net, f.tickets),
    share: share(f.net, total.net),
  });
  return {
    rows: DAY_PARTS.map((p) => ({
      key: p.key,
      hours: `${String(p.fromHour).padStart(2, '0')}:00–${String(p.toHour).padStart(2, '0')}:00`,
      ...cells(figuresOf(tickets.filter((t) => localHour(t) >= p.fromHour && localHour(t) < p.toHour))),
    })),
    totals: { dayPart: null, hours: null, ...cells(total) },
  };
}

/** RapportVentesFamille rows (family null = not set) and totals, largest net first. */
export function families(lines: readonly ExpLine[], from: string, to: string) {
  const keep = inPeriod(from, to);
  const acc = new Map<string | null, { quantity: bigint; net: bigint; excl: bigint }>();
  for (const l of lines) {
    if (!keep(l.ticket)) continue;
    const f = acc.get(l.family) ?? { quantity: 0n, net: 0n, excl: 0n };
    f.quantity += l.quantity;
    f.net += l.amount;
    f.excl += l.excl;
    acc.set(l.family, f);
  }
  const list = [...acc.entries()].sort(([fa, a], [fb, b]) =>
    a.net !== b.net ? (b.net > a.net ? 1 : -1) : fa === null ? 1 : fb === null ? -1 : fa < fb ? -1 : 1,
  );
  const totalNet = list.reduce((s, [, f]) => s + n(f.net), 0);
  return {
    rows: list.map(([family, f]) => ({
      family,
      quantity: n(f.quantity),
      netSales: n(f.net),
      netSalesExclTax: n(f.excl),
      tax: n(f.net - f.excl),
      share: share(n(f.net), totalNet),
    })),
    totals: {
      family: null,
      quantity: list.reduce((s, [, f]) => s + n(f.quantity), 0),
      netSales: totalNet,
      netSalesExclTax: list.reduce((s, [, f]) => s + n(f.excl), 0),
      tax: list.reduce((s, [, f]) => s + n(f.net - f.excl), 0),
      share: share(totalNet, totalNet),
    },
  };
}

/** RapportVentesTva (one rate: the mapping's) rows and totals. */
export function vatRates(all: readonly ExpTicket[], from: string, to: string, rate: number) {
  const f = figuresOf(all.filter(inPeriod(from, to)));
  const row = {
    vatRate: rate,
    netSalesExclTax: f.excl,
    tax: f.net - f.excl,
    netSales: f.net,
    share: share(f.net, f.net),
  };
  return { rows: [row], totals: { ...row, vatRate: null } };
}

/** Per fiscal date: sale tickets, net, excl, and the tickets of that date. */
export function byDate(all: readonly ExpTicket[]): Map<string, Figures & { list: ExpTicket[] }> {
  const days = new Map<string, Figures & { list: ExpTicket[] }>();
  for (const t of all) {
    const d = fiscalDate(t);
    const f = days.get(d) ?? { tickets: 0, net: 0, excl: 0, list: [] };
    if (t.kind === 'SALE') f.tickets++;
    f.net += n(t.net);
    f.excl += n(t.excl);
    f.list.push(t);
    days.set(d, f);
  }
  return days;
}

/** RapportVentesCouverts rows (no covers in the data: covers and covered sales 0). */
export function covers(
  days: ReturnType<typeof byDate>,
  from: string,
  to: string,
  site: { id: number; name: string },
) {
  const dates = [...days.keys()].filter((d) => d >= from && d <= to).sort();
  const cells = (f: Figures) => ({
    tickets: f.tickets,
    covers: 0,
    netSales: f.net,
    averageTicket: average(f.net, f.tickets),
    coveredSales: 0,
    averagePerCover: 0,
  });
  const rows = dates.map((d) => ({
    fiscalDate: d,
    siteId: site.id,
    site: site.name,
    ...cells(days.get(d) as Figures),
  }));
  const total = { tickets: 0, net: 0, excl: 0 };
  for (const d of dates) {
    const f = days.get(d) as Figures;
    total.tickets += f.tickets;
    total.net += f.net;
  }
  return { rows, totals: { fiscalDate: null, siteId: null, site: null, ...cells(total) } };
}

/** The date a date is compared with: 52 weeks (364 days) earlier, same weekday (comparison.ts's documented rule). */
export function yearEarlier(date: string): string {
  return wire(subDays(day(date), 364));
}

const variancePercent = (cur: number, prev: number) => (prev === 0 ? null : (cur - prev) / prev);

/** RapportVentesComparaison Daily rows and totals for one site. */
export function comparison(
  days: ReturnType<typeof byDate>,
  from: string,
  to: string,
  site: { id: number; name: string },
) {
  const dates = new Set<string>();
  for (const d of days.keys()) {
    if (d >= from && d <= to) dates.add(d);
    const later = wire(addDays(day(d), 364));
    if (later >= from && later <= to) dates.add(later);
  }
  const rows = [...dates].sort().map((d) => {
    const cur = days.get(d);
    const prev = days.get(yearEarlier(d));
    const c = { tickets: cur?.tickets ?? 0, net: cur?.net ?? 0, pt: prev?.tickets ?? 0, pn: prev?.net ?? 0 };
    return {
      fiscalDate: d,
      previousFiscalDate: yearEarlier(d),
      siteId: site.id,
      site: site.name,
      tickets: c.tickets,
      previousTickets: c.pt,
      netSales: c.net,
      previousNetSales: c.pn,
      variance: c.net - c.pn,
      variancePercent: variancePercent(c.net, c.pn),
    };
  });
  const sum = (k: 'tickets' | 'previousTickets' | 'netSales' | 'previousNetSales') =>
    rows.reduce((s, r) => s + r[k], 0);
  const totals = {
    fiscalDate: null,
    previousFiscalDate: null,
    siteId: null,
    site: null,
    tickets: sum('tickets'),
    previousTickets: sum('previousTickets'),
    netSales: sum('netSales'),
    previousNetSales: sum('previousNetSales'),
    variance: sum('netSales') - sum('previousNetSales'),
    variancePercent: variancePercent(sum('netSales'), sum('previousNetSales')),
  };
  return { rows, totals };
}

/** RapportVentesComparaison Cumulative rows and totals. */
export function cumulative(daily: {
  rows: ReadonlyArray<{
    fiscalDate: string;
    previousFiscalDate: string;
    netSales: number;
    previousNetSales: number;
  }>;
}) {
  let net = 0;
  let prev = 0;
  const rows = daily.rows.map((r) => {
    net += r.netSales;
    prev += r.previousNetSales;
    return {
      fiscalDate: r.fiscalDate,
      previousFiscalDate: r.previousFiscalDate,
      netSales: r.netSales,
      previousNetSales: r.previousNetSales,
      cumulativeNetSales: net,
      cumulativePreviousNetSales: prev,
      variance: net - prev,
      variancePercent: variancePercent(net, prev),
    };
  });
  return {
    rows,
    totals: {
      fiscalDate: null,
      previousFiscalDate: null,
      netSales: net,
      previousNetSales: prev,
      cumulativeNetSales: net,
      cumulativePreviousNetSales: prev,
      variance: net - prev,
      variancePercent: variancePercent(net, prev),
    },
  };
}

/** RapportTickets rows (kind as key, labels applied by the caller) in report order. */
export function ticketList(
  all: readonly ExpTicket[],
  from: string,
  to: string,
  site: { id: number; name: string },
) {
  const list = all
    .filter(inPeriod(from, to))
    .sort((a, b) =>
      fiscalDate(a) !== fiscalDate(b)
        ? fiscalDate(a) < fiscalDate(b)
          ? -1
          : 1
        : a.first !== b.first
          ? a.first < b.first
            ? -1
            : 1
          : a.seq - b.seq,
    );
  return list.map((t) => ({
    fiscalDate: fiscalDate(t),
    time: t.first.slice(11, 16),
    siteId: site.id,
    site: site.name,
    terminalId: null,
    sellerCode: null,
    ticketNumber: t.ref,
    kind: t.kind as string,
    amount: n(t.net),
    payments: '',
  }));
}

/** RapportAnnulations rows: days with a cancellation ticket (no voided lines in imported files). */
export function cancellations(
  days: ReturnType<typeof byDate>,
  from: string,
  to: string,
  site: { id: number; name: string },
) {
  const rows = [];
  for (const d of [...days.keys()].filter((x) => x >= from && x <= to).sort()) {
    const cancelled = (days.get(d)?.list ?? []).filter((t) => t.kind === 'CANCELLATION');
    if (cancelled.length === 0) continue;
    rows.push({
      fiscalDate: d,
      siteId: site.id,
      site: site.name,
      beforePaymentLines: 0,
      beforePaymentQuantity: 0,
      beforePaymentAmount: 0,
      afterPaymentTickets: cancelled.length,
      afterPaymentAmount: 0 - cancelled.reduce((s, t) => s + n(t.net), 0),
    });
  }
  return rows;
}

/** RapportTva rows: one per fiscal date at the mapping's single rate. */
export function vatBreakdown(
  days: ReturnType<typeof byDate>,
  from: string,
  to: string,
  site: { id: number; name: string },
  rate: number,
) {
  return [...days.keys()]
    .filter((d) => d >= from && d <= to)
    .sort()
    .map((d) => {
      const f = days.get(d) as Figures;
      return {
        fiscalDate: d,
        siteId: site.id,
        site: site.name,
        vatRate: rate,
        vatBase: f.excl,
        tax: f.net - f.excl,
        netSales: f.net,
      };
    });
}

/** RapportZ items (code, count, amount, detail) per fiscal date; no payments, meals, covers or voided lines in the data. */
export function zItems(
  days: ReturnType<typeof byDate>,
  from: string,
  to: string,
  site: { id: number; name: string },
  rate: number,
) {
  const out = [];
  for (const d of [...days.keys()].filter((x) => x >= from && x <= to).sort()) {
    const f = days.get(d) as Figures & { list: ExpTicket[] };
    const cancelled = f.list.filter((t) => t.kind === 'CANCELLATION');
    const times = f.list.map((t) => t.first).sort();
    const base = { fiscalDate: d, siteId: site.id, site: site.name };
    out.push(
      { ...base, code: 'TICKETS', count: f.tickets, amount: f.net, detail: null },
      { ...base, code: 'NET_EXCL', count: null, amount: f.excl, detail: null },
      { ...base, code: `VAT_${rate}`, count: null, amount: f.net - f.excl, detail: null },
      { ...base, code: 'TAX', count: null, amount: f.net - f.excl, detail: null },
      {
        ...base,
        code: 'CANCELLATIONS',
        count: cancelled.length,
        amount: 0 - cancelled.reduce((s, t) => s + n(t.net), 0),
        detail: null,
      },
      { ...base, code: 'CORRECTIONS', count: 0, amount: 0, detail: null },
      { ...base, code: 'EMPLOYEE_MEALS', count: 0, amount: 0, detail: null },
      { ...base, code: 'COVERS', count: 0, amount: null, detail: null },
      { ...base, code: 'AVERAGE_TICKET', count: null, amount: average(f.net, f.tickets), detail: null },
      {
        ...base,
        code: 'FIRST_TICKET',
        count: null,
        amount: null,
        detail: (times[0] as string).slice(11, 16),
      },
      {
        ...base,
        code: 'LAST_TICKET',
        count: null,
        amount: null,
        detail: (times.at(-1) as string).slice(11, 16),
      },
    );
  }
  return out;
}

/** Rows of a CSV file as objects keyed by header (BOM ignored). */
export async function readCsv(file: string): Promise<Record<string, string>[]> {
  const bytes = await fs.readFile(file);
  return parse(file.endsWith('.gz') ? gunzipSync(bytes) : bytes, { bom: true, columns: true }) as Record<
    string,
    string
  >[];
}

/** `D/M/YYYY H:MM` (takeaway) → `YYYY-MM-DD HH:mm:00`. */
export function dayFirst(text: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`unexpected date ${text}`);
  return `${m[3]}-${(m[2] as string).padStart(2, '0')}-${(m[1] as string).padStart(2, '0')} ${(m[4] as string).padStart(2, '0')}:${m[5]}:00`;
}

/** The London takeaway's lines, priced from its price list. */
export async function takeawayLines(): Promise<RawLine[]> {
  const prices = new Map<string, bigint>();
  for (const r of await readCsv(FILES.takeawayPrices))
    prices.set(r['Item Name'] as string, tenThousandths(r['Product Price'] as string));
  return (await readCsv(FILES.takeaway)).map((r) => {
    const price = prices.get(r['Item Name'] as string);
    if (price === undefined) throw new Error(`no price for ${r['Item Name']}`);
    return {
      ticket: r['Order Number'] as string,
      when: dayFirst(r['Order Date'] as string),
      quantity: wholeQuantity(r.Quantity as string),
      price,
      family: null,
    };
  });
}

/** UCI Online Retail's lines (times already ISO). */
export async function uciLines(): Promise<RawLine[]> {
  return (await readCsv(FILES.uci)).map((r) => ({
    ticket: r.InvoiceNo as string,
    when: r.InvoiceDate as string,
    quantity: wholeQuantity(r.Quantity as string),
    price: tenThousandths(r.UnitPrice as string),
    family: null,
  }));
}

/** Maven pizza's order lines, joined here to orders (time), pizzas (price) and pizza types (category). */
export async function pizzaLines(): Promise<RawLine[]> {
  const orders = new Map(
    (await readCsv(FILES.pizzaOrders)).map((r) => [r.order_id as string, `${r.date} ${r.time}`]),
  );
  const pizzas = new Map((await readCsv(FILES.pizzas)).map((r) => [r.pizza_id as string, r]));
  const categories = new Map(
    (await readCsv(FILES.pizzaTypes)).map((r) => [r.pizza_type_id as string, r.category as string]),
  );
  return (await readCsv(FILES.pizzaDetails)).map((r) => {
    const when = orders.get(r.order_id as string);
    const pizza = pizzas.get(r.pizza_id as string);
    const family = categories.get(pizza?.pizza_type_id as string);
    if (!when || !pizza || !family) throw new Error(`order line ${r.order_details_id} does not join`);
    if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(when)) throw new Error(`unexpected time ${when}`);
    return {
      ticket: r.order_id as string,
      when,
      quantity: wholeQuantity(r.quantity as string),
      price: tenThousandths(pizza.price as string),
      family,
    };
  });
}

/** RapportVentes rows: per fiscal date, sale tickets, net incl./excl. VAT, VAT, average ticket. */
export function salesByDay(days: ReturnType<typeof byDate>, from: string, to: string) {
  const rows = [...days.keys()]
    .filter((d) => d >= from && d <= to)
    .sort()
    .map((d) => {
      const f = days.get(d) as Figures;
      return {
        fiscalDate: d,
        tickets: f.tickets,
        netSales: f.net,
        netSalesExclTax: f.excl,
        tax: f.net - f.excl,
        averageTicket: average(f.net, f.tickets),
      };
    });
  const sum = (k: 'tickets' | 'netSales' | 'netSalesExclTax' | 'tax') => rows.reduce((s, r) => s + r[k], 0);
  return {
    rows,
    totals: {
      tickets: sum('tickets'),
      netSales: sum('netSales'),
      netSalesExclTax: sum('netSalesExclTax'),
      tax: sum('tax'),
      averageTicket: average(sum('netSales'), sum('tickets')),
    },
  };
}

/** The product columns of the bakery's wide file, in file order. */
export const BAKERY_PRODUCTS = [
  'angbutter',
  'plain bread',
  'jam',
  'americano',
  'croissant',
  'caffe latte',
  'tiramisu croissant',
  'cacao deep',
  'pain au chocolat',
  'almond croissant',
  'croque monsieur',
  'mad garlic',
  'milk tea',
  'gateau chocolat',
  'pandoro',
  'cheese cake',
  'lemon ade',
  'orange pound',
  'wiener',
  'vanila latte',
  'berry ade',
  'tiramisu',
  'merinque cookies',
] as const;

/**
 * The Korean bakery's tickets melted into lines: one per product column holding a quantity,
 * priced from its price list (which spells "vanila latte" as "valina latte"); rows without any
 * quantity hold no sale and are left out.
 */
export async function bakeryLines(): Promise<{ lines: RawLine[]; rows: number; emptyRows: number }> {
  const prices = new Map(
    (await readCsv(FILES.bakeryPrices)).map((r) => [
      r.product_name as string,
      tenThousandths(r.price as string),
    ]),
  );
  const rows = await readCsv(FILES.bakery);
  const lines: RawLine[] = [];
  let emptyRows = 0;
  for (const r of rows) {
    const bought = BAKERY_PRODUCTS.filter((p) => (r[p] ?? '').trim() !== '');
    if (bought.length === 0) {
      emptyRows++;
      continue;
    }
    if (!/^\d{4}-\d\d-\d\d \d\d:\d\d$/.test(r.datetime as string))
      throw new Error(`unexpected time ${r.datetime}`);
    for (const p of bought) {
      const price = prices.get(p === 'vanila latte' ? 'valina latte' : p);
      if (price === undefined) throw new Error(`no price for ${p}`);
      lines.push({
        ticket: r.order_id as string,
        when: `${r.datetime}:00`,
        quantity: wholeQuantity(r[p] as string),
        price,
        family: null,
      });
    }
  }
  return { lines, rows: rows.length, emptyRows };
}

/** The first 1,998 lines of London takeaway restaurant 2 (prices in the file, `DD/MM/YYYY HH:MM`). */
export async function takeaway2Lines(): Promise<RawLine[]> {
  return (await readCsv(FILES.takeaway2)).map((r) => {
    const m = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d)$/.exec(r['Order Date'] as string);
    if (!m) throw new Error(`unexpected date ${r['Order Date']}`);
    return {
      ticket: r['Order ID'] as string,
      when: `${m[3]}-${m[2]}-${m[1]} ${m[4]}:${m[5]}:00`,
      quantity: wholeQuantity(r.Quantity as string),
      price: tenThousandths(r['Product Price'] as string),
      family: null,
    };
  });
}

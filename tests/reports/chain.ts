/**
 * A small hand-made chain for the report tests, with every ticket kept in memory so the tests
 * compute expected figures straight from these rows, independently of the report's SQL.
 *
 * Sites 1 and 2 (Paris, Lyon; EUR; brand "Le Comptoir"), site 3 (London; GBP). Tickets on
 * 2026-11-01..2026-11-10 with sales, returns, cancellations, training-mode tickets, three
 * terminals, four sellers (one whose code holds a comma), opened across the whole day in the
 * site's own clock (some just before and after midnight, one at exactly 23:00).
 */
import type { Database } from '../../src/server/db/connect.ts';
import type { RawReportInput } from '../../src/server/reports/request.ts';
import { loadTestChain, reportInput, type TicketCore } from '../helpers/chain.ts';

export interface ChainTicket extends TicketCore {
  terminalId: number;
  sellerCode: string;
  totalCents: number;
  totalExclCents: number;
  taxCents: number;
}

export const SITES = [
  { id: 1, libelle: 'Paris Opéra', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
  { id: 2, libelle: 'Lyon Part-Dieu', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
  { id: 3, libelle: 'London Soho', companyId: 2, timeZone: 'Europe/London', currency: 'GBP' },
] as const;

export const SELLERS = ['S1', 'S2', 'Dupont, Marie', 'S4'] as const;
export const FIRST_DATE = '2026-11-01';
export const LAST_DATE = '2026-11-10';

/** Local opening times (hour, minute) of each day's slots 0–4: the edges of the usual hour ranges. */
const EDGE_TIMES: ReadonlyArray<readonly [number, number]> = [
  [23, 0],
  [23, 30],
  [0, 30],
  [11, 59],
  [12, 0],
];

/** The tickets of the chain (deterministic). */
export function chainTickets(): ChainTicket[] {
  const out: ChainTicket[] = [];
  let ticketId = 1000;
  for (const site of SITES) {
    for (let day = 1; day <= 10; day++) {
      const fiscalDate = `2026-11-${String(day).padStart(2, '0')}`;
      const count = 9 + ((day * site.id * 7) % 13);
      for (let k = 0; k < count; k++) {
        const n = day * 31 + k * 17 + site.id * 5;
        const kind = k % 7 === 5 ? 'RETURN' : k % 11 === 3 ? 'CANCELLATION' : 'SALE';
        const sign = kind === 'SALE' ? 1 : -1;
        const total = sign * (150 + ((n * 137) % 6000));
        // VAT 10 %: excl = round(total / 1.1), tax the rest (cents stay whole).
        const excl = Math.round(total / 1.1);
        // Hours spread over the whole day, plus the edges of the usual ranges.
        const [localHour, localMinute] = EDGE_TIMES[k % 9] ?? [n % 24, (n * 7) % 60];
        out.push({
          siteId: site.id,
          ticketId: ticketId++,
          fiscalDate,
          localHour,
          localMinute,
          terminalId: 1 + (k % 3),
          sellerCode: SELLERS[(k + day) % 4]!,
          kind,
          trainingMode: k % 13 === 8,
          totalCents: total,
          totalExclCents: excl,
          taxCents: total - excl,
        });
      }
    }
  }
  // A day with only a return (Lyon, 2026-11-11): negative sales, no sale ticket.
  out.push({
    siteId: 2,
    ticketId: ticketId++,
    fiscalDate: '2026-11-11',
    localHour: 15,
    localMinute: 10,
    terminalId: 1,
    sellerCode: 'S1',
    kind: 'RETURN',
    trainingMode: false,
    totalCents: -1999,
    totalExclCents: -1817,
    taxCents: -182,
  });
  return out;
}

/** Inserts companies, sites, terminals, sellers and the tickets, then refreshes `daily_sales` as a load does. */
export async function loadChain(database: Database): Promise<ChainTicket[]> {
  const tickets = chainTickets();
  await loadTestChain(database, {
    sites: SITES,
    sellers: SELLERS.map((code) => ({ code, nom: code })),
    tickets,
    refresh: { from: '2026-01-01', to: '2026-12-31' },
  });
  return tickets;
}

/** Expected daily row of the sales report, computed from the tickets in memory. */
export interface ExpectedRow {
  fiscalDate: string;
  siteId: number;
  site: string;
  tickets: number;
  netSales: number;
  netSalesExclTax: number;
  tax: number;
  averageTicket: number;
}

/** The figures of an expected sales row that its totals row sums (cents; tickets a count). */
export type SalesFigures = Pick<ExpectedRow, 'tickets' | 'netSales' | 'netSalesExclTax' | 'tax'>;

/**
 * The sales report's totals of `rows`: tickets, net sales incl. and excl. VAT and VAT summed
 * (cents), and the average ticket (net sales ÷ tickets, rounded to the cent; 0 without tickets).
 */
export function expectedSalesTotals(rows: readonly SalesFigures[]) {
  const net = rows.reduce((a, r) => a + r.netSales, 0);
  const count = rows.reduce((a, r) => a + r.tickets, 0);
  return {
    tickets: count,
    netSales: net,
    netSalesExclTax: rows.reduce((a, r) => a + r.netSalesExclTax, 0),
    tax: rows.reduce((a, r) => a + r.tax, 0),
    averageTicket: count === 0 ? 0 : Math.round(net / count),
  };
}

/** Groups `tickets` by fiscal date and site as the sales report should, ordered by date then site. */
export function expectedSalesRows(tickets: readonly ChainTicket[]): ExpectedRow[] {
  const byKey = new Map<string, ExpectedRow>();
  for (const t of tickets) {
    const key = `${t.fiscalDate}|${t.siteId}`;
    let row = byKey.get(key);
    if (!row) {
      row = {
        fiscalDate: t.fiscalDate,
        siteId: t.siteId,
        site: SITES.find((s) => s.id === t.siteId)!.libelle,
        tickets: 0,
        netSales: 0,
        netSalesExclTax: 0,
        tax: 0,
        averageTicket: 0,
      };
      byKey.set(key, row);
    }
    if (t.kind === 'SALE') row.tickets += 1;
    row.netSales += t.totalCents;
    row.netSalesExclTax += t.totalExclCents;
    row.tax += t.taxCents;
  }
  const rows = [...byKey.values()].sort((a, b) =>
    a.fiscalDate < b.fiscalDate ? -1 : a.fiscalDate > b.fiscalDate ? 1 : a.siteId - b.siteId,
  );
  for (const r of rows) r.averageTicket = r.tickets === 0 ? 0 : Math.round(r.netSales / r.tickets);
  return rows;
}

/**
 * The expected sales rows ({@link expectedSalesRows}) of the `tickets` on `sites` over the
 * chain's whole period ({@link FIRST_DATE}..{@link LAST_DATE}) that `keep` keeps; training
 * tickets left out unless `training`.
 */
export function expectedPeriodRows(
  tickets: readonly ChainTicket[],
  sites: readonly number[],
  keep: (t: ChainTicket) => boolean = () => true,
  { training = false } = {},
): ExpectedRow[] {
  return expectedSalesRows(
    tickets.filter(
      (t) =>
        sites.includes(t.siteId) &&
        t.fiscalDate >= FIRST_DATE &&
        t.fiscalDate <= LAST_DATE &&
        (training || !t.trainingMode) &&
        keep(t),
    ),
  );
}

/** Defaults of a bo/getReport call for the sales report. */
export function salesInput(overrides: Partial<RawReportInput> = {}): RawReportInput {
  return reportInput('RapportVentes', FIRST_DATE, LAST_DATE, overrides);
}

/**
 * A small hand-made chain for the sales analyses, with its tickets, lines and payments kept in
 * memory so the tests compute every expected figure straight from these rows, independently of
 * the reports' SQL.
 *
 * Sites 1 and 2 (Paris, Lyon; EUR), site 3 (London; GBP), as in ../chain.ts. Tickets on
 * 2026-11-01..2026-11-10 and on the same weekdays a year earlier (364 days before,
 * 2025-11-02..2025-11-11), plus 2025-11-01 (outside the compared window). Each ticket has 1–3
 * lines over three families (one line without family) and three VAT rates, sometimes a
 * corrected line (zero amounts), payments in every method (some split), covers on most
 * tickets of site 1; returns and cancellations carry negative lines, payments and (for
 * cancellations) covers. Terminals 1–3 are listed; tickets on terminal 4 (unlisted) and
 * without terminal or seller exist. Ticket totals are the sums of their lines, payments sum to
 * the ticket total, as every real load guarantees.
 */
import type { Database } from '../../../src/server/db/connect.ts';
import type { RawReportInput } from '../../../src/server/reports/request.ts';
import { loadTestChain, reportInput, type TicketCore } from '../../helpers/chain.ts';
import { SITES } from '../chain.ts';

export { SITES };

export interface Line {
  family: string | null;
  quantity: number;
  amountCents: number;
  vatRate: number;
  amountExclCents: number;
  taxCents: number;
  corrected: boolean;
}

export interface Ticket extends TicketCore {
  covers: number | null;
  totalCents: number;
  totalExclCents: number;
  taxCents: number;
  lines: Line[];
  payments: { method: string; amountCents: number }[];
}

export const SELLERS = ['S1', 'S2', 'Dupont, Marie'] as const;
export const FAMILIES = ['Boissons', 'Plats', null] as const;
export const RATES = [0.055, 0.1, 0.2] as const;
export const METHODS = ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE', 'OTHER'] as const;
export const FIRST_DATE = '2026-11-01';
export const LAST_DATE = '2026-11-10';

/** Local opening times (hour, minute) of each day's slots 0–4: the edges of the day parts. */
const EDGE_TIMES: ReadonlyArray<readonly [number, number]> = [
  [0, 30],
  [1, 59],
  [2, 0],
  [11, 0],
  [14, 59],
];

function dates(): string[] {
  const out: string[] = ['2025-11-01'];
  for (let d = 2; d <= 11; d++) out.push(`2025-11-${String(d).padStart(2, '0')}`);
  for (let d = 1; d <= 10; d++) out.push(`2026-11-${String(d).padStart(2, '0')}`);
  return out;
}

function line(
  family: string | null,
  quantity: number,
  unit: number,
  vatRate: number,
  corrected: boolean,
): Line {
  const amount = corrected ? 0 : Math.round(quantity * unit);
  const excl = Math.round(amount / (1 + vatRate));
  return {
    family,
    quantity,
    amountCents: amount,
    vatRate,
    amountExclCents: excl,
    taxCents: amount - excl,
    corrected,
  };
}

/** The tickets of the chain (deterministic). */
export function chainTickets(): Ticket[] {
  const out: Ticket[] = [];
  let ticketId = 5000;
  for (const site of SITES) {
    for (const [dayIndex, fiscalDate] of dates().entries()) {
      const count = 6 + ((dayIndex * 5 + site.id * 3) % 9);
      for (let k = 0; k < count; k++) {
        const n = dayIndex * 37 + k * 19 + site.id * 11;
        const kind = k % 7 === 4 ? 'RETURN' : k % 9 === 6 ? 'CANCELLATION' : 'SALE';
        const sign = kind === 'SALE' ? 1 : -1;
        const lines: Line[] = [];
        const lineCount = 1 + (n % 3);
        for (let j = 0; j < lineCount; j++) {
          const quantity = sign * (j === 1 && n % 4 === 0 ? 1.5 : 1 + ((n + j) % 3));
          lines.push(
            line(
              FAMILIES[(n + j) % 3]!,
              quantity,
              120 + ((n * 53 + j * 71) % 1900),
              RATES[(n + 2 * j) % 3]!,
              false,
            ),
          );
        }
        if (kind === 'SALE' && n % 5 === 2) lines.push(line('Plats', 1, 1450, 0.1, true));
        const total = lines.reduce((a, l) => a + l.amountCents, 0);
        const excl = lines.reduce((a, l) => a + l.amountExclCents, 0);
        const method = METHODS[(n + k) % 5]!;
        const payments =
          n % 6 === 1 && total !== 0
            ? [
                { method: 'MEAL_VOUCHER', amountCents: Math.trunc(total / 3) },
                { method: 'CARD', amountCents: total - Math.trunc(total / 3) },
              ]
            : [{ method, amountCents: total }];
        // Hours over the whole day (every day part), with the edges of the parts.
        const [localHour, localMinute] = EDGE_TIMES[k % 8] ?? [(n * 7) % 24, (n * 13) % 60];
        const covers = site.id === 1 && kind !== 'RETURN' && k % 4 !== 3 ? sign * (1 + (n % 4)) : null;
        out.push({
          siteId: site.id,
          ticketId: ticketId++,
          fiscalDate,
          localHour,
          localMinute,
          terminalId: k % 10 === 9 ? null : k % 10 === 8 ? 4 : 1 + (k % 3),
          sellerCode: k % 11 === 10 ? null : SELLERS[(k + dayIndex) % 3]!,
          kind,
          trainingMode: k % 13 === 12,
          covers,
          totalCents: total,
          totalExclCents: excl,
          taxCents: total - excl,
          lines,
          payments,
        });
      }
    }
  }
  return out;
}

/** Inserts companies, sites, terminals, sellers, tickets, lines and payments, then refreshes `daily_sales`. */
export async function loadChain(database: Database): Promise<Ticket[]> {
  const tickets = chainTickets();
  await loadTestChain(database, {
    sites: SITES,
    sellers: SELLERS.map((code, i) => ({ code, nom: `Vendeur ${i + 1}` })),
    tickets: tickets.map((t) => ({
      ...t,
      lines: t.lines.map((l, i) => ({
        ...l,
        article: `Article ${i + 1}`,
        unitPriceCents: l.quantity === 0 ? 0 : Math.round(l.amountCents / l.quantity),
      })),
    })),
    refresh: { from: '2025-01-01', to: '2026-12-31' },
  });
  return tickets;
}

/** Defaults of a bo/getReport call for `rapportClassName` on sites 1 and 2, 2026-11-01..10, JSON, fr. */
export function input(rapportClassName: string, overrides: Partial<RawReportInput> = {}): RawReportInput {
  return reportInput(rapportClassName, FIRST_DATE, LAST_DATE, overrides);
}

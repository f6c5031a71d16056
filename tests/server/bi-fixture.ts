/**
 * A small hand-made chain for the KPI/BI tests (bi*.test.ts): Paris and Lyon (company 1, EUR;
 * Lyon in the group "Sud"), London (company 2, GBP), tickets on Monday 2 and Tuesday 3 March
 * 2026 and on the same weekdays 364 days earlier (3 and 4 March 2025), with lines, payments,
 * covers, a voided line and a training ticket that must count for nothing. The figures the
 * tests expect are worked out by hand in the tests from the tickets written here.
 *
 * {@link seedDiscountChain} writes another chain (for bi-discounts.test.ts), whose tickets carry
 * discount lines, a cancelled discounted sale, a return, a voided line and a discounted training
 * ticket; its tickets are exported so the tests sum the discounts from them.
 */
import type { Database } from '../../src/server/db/connect.ts';
import { loadTestChain, type TestLine, type TestTicket } from '../helpers/chain.ts';

export const PARIS = 1;
export const LYON = 2;
export const LONDON = 3;

/** A line of `quantity` × `unitPriceCents` at 10 % VAT, voided when `corrected`. */
function line(family: string, quantity: number, unitPriceCents: number, corrected = false): TestLine {
  const amountCents = corrected ? 0 : quantity * unitPriceCents;
  const amountExclCents = Math.round(amountCents / 1.1);
  return {
    article: family.toLowerCase(),
    family,
    quantity,
    unitPriceCents,
    amountCents,
    vatRate: 0.1,
    amountExclCents,
    taxCents: amountCents - amountExclCents,
    corrected,
  };
}

let nextTicketId = 1;

/** A discount line ("Remise …", quantity 1, a negative unit price) of `family` or of none, at 10 % VAT. */
function discount(cents: number, family: string | null = null): TestLine {
  return { ...line(family ?? 'REMISE', 1, -cents), article: 'Remise fidélité', family };
}

/** `ticket` as a RETURN or CANCELLATION: every kept line and payment mirrored, a new id, `minutes` later. */
function undo(ticket: TestTicket, kind: 'RETURN' | 'CANCELLATION', minutes: number): TestTicket {
  const lines = (ticket.lines ?? [])
    .filter((l) => !l.corrected)
    .map((l) => ({
      ...l,
      quantity: -l.quantity,
      amountCents: -l.amountCents,
      amountExclCents: -l.amountExclCents,
      taxCents: -l.taxCents,
    }));
  return {
    ...ticket,
    ticketId: nextTicketId++,
    kind,
    localMinute: ticket.localMinute + minutes,
    covers: ticket.covers ? -ticket.covers : ticket.covers,
    totalCents: -ticket.totalCents,
    totalExclCents: -ticket.totalExclCents,
    taxCents: -ticket.taxCents,
    lines,
    payments: (ticket.payments ?? []).map((p) => ({ ...p, amountCents: -p.amountCents })),
  };
}

/** A SALE ticket whose total is the sum of its kept lines, paid at once by `method`. */
function sale(
  siteId: number,
  fiscalDate: string,
  hhmm: string,
  terminal: number,
  seller: string,
  covers: number,
  method: string,
  lines: TestLine[],
  trainingMode = false,
): TestTicket {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const totalCents = lines.reduce((t, l) => t + l.amountCents, 0);
  const totalExclCents = lines.reduce((t, l) => t + l.amountExclCents, 0);
  return {
    siteId,
    ticketId: nextTicketId++,
    fiscalDate,
    localHour: h,
    localMinute: m,
    terminalId: terminal,
    sellerCode: seller,
    kind: 'SALE',
    trainingMode,
    covers,
    totalCents,
    totalExclCents,
    taxCents: totalCents - totalExclCents,
    lines,
    payments: [{ method, amountCents: totalCents }],
  };
}

/** Writes the chain, its group and a cash count of Paris (two versions: the latest counts). */
export async function seedBiChain(database: Database): Promise<void> {
  nextTicketId = 1;
  await loadTestChain(database, {
    sites: [
      { id: PARIS, libelle: 'Paris', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
      { id: LYON, libelle: 'Lyon', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
      { id: LONDON, libelle: 'London', companyId: 2, timeZone: 'Europe/London', currency: 'GBP' },
    ],
    sellers: [
      { code: 'A', nom: 'Alice' },
      { code: 'B', nom: 'Bruno' },
    ],
    tickets: [
      sale(PARIS, '2026-03-02', '12:10', 1, 'A', 2, 'CARD', [line('BOISSON', 2, 500)]),
      sale(PARIS, '2026-03-02', '19:30', 2, 'B', 3, 'CASH', [line('PLAT', 1, 2500), line('BOISSON', 1, 500)]),
      sale(PARIS, '2026-03-02', '13:00', 1, 'A', 1, 'CASH', [line('PLAT', 1, 9999)], true),
      sale(PARIS, '2026-03-03', '12:45', 1, 'A', 1, 'CARD', [line('PLAT', 1, 1800)]),
      sale(LYON, '2026-03-02', '13:00', 1, 'A', 4, 'CASH', [line('PLAT', 2, 2000)]),
      sale(LYON, '2026-03-03', '12:00', 2, 'B', 2, 'CARD', [
        line('PLAT', 1, 2200),
        line('DESSERT', 1, 700, true),
      ]),
      sale(PARIS, '2025-03-03', '12:00', 1, 'A', 2, 'CASH', [line('PLAT', 1, 1500)]),
      sale(LYON, '2025-03-04', '19:00', 1, 'B', 2, 'CARD', [line('PLAT', 1, 2000)]),
      sale(LONDON, '2026-03-02', '12:00', 1, 'A', 1, 'CARD', [line('PLAT', 1, 1000)]),
    ],
    refresh: { from: '2025-03-01', to: '2026-03-05' },
  });
  const { pool } = database;
  await pool.query(`INSERT INTO groups (id, raison_sociale) VALUES (1, 'Sud')`);
  await pool.query('INSERT INTO group_sites (group_id, site_id) VALUES (1, $1)', [LYON]);
  for (const [version, cash] of [
    [1, 10_100],
    [2, 9_950],
  ] as const) {
    await pool.query(
      `INSERT INTO cash_counts (site_id, fiscal_date, terminal_id, version, cash_cents, expected_cash_cents,
                                expected_cheques_cents, expected_meal_vouchers_cents, expected_card_slips_cents,
                                counted_by, counted_by_login, counted_at)
       VALUES ($1, '2026-03-02', 1, $2, $3, 10000, 0, 0, 0, 1, 'test', now())`,
      [PARIS, version, cash],
    );
  }
}

/**
 * The tickets of {@link seedDiscountChain} (Paris and Lyon, company 1, EUR; 2 and 3 March 2026
 * and 3 March 2025): discounts of no family and of a family, a discounted sale cancelled a few
 * minutes later (its discount taken back), a return (negative, but no discount), a voided line
 * and a discounted training ticket (nothing counts).
 */
export function discountTickets(): TestTicket[] {
  nextTicketId = 1;
  const cancelled = sale(PARIS, '2026-03-02', '19:30', 2, 'B', 3, 'CASH', [
    line('BOISSON', 2, 500),
    discount(100, 'BOISSON'),
  ]);
  const returned = sale(LYON, '2026-03-03', '12:20', 2, 'B', 0, 'CARD', [line('PLAT', 1, 2000)]);
  return [
    sale(PARIS, '2026-03-02', '12:10', 1, 'A', 2, 'CARD', [line('PLAT', 1, 2500), discount(250)]),
    cancelled,
    undo(cancelled, 'CANCELLATION', 5),
    sale(PARIS, '2026-03-02', '13:00', 1, 'A', 1, 'CASH', [line('PLAT', 1, 9999), discount(999)], true),
    sale(LYON, '2026-03-03', '12:00', 1, 'A', 2, 'CARD', [
      line('PLAT', 1, 2000),
      line('DESSERT', 1, 700, true),
      discount(300, 'PLAT'),
    ]),
    returned,
    undo(returned, 'RETURN', 10),
    sale(PARIS, '2025-03-03', '12:00', 1, 'A', 2, 'CASH', [line('PLAT', 1, 1500), discount(150)]),
  ];
}

/** Writes the discounts' chain (Paris and Lyon; {@link discountTickets}) with its aggregates. */
export async function seedDiscountChain(database: Database): Promise<TestTicket[]> {
  const tickets = discountTickets();
  await loadTestChain(database, {
    sites: [
      { id: PARIS, libelle: 'Paris', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
      { id: LYON, libelle: 'Lyon', companyId: 1, timeZone: 'Europe/Paris', currency: 'EUR' },
    ],
    sellers: [
      { code: 'A', nom: 'Alice' },
      { code: 'B', nom: 'Bruno' },
    ],
    tickets,
    refresh: { from: '2025-03-01', to: '2026-03-05' },
  });
  return tickets;
}

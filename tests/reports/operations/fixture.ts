/**
 * A small hand-made chain with full tickets (lines, payments) and losses, for the operations and
 * finance report tests. Every row is kept in memory so tests compute expected figures straight
 * from these objects, independently of the reports' SQL.
 *
 * Sites 1 (Paris) and 2 (Lyon) trade in EUR, site 3 (London) in GBP. Fiscal dates
 * 2026-11-01..2026-11-05. Tickets: sales, returns, cancellations (mirrored negative lines and
 * payments), employee meals (zero price, no payment), training tickets, voided (corrected)
 * lines keeping quantity and unit price, split payments, three VAT rates, a line without family,
 * covers, tickets after midnight that belong to the previous fiscal date.
 */
import type { Dataset } from '../../../src/contract/reports.ts';
import type { Database } from '../../../src/server/db/connect.ts';
import { type RawReportInput, resolveReport } from '../../../src/server/reports/request.ts';
import { runReport } from '../../../src/server/reports/run.ts';
import { loadTestChain, reportInput, type TicketCore } from '../../helpers/chain.ts';

export interface FxLine {
  family: string | null;
  article: string;
  quantity: number;
  unitPrice: number;
  vatRate: number;
  amount: number;
  excl: number;
  tax: number;
  corrected: boolean;
}

export interface FxTicket extends TicketCore {
  ref: string;
  terminalId: number;
  sellerCode: string;
  employeeMeal: boolean;
  covers: number | null;
  lines: FxLine[];
  payments: Array<{ method: string; amount: number }>;
  total: number;
  excl: number;
  tax: number;
}

export interface FxLoss {
  siteId: number;
  lossId: number;
  fiscalDate: string;
  type: 'CUSTOM' | 'LOSS' | 'REMADE' | 'DEGRADED';
  article: string;
  family: string | null;
  quantity: number;
  amount: number;
}

export const FX_SITES = [
  { id: 1, libelle: 'Paris Opéra', timeZone: 'Europe/Paris', currency: 'EUR', companyId: 1 },
  { id: 2, libelle: 'Lyon Part-Dieu', timeZone: 'Europe/Paris', currency: 'EUR', companyId: 1 },
  { id: 3, libelle: 'London Soho', timeZone: 'Europe/London', currency: 'GBP', companyId: 2 },
] as const;
export const FX_SELLERS = [
  { code: 'S1', nom: 'Alice' },
  { code: 'S2', nom: 'Bruno' },
  { code: 'S3', nom: 'Chloé' },
] as const;
export const FX_FIRST = '2026-11-01';
export const FX_LAST = '2026-11-05';

const ARTICLES = [
  { family: 'Plats', article: 'Plat du jour', price: 1450, vat: 0.1 },
  { family: 'Boissons', article: 'Bière pression', price: 620, vat: 0.2 },
  { family: 'Desserts', article: 'Tarte Tatin', price: 850, vat: 0.1 },
  { family: null, article: 'Baguette', price: 115, vat: 0.055 },
  { family: 'Boissons', article: 'Café', price: 230, vat: 0.1 },
];
const METHODS = ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE'];

function line(
  a: (typeof ARTICLES)[number],
  quantity: number,
  sign: number,
  corrected: boolean,
  unitPrice = a.price,
): FxLine {
  const amount = corrected ? 0 : sign * quantity * unitPrice;
  const excl = Math.round(amount / (1 + a.vat));
  return {
    family: a.family,
    article: a.article,
    quantity: sign * quantity,
    unitPrice,
    vatRate: a.vat,
    amount,
    excl,
    tax: amount - excl,
    corrected,
  };
}

/** The tickets of the fixture (deterministic). */
export function fxTickets(): FxTicket[] {
  const out: FxTicket[] = [];
  let id = 5000;
  for (const site of FX_SITES) {
    for (let day = 1; day <= 5; day++) {
      const fiscalDate = `2026-11-0${day}`;
      const count = 10 + ((day * 3 + site.id * 5) % 7);
      for (let k = 0; k < count; k++) {
        const kind = k % 9 === 4 ? 'CANCELLATION' : k % 13 === 6 ? 'RETURN' : 'SALE';
        const sign = kind === 'SALE' ? 1 : -1;
        const employeeMeal = kind === 'SALE' && k % 11 === 2;
        const lines: FxLine[] = [];
        const n = 1 + ((k + day) % 3);
        for (let i = 0; i < n; i++) {
          const a = ARTICLES[(k + i * 2 + day) % ARTICLES.length]!;
          lines.push(line(a, 1 + ((k + i) % 3), sign, false, employeeMeal ? 0 : a.price));
        }
        if (k % 7 === 3) lines.push(line(ARTICLES[(k + 1) % ARTICLES.length]!, 2, 1, true));
        const total = lines.reduce((s, l) => s + l.amount, 0);
        const excl = lines.reduce((s, l) => s + l.excl, 0);
        let payments: FxTicket['payments'] = [];
        if (!employeeMeal && total !== 0) {
          if (k % 5 === 0) {
            const cash = Math.trunc(total / 3);
            payments = [
              { method: 'CARD', amount: total - cash },
              { method: 'CASH', amount: cash },
            ];
          } else payments = [{ method: METHODS[(k + day) % METHODS.length]!, amount: total }];
        }
        const slot = k % 10;
        const [localHour, localMinute] =
          slot === 9 ? [0, 30] : slot === 8 ? [23, 45] : [8 + ((k * 5) % 14), (k * 7) % 60];
        out.push({
          siteId: site.id,
          ticketId: id,
          ref: `T${site.id}-${day}-${k}`,
          fiscalDate,
          localHour,
          localMinute,
          terminalId: 1 + (k % 3),
          sellerCode: FX_SELLERS[(k + day) % 3]!.code,
          kind,
          employeeMeal,
          trainingMode: k % 17 === 10,
          covers: k % 3 === 0 ? sign * (1 + (k % 4)) : null,
          lines,
          payments,
          total,
          excl,
          tax: total - excl,
        });
        id++;
      }
    }
  }
  return out;
}

/** The losses of the fixture. */
export function fxLosses(): FxLoss[] {
  const out: FxLoss[] = [];
  let id = 1;
  const types = ['CUSTOM', 'LOSS', 'REMADE', 'DEGRADED'] as const;
  for (const site of FX_SITES) {
    for (let day = 1; day <= 5; day++) {
      for (let k = 0; k < 3 + (day % 2); k++) {
        const a = ARTICLES[(k + day + site.id) % ARTICLES.length]!;
        const quantity = 1 + ((k * day) % 4);
        out.push({
          siteId: site.id,
          lossId: id++,
          fiscalDate: `2026-11-0${day}`,
          type: types[(k + day) % 4]!,
          article: a.article,
          family: a.family,
          quantity,
          amount: quantity * a.price,
        });
      }
    }
  }
  return out;
}

/** Inserts the reference data, tickets, lines, payments and losses; refreshes daily_sales. */
export async function loadFixture(database: Database): Promise<{ tickets: FxTicket[]; losses: FxLoss[] }> {
  const tickets = fxTickets();
  const losses = fxLosses();
  await loadTestChain(database, {
    sites: FX_SITES,
    sellers: FX_SELLERS,
    tickets: tickets.map((t) => ({
      ...t,
      totalCents: t.total,
      totalExclCents: t.excl,
      taxCents: t.tax,
      sourceRef: t.ref,
      lines: t.lines.map((l) => ({
        ...l,
        unitPriceCents: l.unitPrice,
        amountCents: l.amount,
        amountExclCents: l.excl,
        taxCents: l.tax,
      })),
      payments: t.payments.map((p) => ({ method: p.method, amountCents: p.amount })),
    })),
    refresh: { from: '2026-10-01', to: '2026-12-31' },
  });
  // Losses feed no aggregate: written after the refresh.
  await database.pool.query(
    `INSERT INTO losses (site_id, loss_id, fiscal_date, type, article, family, quantity, amount_cents)
     SELECT * FROM unnest($1::int[], $2::bigint[], $3::date[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::bigint[])`,
    [
      losses.map((x) => x.siteId),
      losses.map((x) => x.lossId),
      losses.map((x) => x.fiscalDate),
      losses.map((x) => x.type),
      losses.map((x) => x.article),
      losses.map((x) => x.family),
      losses.map((x) => x.quantity),
      losses.map((x) => x.amount),
    ],
  );
  return { tickets, losses };
}

/** bo/getReport input for `className` on the fixture, sites 1 and 2, the whole period. */
export function fxInput(className: string, overrides: Partial<RawReportInput> = {}): RawReportInput {
  return reportInput(className, FX_FIRST, FX_LAST, overrides);
}

/** The generation time of the fixture's reports: `resolveReport`'s options, 2026-11-21 10:00 UTC. */
export const FX_NOW = { now: new Date('2026-11-21T10:00:00Z') };

/**
 * The dataset of `className` on the fixture ({@link fxInput} with `overrides`) for a user of
 * sites 1–3, generated at {@link FX_NOW}. Rejects as `resolveReport` does (DomainError) on a
 * request the class refuses.
 */
export async function fxDataset(
  database: Database,
  className: string,
  overrides: Partial<RawReportInput> = {},
): Promise<Dataset> {
  return runReport(await resolveReport(fxInput(className, overrides), [1, 2, 3], database, FX_NOW), database);
}

/** Round-half-away-from-zero of quantity × unit price, as cents (quantities here are whole). */
export function voidedValue(l: FxLine): number {
  return Math.round(l.quantity * l.unitPrice);
}

/** Sorts by the given keys in order (strings and numbers, ascending). */
export function byKeys<T>(...keys: Array<(x: T) => string | number>) {
  return (a: T, b: T): number => {
    for (const k of keys) {
      const x = k(a);
      const y = k(b);
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
}

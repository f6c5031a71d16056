/**
 * The VAT and payment figures that two report families show: the sales analyses (sales by VAT
 * rate `RapportVentesTva`, by payment method `RapportVentesPaiement`: one row per rate or method
 * over the whole selection, with its share) and the finance family (VAT breakdown `RapportTva`,
 * payments `RapportFinance`: a Z-like view, one row per fiscal date and site). Both families sum
 * the same source rows with the same ticket selection, so they are read here once — one SQL
 * builder per figure, with the per-day aggregate path and the tickets path side by side — and
 * differ only in how finely the sums are grouped ({@link Grain}) and in the columns each class
 * lays them out in (vat.ts, payment.ts, ../finance/vat.ts, ../finance/payments.ts).
 *
 * Guarantee: for one request, the `period` figures are the sums of the `daySite` figures, to
 * the cent, on both paths; so a rate's net sales in RapportVentesTva equal the sum of that rate
 * over the days and sites of RapportTva, and a method's amount in RapportVentesPaiement the sum
 * of its column in RapportFinance (where an unknown method counts as OTHER).
 *
 * The Z report (../finance/z.ts) reads its VAT per rate and payments per method here too, at
 * the `daySite` grain, inside its own statement ({@link vatFiguresSql}, {@link paymentFiguresSql}),
 * so its VAT and payment items are those of RapportTva and RapportFinance by construction.
 *
 * Selection: ../ticket-selection.ts, as every report class. The aggregates (`daily_vat_sales`, `daily_payment_sales`) are read when the request keeps
 * whole days (aggregate-reads.ts `readsAggregates`); tests/reports/aggregates.test.ts checks both
 * paths give the same datasets.
 */
import { aggregateConditions, readsAggregates } from '../aggregate-reads.ts';
import type { Database } from '../../db/connect.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { ReportRequest } from '../types.ts';

/** Payment methods of the schema (schema.ts `payments.method`), in display order. */
export const PAYMENT_METHODS = ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE', 'OTHER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

function isPaymentMethod(method: string): method is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(method);
}

/** A method as stored, or OTHER for a value outside the schema's list (the finance columns, the Z). */
export function paymentMethodKey(method: string): PaymentMethod {
  return isPaymentMethod(method) ? method : 'OTHER';
}

/**
 * How finely the figures are summed: `period` over the whole selection (one row per rate or
 * method), `daySite` per fiscal date and site (ordered by date, then site).
 */
export type Grain = 'period' | 'daySite';

/** A SQL statement and its values. */
export interface FiguresQuery {
  text: string;
  values: unknown[];
}

/** Where a figure belongs: null and null at the `period` grain. */
export interface FigureKey {
  /** `YYYY-MM-DD`, or null at the `period` grain. */
  fiscalDate: string | null;
  /** Site id, or null at the `period` grain. */
  siteId: number | null;
}

/** Sums of the ticket lines at one VAT rate. Amounts in cents; returns and cancellations negative. */
export interface VatFigure extends FigureKey {
  /** Fraction (0.2 = 20 %): numeric(6,4), exact in a double. */
  rate: number;
  /** Amount incl. VAT. */
  net: number;
  /** Amount excl. VAT (the VAT base). */
  excl: number;
  tax: number;
  /** Lines at this rate that were not voided (a rate with none only holds voided lines). */
  keptLines: number;
  /** Voided (corrected) lines at this rate, and what they would have cost: round(quantity × unit price) summed. */
  correctedLines: number;
  correctedAmount: number;
}

/** Sums of the payments of one method. Amounts in cents; refunds negative. */
export interface PaymentFigure extends FigureKey {
  /** The method as stored (CASH, CARD, MEAL_VOUCHER, CHEQUE, OTHER or anything a load wrote). */
  method: string;
  /** Number of payments (a bill split between card and cash counts one in each). */
  payments: number;
  amount: number;
}

/** Where one kind of figure is read from, on each path. */
interface FigureSource {
  /** The grouping column besides date and site, named alike in the aggregate table and the source rows. */
  key: string;
  /** The per-day aggregate table (alias `a`) and its sums. */
  table: string;
  aggregated: string;
  /** The source rows (alias `x`) joined to the ticket `t`, and their sums. */
  join: string;
  summed: string;
}

const VAT: FigureSource = {
  key: 'vat_rate',
  table: 'daily_vat_sales',
  aggregated: `sum(a.net_cents)::bigint AS net_cents, sum(a.net_excl_cents)::bigint AS net_excl_cents,
               sum(a.tax_cents)::bigint AS tax_cents, sum(a.kept_lines)::int AS kept_lines,
               sum(a.corrected_lines)::int AS corrected_lines, sum(a.corrected_cents)::bigint AS corrected_cents`,
  join: 'ticket_lines x ON x.site_id = t.site_id AND x.ticket_id = t.ticket_id',
  summed: `sum(x.amount_cents)::bigint AS net_cents, sum(x.amount_excl_cents)::bigint AS net_excl_cents,
           sum(x.tax_cents)::bigint AS tax_cents, (count(*) FILTER (WHERE NOT x.corrected))::int AS kept_lines,
           (count(*) FILTER (WHERE x.corrected))::int AS corrected_lines,
           coalesce(sum(round(x.quantity * x.unit_price_cents)) FILTER (WHERE x.corrected), 0)::bigint AS corrected_cents`,
};

const PAYMENTS: FigureSource = {
  key: 'method',
  table: 'daily_payment_sales',
  aggregated: 'sum(a.payments)::int AS payments, sum(a.amount_cents)::bigint AS amount_cents',
  join: 'payments x ON x.site_id = t.site_id AND x.ticket_id = t.ticket_id',
  summed: 'count(*)::int AS payments, sum(x.amount_cents)::bigint AS amount_cents',
};

/**
 * The one SELECT of `source`'s figures for `request` at `grain`: the aggregate table when
 * the request keeps whole days, else the source rows of the selected tickets (the site and
 * date conditions first, so both reach their rows through the `(site_id, fiscal_date)` keys).
 * Rows by (date, site,) key; `fiscal_date` is text. Appends its values to `values`.
 */
function figuresSql(request: ReportRequest, grain: Grain, source: FigureSource, values: unknown[]): string {
  const aggregates = readsAggregates(request);
  const day = aggregates ? 'a' : 't';
  const key = `${aggregates ? 'a' : 'x'}.${source.key}`;
  const group = grain === 'daySite' ? `${day}.fiscal_date, ${day}.site_id, ${key}` : key;
  const select =
    grain === 'daySite' ? `${day}.fiscal_date::text AS fiscal_date, ${day}.site_id, ${key}` : key;
  const [from, sums, where] = aggregates
    ? [
        `${source.table} a`,
        source.aggregated,
        aggregateConditions(
          'a',
          request.sites.map((s) => s.id),
          periodOf(request),
          values,
        ),
      ]
    : [`${TICKETS_FROM} JOIN ${source.join}`, source.summed, ticketConditions(request, values)];
  return `SELECT ${select}, ${sums}
             FROM ${from}
            WHERE ${where}
            GROUP BY ${group}
            ORDER BY ${group}`;
}

function figuresQuery(request: ReportRequest, grain: Grain, source: FigureSource): FiguresQuery {
  const values: unknown[] = [];
  return { text: figuresSql(request, grain, source, values), values };
}

interface KeyRow {
  fiscal_date?: string;
  site_id?: number | string;
}

function keyOf(row: KeyRow): FigureKey {
  return {
    fiscalDate: row.fiscal_date ?? null,
    siteId: row.site_id === undefined ? null : Number(row.site_id),
  };
}

/**
 * The SQL of the VAT figures of `request` at `grain` (exported for the benchmarks and EXPLAIN):
 * from `daily_vat_sales` when the request keeps whole days, else from the lines of the selected
 * tickets. Rows by (date, site,) ascending rate.
 */
export function vatFiguresQuery(request: ReportRequest, grain: Grain): FiguresQuery {
  return figuresQuery(request, grain, VAT);
}

/**
 * The SELECT of {@link vatFiguresQuery} for use inside another statement (the Z report), its
 * values appended to `values`. Columns: [fiscal_date (text), site_id,] vat_rate, net_cents,
 * net_excl_cents, tax_cents, kept_lines, corrected_lines, corrected_cents.
 */
export function vatFiguresSql(request: ReportRequest, grain: Grain, values: unknown[]): string {
  return figuresSql(request, grain, VAT, values);
}

interface VatRow extends KeyRow {
  vat_rate: string | number;
  net_cents: number | string;
  net_excl_cents: number | string;
  tax_cents: number | string;
  kept_lines: number | string;
  corrected_lines: number | string;
  corrected_cents: number | string;
}

/** The VAT figures of `request` at `grain`, in the order of {@link vatFiguresQuery}. */
export async function vatFigures(
  database: Database,
  request: ReportRequest,
  grain: Grain,
): Promise<VatFigure[]> {
  const { rows } = await database.pool.query<VatRow>(vatFiguresQuery(request, grain));
  return rows.map((r) => ({
    ...keyOf(r),
    rate: num(r.vat_rate),
    net: num(r.net_cents),
    excl: num(r.net_excl_cents),
    tax: num(r.tax_cents),
    keptLines: num(r.kept_lines),
    correctedLines: num(r.corrected_lines),
    correctedAmount: num(r.corrected_cents),
  }));
}

/**
 * The SQL of the payment figures of `request` at `grain` (exported for the benchmarks and
 * EXPLAIN): from `daily_payment_sales` when the request keeps whole days, else from the payments
 * of the selected tickets. One row per method as stored; rows by (date, site,) method.
 */
export function paymentFiguresQuery(request: ReportRequest, grain: Grain): FiguresQuery {
  return figuresQuery(request, grain, PAYMENTS);
}

/**
 * The SELECT of {@link paymentFiguresQuery} for use inside another statement (the Z report),
 * its values appended to `values`. Columns: [fiscal_date (text), site_id,] method, payments,
 * amount_cents.
 */
export function paymentFiguresSql(request: ReportRequest, grain: Grain, values: unknown[]): string {
  return figuresSql(request, grain, PAYMENTS, values);
}

interface PaymentRow extends KeyRow {
  method: string;
  payments: number | string;
  amount_cents: number | string;
}

/** The payment figures of `request` at `grain`, in the order of {@link paymentFiguresQuery}. */
export async function paymentFigures(
  database: Database,
  request: ReportRequest,
  grain: Grain,
): Promise<PaymentFigure[]> {
  const { rows } = await database.pool.query<PaymentRow>(paymentFiguresQuery(request, grain));
  return rows.map((r) => ({
    ...keyOf(r),
    method: r.method,
    payments: num(r.payments),
    amount: num(r.amount_cents),
  }));
}

/** The site name of `siteId` among the request's sites (the rows only hold sites of the request). */
export function siteName(request: ReportRequest, siteId: number | null): string {
  return request.sites.find((s) => s.id === siteId)?.libelle ?? '';
}

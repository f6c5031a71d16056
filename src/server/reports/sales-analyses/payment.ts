/**
 * Sales by payment method (`RapportVentesPaiement`, SPEC.md §1): one row per method of the
 * payments of the period's tickets (CASH, CARD, MEAL_VOUCHER, CHEQUE, OTHER, named in the
 * request's language; a method outside that list shows as recorded), with the number of
 * payments, their amount and the method's share of the amount paid. Payments of returns and
 * cancellations are negative (money given back). A ticket paid in two ways counts once in each
 * method, so the number of payments, not of tickets, is what the row gives. Known methods come
 * in the order above, then any other alphabetically.
 */
import type { Dataset } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../../db/aggregates.ts';
import { hasMessage, message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import {
  type AnalysisParams,
  AnalysisParamsSchema,
  num,
  periodOf,
  share,
  sumOf,
  TICKETS_FROM,
  ticketConditions,
} from './common.ts';

/** Payment methods of schema.ts `payments.method`, in display order; labels `report.paymentMethod.<method>`. */
export const PAYMENT_METHODS = ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE', 'OTHER'] as const;

interface PaymentRow {
  method: string;
  payments: number;
  amount_cents: number | string;
}

/**
 * The SQL of the payment rows of `request` (exported for the benchmark and EXPLAIN): from
 * `daily_payment_sales` when the request keeps whole days, else from the payments.
 */
export function paymentQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (readsAggregates(request)) {
    const where = aggregateConditions('a', request.sites.map((s) => s.id), periodOf(request), values);
    return {
      text: `SELECT a.method, sum(a.payments)::int AS payments, sum(a.amount_cents)::bigint AS amount_cents
               FROM daily_payment_sales a
              WHERE ${where}
              GROUP BY a.method`,
      values,
    };
  }
  const where = ticketConditions(request, values);
  return {
    text: `SELECT p.method, count(*)::int AS payments, sum(p.amount_cents)::bigint AS amount_cents
             FROM ${TICKETS_FROM}
             JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id
            WHERE ${where}
            GROUP BY p.method`,
    values,
  };
}

function rank(method: string): number {
  const i = (PAYMENT_METHODS as readonly string[]).indexOf(method);
  return i < 0 ? PAYMENT_METHODS.length : i;
}

async function queryPayments(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<PaymentRow>(paymentQuery(request));
  const figures = rows
    .map((r) => ({ method: r.method, payments: num(r.payments), amount: num(r.amount_cents) }))
    .sort(
      (a, b) => rank(a.method) - rank(b.method) || (a.method < b.method ? -1 : a.method > b.method ? 1 : 0),
    );
  const total = sumOf(figures, (f) => f.amount);
  const label = (method: string) => {
    const id = `report.paymentMethod.${method}`;
    return hasMessage(request.language, id) ? message(request.language, id) : method;
  };
  return {
    ...datasetHeader(paymentSalesReport, request),
    columns: translatedColumns(request, [
      ['paymentMethod', 'text'],
      ['payments', 'qty'],
      ['amount', 'money'],
      ['share', 'percent'],
    ]),
    rows: figures.map((f) => ({
      paymentMethod: label(f.method),
      payments: f.payments,
      amount: f.amount,
      share: share(f.amount, total),
    })),
    totals: {
      paymentMethod: null,
      payments: sumOf(figures, (f) => f.payments),
      amount: total,
      share: share(total, total),
    },
  };
}

/** Sales by payment method; maxDays 400 like the sales report. */
export const paymentSalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesPaiement',
  titleId: 'report.RapportVentesPaiement.title',
  fileNameId: 'report.RapportVentesPaiement.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Graph'],
  query: queryPayments,
};

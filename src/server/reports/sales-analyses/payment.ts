/**
 * Sales by payment method (`RapportVentesPaiement`, SPEC.md §1): one row per method of the
 * payments of the period's tickets (CASH, CARD, MEAL_VOUCHER, CHEQUE, OTHER, named in the
 * request's language; a method outside that list shows as recorded), with the number of
 * payments, their amount and the method's share of the amount paid. Payments of returns and
 * cancellations are negative (money given back). A ticket paid in two ways counts once in each
 * method, so the number of payments, not of tickets, is what the row gives. Known methods come
 * in the order above, then any other alphabetically.
 *
 * The figures are those of the finance report (`RapportFinance`, ../finance/payments.ts) summed
 * over the period: both read figures.ts `paymentFigures` (same selection, same SQL, same
 * `daily_payment_sales` path), this class at the `period` grain. What stays here is the layout
 * of a breakdown: a row per method (an unknown method keeps its own row, where the finance
 * report's fixed columns fold it into OTHER), a share column.
 */
import type { Dataset } from '../../../contract/reports.ts';
import { hasMessage, message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { type AnalysisParams, AnalysisParamsSchema, share, sumOf } from './common.ts';
import { type FiguresQuery, PAYMENT_METHODS, paymentFigures, paymentFiguresQuery } from './figures.ts';

/** The SQL of the payment rows of `request` (for the benchmark and EXPLAIN): figures.ts at the `period` grain. */
export function paymentQuery(request: ReportRequest): FiguresQuery {
  return paymentFiguresQuery(request, 'period');
}

function rank(method: string): number {
  const i = (PAYMENT_METHODS as readonly string[]).indexOf(method);
  return i < 0 ? PAYMENT_METHODS.length : i;
}

async function queryPayments(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const figures = (await paymentFigures(database, request, 'period')).sort(
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

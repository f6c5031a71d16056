/**
 * The finance report (`RapportFinance`, SPEC.md §1 "finance"), variant Daily: what was cashed,
 * one row per fiscal date and site with the amount of each payment method (cents), the total
 * cashed, and the number of paid tickets, plus totals.
 *
 * Methods are the schema's (CASH, CARD, MEAL_VOUCHER, CHEQUE, OTHER; an unknown stored value
 * counts as OTHER), labels `report.paymentMethod.<METHOD>`. Payments of returns and
 * cancellation tickets are negative, so each column is the net cashed by that method and the
 * total equals the net sales of the sales report (payments sum to the ticket totals), except for
 * tickets left unpaid (employee meals at no charge carry no payment). `paymentCount` is the
 * number of payments (a bill split between a card and cash counts two). The VAT breakdown is
 * its own class (vat.ts), the closing summary another (z.ts).
 *
 * The same figures as sales by payment method (`RapportVentesPaiement`,
 * ../sales-analyses/payment.ts), read by the same code (../sales-analyses/figures.ts
 * `paymentFigures`: same ticket selection, same SQL, same `daily_payment_sales` path) at the
 * `daySite` grain; this class lays one (date, site) per row with a fixed column per method — the
 * Z-like view of what each till cashed — where the analysis gives a row per method and its share.
 * Its `operation` parameter takes any text and is ignored, as in every finance class.
 *
 * maxDays = 400, one row per day and site. Without filters below the day the query sums
 * `daily_payment_sales`; with filters it is one hash aggregate over the period's payments,
 * grouped by date, site and method (a distinct count of paid tickets, tried first, cost far
 * more).
 */
import { z } from 'zod';
import type { Dataset, DatasetColumn } from '../../../contract/reports.ts';
import { message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import {
  type FiguresQuery,
  PAYMENT_METHODS,
  type PaymentMethod,
  paymentFigures,
  paymentFiguresQuery,
  siteName,
} from '../sales-analyses/figures.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';

const FinanceParamsSchema = z.object({ operation: z.string() });
type FinanceParams = z.infer<typeof FinanceParamsSchema>;

/** Dataset column key of a payment method's amount, e.g. `payment_CARD`. */
export function paymentColumnKey(method: PaymentMethod): string {
  return `payment_${method}`;
}

/**
 * The SQL of the payment sums per fiscal date, site and method (for the benchmark):
 * figures.ts at the `daySite` grain, from `daily_payment_sales` when the request keeps whole
 * days, else from the payments of the selected tickets.
 */
export function paymentsQuery(request: ReportRequest): FiguresQuery {
  return paymentFiguresQuery(request, 'daySite');
}

type FinanceRow = Record<string, string | number | null>;

async function queryFinance(ctx: ReportContext<FinanceParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const keys = PAYMENT_METHODS.map(paymentColumnKey);
  const summed = [...keys, 'totalPayments', 'paymentCount'];
  // Column key of each method, made once: a key built per figure (thousands for a year of a
  // chain) is a new string each time, and every row property write then hashes it again.
  const columnOf = new Map<string, string>(PAYMENT_METHODS.map((m) => [m, paymentColumnKey(m)]));
  const otherColumn = paymentColumnKey('OTHER');
  const rows: FinanceRow[] = [];
  // Figures come ordered by date then site: a new (date, site) opens a new row.
  let row: FinanceRow | undefined;
  for (const f of await paymentFigures(database, request, 'daySite')) {
    if (!row || row.fiscalDate !== f.fiscalDate || row.siteId !== f.siteId) {
      row = { fiscalDate: f.fiscalDate, siteId: f.siteId, site: siteName(request, f.siteId) };
      for (const k of summed) row[k] = 0;
      rows.push(row);
    }
    const k = columnOf.get(f.method) ?? otherColumn;
    row[k] = Number(row[k]) + f.amount;
    row.totalPayments = Number(row.totalPayments) + f.amount;
    row.paymentCount = Number(row.paymentCount) + f.payments;
  }
  const totals: FinanceRow = { fiscalDate: null, siteId: null, site: null };
  for (const k of summed) totals[k] = rows.reduce((s, r) => s + Number(r[k]), 0);
  const methodColumns: DatasetColumn[] = PAYMENT_METHODS.map((m) => ({
    key: paymentColumnKey(m),
    label: message(request.language, `report.paymentMethod.${m}`),
    type: 'money',
  }));
  return {
    ...datasetHeader(financeReport, request),
    columns: [
      ...translatedColumns(request, [
        ['fiscalDate', 'date'],
        ['siteId', 'qty'],
        ['site', 'text'],
      ]),
      ...methodColumns,
      ...translatedColumns(request, [
        ['totalPayments', 'money'],
        ['paymentCount', 'qty'],
      ]),
    ],
    rows,
    totals,
  };
}

/** The finance (payments) report class (SPEC.md §1), registered in registry.ts. */
export const financeReport: ReportClass<FinanceParams> = {
  className: 'RapportFinance',
  titleId: 'report.RapportFinance.title',
  fileNameId: 'report.RapportFinance.filename',
  params: FinanceParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryFinance,
};

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
 * Selection as every ticket report (ticket-filter.ts), applied to the ticket a payment belongs
 * to. maxDays = 400, one row per day and site. Without filters below the day the query sums
 * `daily_payment_sales`; with filters it is one hash aggregate over the period's payments (a
 * distinct count of paid tickets, tried first, cost six times as much).
 */
import { z } from 'zod';
import type { Dataset, DatasetColumn } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../../db/aggregates.ts';
import { message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { cents, PAYMENT_METHODS, type PaymentMethod, ticketFilter } from '../operations/ticket-filter.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';

const FinanceParamsSchema = z.object({ operation: z.string() });
type FinanceParams = z.infer<typeof FinanceParamsSchema>;

type PaymentRow = {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  payments: number | string;
} & Record<string, number | string>;

/** Dataset column key of a payment method's amount, e.g. `payment_CARD`. */
export function paymentColumnKey(method: PaymentMethod): string {
  return `payment_${method}`;
}

/**
 * One FILTERed sum per method of `amount` (the method names are our constants, not user input);
 * a stored value outside the schema's list counts as OTHER. `known` is the placeholder of the
 * array of the other methods.
 */
function methodSums(method: string, amount: string, known: string): string {
  return PAYMENT_METHODS.map((m) => {
    const condition = m === 'OTHER' ? `${method} <> ALL(${known}::text[])` : `${method} = '${m}'`;
    return `coalesce(sum(${amount}) FILTER (WHERE ${condition}), 0)::bigint AS "${paymentColumnKey(m)}"`;
  }).join(', ');
}

/**
 * The SQL of the payment sums per fiscal date and site, one column per method (exported for the
 * benchmark): from `daily_payment_sales` when the request keeps whole days
 * (aggregates.ts `readsAggregates`), else from the payments of the selected tickets.
 */
export function paymentsQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const known = PAYMENT_METHODS.filter((m) => m !== 'OTHER');
  if (readsAggregates(request)) {
    const values: unknown[] = [known];
    const where = aggregateConditions('a', request.sites.map((s) => s.id), request, values);
    return {
      text: `SELECT d.*, s.libelle
               FROM (SELECT a.fiscal_date::text AS fiscal_date, a.site_id,
                            ${methodSums('a.method', 'a.amount_cents', '$1')},
                            sum(a.payments)::int AS payments
                       FROM daily_payment_sales a
                      WHERE ${where}
                      GROUP BY a.fiscal_date, a.site_id) d
               JOIN sites s ON s.id = d.site_id
              ORDER BY d.fiscal_date, d.site_id`,
      values,
    };
  }
  const filter = ticketFilter(request);
  const sums = methodSums('p.method', 'p.amount_cents', '$10');
  return {
    text: `SELECT d.*, s.libelle
             FROM (SELECT t.fiscal_date::text AS fiscal_date, t.site_id, ${sums},
                          count(*)::int AS payments
                     FROM tickets t JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id
                    WHERE ${filter.where}
                    GROUP BY t.fiscal_date, t.site_id) d
             JOIN sites s ON s.id = d.site_id
            ORDER BY d.fiscal_date, d.site_id`,
    values: [...filter.values, known],
  };
}

async function queryFinance(ctx: ReportContext<FinanceParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<PaymentRow>(paymentsQuery(request));
  const keys = PAYMENT_METHODS.map(paymentColumnKey);
  const totals: Record<string, string | number | null> = { fiscalDate: null, siteId: null, site: null };
  for (const k of [...keys, 'totalPayments', 'paymentCount']) totals[k] = 0;
  const out = rows.map((r) => {
    const row: Record<string, string | number | null> = {
      fiscalDate: r.fiscal_date,
      siteId: Number(r.site_id),
      site: r.libelle,
    };
    let total = 0;
    for (const k of keys) {
      const amount = cents(r[k]);
      row[k] = amount;
      total += amount;
    }
    row.totalPayments = total;
    row.paymentCount = Number(r.payments);
    for (const k of [...keys, 'totalPayments', 'paymentCount'])
      totals[k] = Number(totals[k]) + Number(row[k]);
    return row;
  });
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
    rows: out,
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

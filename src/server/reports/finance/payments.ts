/**
 * The finance report (`RapportFinance`, SPEC.md §1 "finance"), variant Daily: what was cashed,
 * one row per fiscal date and site with the amount of each payment method (cents), the total
 * cashed, and the number of paid tickets, plus totals.
 *
 * Methods are the schema's (CASH, CARD, MEAL_VOUCHER, CHEQUE, OTHER; an unknown stored value
 * counts as OTHER), labels `report.paymentMethod.<METHOD>`. Payments of returns and
 * cancellation tickets are negative, so each column is the net cashed by that method and the
 * total equals the net sales of the sales report (payments sum to the ticket totals), except for
 * tickets left unpaid (employee meals at no charge carry no payment). `paidTickets` counts the
 * tickets holding at least one payment. The VAT breakdown is its own class (vat.ts), the
 * closing summary another (z.ts).
 *
 * Selection as every ticket report (ticket-filter.ts), applied to the ticket a payment belongs
 * to. maxDays = 400, one row per day and site.
 */
import { z } from 'zod';
import type { Dataset, DatasetColumn } from '../../../contract/reports.ts';
import { message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import {
  cents,
  PAYMENT_METHODS,
  type PaymentMethod,
  paymentMethodKey,
  ticketFilter,
} from '../operations/ticket-filter.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';

const FinanceParamsSchema = z.object({ operation: z.string() });
type FinanceParams = z.infer<typeof FinanceParamsSchema>;

interface PaymentRow {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  method: string;
  amount: number | string;
  tickets: number | string;
}

/** Dataset column key of a payment method's amount, e.g. `payment_CARD`. */
export function paymentColumnKey(method: PaymentMethod): string {
  return `payment_${method}`;
}

/** The SQL of the payment sums per fiscal date, site and method (exported for the benchmark). */
export function paymentsQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const filter = ticketFilter(request);
  // GROUPING SETS: the per-method sums and, per day and site, the number of distinct paid
  // tickets (method NULL), in one pass over the payments.
  return {
    text: `SELECT t.fiscal_date::text AS fiscal_date, t.site_id, s.libelle, p.method,
                  sum(p.amount_cents)::bigint AS amount, count(DISTINCT p.ticket_id)::int AS tickets
             FROM tickets t JOIN sites s ON s.id = t.site_id
             JOIN payments p ON p.site_id = t.site_id AND p.ticket_id = t.ticket_id
            WHERE ${filter.where}
            GROUP BY GROUPING SETS ((t.fiscal_date, t.site_id, s.libelle, p.method), (t.fiscal_date, t.site_id, s.libelle))
            ORDER BY t.fiscal_date, t.site_id, p.method NULLS FIRST`,
    values: filter.values,
  };
}

async function queryFinance(ctx: ReportContext<FinanceParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<PaymentRow>(paymentsQuery(request));
  const out: Array<Record<string, string | number | null>> = [];
  const totals: Record<string, string | number | null> = { fiscalDate: null, siteId: null, site: null };
  for (const m of PAYMENT_METHODS) totals[paymentColumnKey(m)] = 0;
  totals.totalPayments = 0;
  totals.paidTickets = 0;
  const add = (row: Record<string, string | number | null>, key: string, value: number) => {
    row[key] = Number(row[key] ?? 0) + value;
    totals[key] = Number(totals[key] ?? 0) + value;
  };
  let current: Record<string, string | number | null> | null = null;
  for (const r of rows) {
    if (r.method === null) {
      // The per-day row of the grouping sets opens the day's row (ORDER BY … NULLS FIRST).
      current = { fiscalDate: r.fiscal_date, siteId: Number(r.site_id), site: r.libelle };
      for (const m of PAYMENT_METHODS) current[paymentColumnKey(m)] = 0;
      current.totalPayments = 0;
      current.paidTickets = 0;
      add(current, 'paidTickets', Number(r.tickets));
      out.push(current);
    } else if (current) {
      const amount = cents(r.amount);
      add(current, paymentColumnKey(paymentMethodKey(r.method)), amount);
      add(current, 'totalPayments', amount);
    }
  }
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
        ['paidTickets', 'qty'],
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

/**
 * The Z report (`RapportZ`, SPEC.md §1 "finance: a Z report per site and fiscal date"), variant
 * Daily: the closing summary of each site and fiscal date, laid out as a till prints its Z —
 * one row per item, with a count, an amount (cents) or a detail — so it fits any page whatever
 * the number of VAT rates and payment methods. Items, in order (stable `code`, translated
 * `item` label `report.z.<CODE>`):
 *
 * - `TICKETS`: count = sale tickets (kind SALE, employee meals included), amount = net sales
 *   incl. VAT (every ticket, returns and cancellations negative), as the sales report;
 * - `NET_EXCL`: net sales excl. VAT; `VAT_<rate>` (e.g. `VAT_0.1`): VAT at that rate, from the
 *   lines, one item per rate of at least one line that was not voided; `TAX`: total VAT;
 * - `PAYMENT_<METHOD>`: count = payments, amount = cashed with that method (net of refunds),
 *   one item per method present;
 * - `CANCELLATIONS`: cancelled after payment (CANCELLATION tickets), count and amount taken back
 *   shown positive; `CORRECTIONS`: voided lines before payment, count and the amount they would
 *   have cost (quantity × unit price) — see cancellations.ts for both definitions;
 * - `EMPLOYEE_MEALS`: count and amount of employee-meal tickets; `COVERS`: covers served (a
 *   cancelled table's negative covers net out);
 * - `AVERAGE_TICKET`: round(net sales / sale tickets), 0 without sale tickets;
 * - `FIRST_TICKET`, `LAST_TICKET`: detail = local time (site clock, `HH:mm`) the first and last
 *   ticket of the fiscal date were opened.
 *
 * The totals row is left blank: the items of different days cannot be added up as one column.
 * Selection as every report (../ticket-selection.ts). Only site/dates with a ticket give items.
 * The VAT and payment items are the figures of RapportTva and RapportFinance for the same
 * request (../sales-analyses/figures.ts, read inside the Z's own statement), so the three
 * classes agree to the cent by construction.
 *
 * maxDays = 31: a Z is read day by day, a few thousand rows for a month of a chain. Without
 * filters below the day the figures come from the per-day aggregates. With filters the query
 * reads the period's tickets (index on site and date) and joins their lines and payments.
 */
import { z } from 'zod';
import type { Dataset, Language } from '../../../contract/reports.ts';
import { aggregateConditions, readsAggregates } from '../aggregate-reads.ts';
import { formatPercent, message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { averageTicket } from '../sales.ts';
import {
  PAYMENT_METHODS,
  paymentFiguresSql,
  paymentMethodKey,
  vatFiguresSql,
} from '../sales-analyses/figures.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';

const ZParamsSchema = z.object({ operation: z.string() });
type ZParams = z.infer<typeof ZParamsSchema>;

interface ZRow {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  sale_tickets: number;
  net: number | string;
  excl: number | string;
  tax: number | string;
  cancelled: number;
  cancelled_cents: number | string;
  meals: number;
  meal_cents: number | string;
  covers: number | string;
  first_time: string;
  last_time: string;
  /** `[[rate, tax], …]` by ascending rate. */
  vat: Array<[string, number | string]> | null;
  corrected: number | string | null;
  corrected_cents: number | string | null;
  /** `[[method, count, amount], …]`. */
  pays: Array<[string, number, number | string]> | null;
}

/**
 * The day-level figures of each site and fiscal date (tickets, sales, cancellations, meals,
 * covers, first and last ticket) as a SELECT appended to `values`: from `daily_sales` and
 * `daily_ticket_stats` when the request keeps whole days, else from the selected tickets. The
 * VAT and payment items come from figures.ts (see {@link zQuery}).
 */
function daysSql(request: ReportRequest, values: unknown[]): string {
  if (readsAggregates(request)) {
    return `SELECT d.site_id, d.fiscal_date::text AS fiscal_date, d.tickets AS sale_tickets,
                   d.net_cents AS net, d.net_excl_cents AS excl, d.tax_cents AS tax,
                   x.cancellations AS cancelled, x.cancelled_cents, x.employee_meals AS meals,
                   x.employee_meal_cents AS meal_cents, x.covers,
                   x.first_opened_at AS first_at, x.last_opened_at AS last_at
              FROM daily_sales d
              JOIN daily_ticket_stats x ON x.site_id = d.site_id AND x.fiscal_date = d.fiscal_date
             WHERE ${aggregateConditions(
               'd',
               request.sites.map((s) => s.id),
               periodOf(request),
               values,
             )}`;
  }
  return `SELECT t.site_id, t.fiscal_date::text AS fiscal_date,
                 (count(*) FILTER (WHERE t.kind = 'SALE'))::int AS sale_tickets,
                 sum(t.total_cents)::bigint AS net, sum(t.total_excl_cents)::bigint AS excl,
                 sum(t.tax_cents)::bigint AS tax,
                 (count(*) FILTER (WHERE t.kind = 'CANCELLATION'))::int AS cancelled,
                 coalesce(-sum(t.total_cents) FILTER (WHERE t.kind = 'CANCELLATION'), 0)::bigint AS cancelled_cents,
                 (count(*) FILTER (WHERE t.employee_meal))::int AS meals,
                 coalesce(sum(t.total_cents) FILTER (WHERE t.employee_meal), 0)::bigint AS meal_cents,
                 coalesce(sum(t.covers), 0)::int AS covers,
                 min(t.opened_at) AS first_at, max(t.opened_at) AS last_at
            FROM ${TICKETS_FROM}
           WHERE ${ticketConditions(request, values)}
           GROUP BY t.site_id, t.fiscal_date`;
}

/**
 * The SQL of the Z figures per site and fiscal date (exported for the benchmark), one
 * statement: the day-level figures ({@link daysSql}), the VAT per rate and the payments per
 * method of figures.ts at the `daySite` grain (the very sums of RapportTva and RapportFinance),
 * each folded into one JSON list per day. Every part reads the per-day aggregates when the
 * request keeps whole days (aggregate-reads.ts `readsAggregates`), else the selected tickets, their
 * lines and payments, each part with its own selection so the planner sees the tickets'
 * statistics in each (a shared materialised selection made it hash every line of the chain).
 */
export function zQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const days = daysSql(request, values);
  const rates = vatFiguresSql(request, 'daySite', values);
  const methods = paymentFiguresSql(request, 'daySite', values);
  return {
    text: `WITH days AS (${days}),
           lines AS (
             SELECT r.site_id, r.fiscal_date,
                    jsonb_agg(jsonb_build_array(r.vat_rate::text, r.tax_cents) ORDER BY r.vat_rate)
                      FILTER (WHERE r.kept_lines > 0) AS vat,
                    sum(r.corrected_lines)::int AS corrected, sum(r.corrected_cents)::bigint AS corrected_cents
               FROM (${rates}) r
              GROUP BY r.fiscal_date, r.site_id
           ), pays AS (
             SELECT m.site_id, m.fiscal_date,
                    jsonb_agg(jsonb_build_array(m.method, m.payments, m.amount_cents) ORDER BY m.method) AS pays
               FROM (${methods}) m
              GROUP BY m.fiscal_date, m.site_id
           )
           SELECT d.fiscal_date, d.site_id, s.libelle, d.sale_tickets, d.net, d.excl, d.tax,
                  d.cancelled, d.cancelled_cents, d.meals, d.meal_cents, d.covers,
                  to_char(d.first_at AT TIME ZONE s.time_zone, 'HH24:MI') AS first_time,
                  to_char(d.last_at AT TIME ZONE s.time_zone, 'HH24:MI') AS last_time,
                  l.vat, l.corrected, l.corrected_cents, p.pays
             FROM days d JOIN sites s ON s.id = d.site_id
             LEFT JOIN lines l ON l.site_id = d.site_id AND l.fiscal_date = d.fiscal_date
             LEFT JOIN pays p ON p.site_id = d.site_id AND p.fiscal_date = d.fiscal_date
            ORDER BY d.fiscal_date, d.site_id`,
    values,
  };
}

type Cell = string | number | null;

/** Code and translated label of an item. */
interface ZItem {
  code: string;
  label: string;
}

/**
 * The labels of a Z's items in `language`, formatted once per report, not once per day or item:
 * formatting a percentage builds an Intl formatter, which is costly next to the query itself.
 * VAT and payment items are made when first met.
 */
function zItemLabels(language: Language) {
  const label = (code: string) => message(language, `report.z.${code}`);
  const fixed = {
    TICKETS: label('TICKETS'),
    NET_EXCL: label('NET_EXCL'),
    TAX: label('TAX'),
    CANCELLATIONS: label('CANCELLATIONS'),
    CORRECTIONS: label('CORRECTIONS'),
    EMPLOYEE_MEALS: label('EMPLOYEE_MEALS'),
    COVERS: label('COVERS'),
    AVERAGE_TICKET: label('AVERAGE_TICKET'),
    FIRST_TICKET: label('FIRST_TICKET'),
    LAST_TICKET: label('LAST_TICKET'),
  };
  const vatItems = new Map<string, ZItem>();
  const paymentItems = new Map<string, ZItem>();
  return {
    ...fixed,
    /** The item of a VAT rate, by the rate's text as the query answers it. */
    vat(rate: string): ZItem {
      let found = vatItems.get(rate);
      if (!found) {
        const fraction = Number(rate);
        found = {
          code: `VAT_${fraction}`,
          label: message(language, 'report.z.VAT', { rate: formatPercent(language, fraction) }),
        };
        vatItems.set(rate, found);
      }
      return found;
    },
    /** The item of a payment method (a PAYMENT_METHODS key). */
    payment(method: string): ZItem {
      let found = paymentItems.get(method);
      if (!found) {
        found = {
          code: `PAYMENT_${method}`,
          label: message(language, 'report.z.PAYMENT', {
            method: message(language, `report.paymentMethod.${method}`),
          }),
        };
        paymentItems.set(method, found);
      }
      return found;
    },
  };
}

type ZItemLabels = ReturnType<typeof zItemLabels>;

/** The payments of a day by method key (paymentMethodKey): count and amount in cents. */
function paymentsByMethod(pays: ZRow['pays']): Map<string, { count: number; amount: number }> {
  const byMethod = new Map<string, { count: number; amount: number }>();
  for (const [method, count, amount] of pays ?? []) {
    const key = paymentMethodKey(method);
    const p = byMethod.get(key) ?? { count: 0, amount: 0 };
    p.count += Number(count);
    p.amount += num(amount);
    byMethod.set(key, p);
  }
  return byMethod;
}

/** Appends to `out` the items of one site and fiscal date, in the order of the module comment. */
function pushDayItems(out: Array<Record<string, Cell>>, r: ZRow, labels: ZItemLabels): void {
  const fiscalDate = r.fiscal_date;
  const siteId = Number(r.site_id);
  const site = r.libelle;
  // One object literal with every key in column order: rows of one shape, cheaper to build and
  // to serialise than spreads of a per-day base.
  const item = (
    code: string,
    label: string,
    count: number | null,
    amount: number | null,
    detail: string | null = null,
  ) => out.push({ fiscalDate, siteId, site, code, item: label, count, amount, detail });
  const net = num(r.net);
  item('TICKETS', labels.TICKETS, Number(r.sale_tickets), net);
  item('NET_EXCL', labels.NET_EXCL, null, num(r.excl));
  for (const [rate, tax] of r.vat ?? []) {
    const vat = labels.vat(rate);
    item(vat.code, vat.label, null, num(tax));
  }
  item('TAX', labels.TAX, null, num(r.tax));
  const pays = paymentsByMethod(r.pays);
  for (const m of PAYMENT_METHODS) {
    const p = pays.get(m);
    if (!p) continue;
    const payment = labels.payment(m);
    item(payment.code, payment.label, p.count, p.amount);
  }
  item('CANCELLATIONS', labels.CANCELLATIONS, Number(r.cancelled), num(r.cancelled_cents));
  item('CORRECTIONS', labels.CORRECTIONS, Number(r.corrected ?? 0), num(r.corrected_cents));
  item('EMPLOYEE_MEALS', labels.EMPLOYEE_MEALS, Number(r.meals), num(r.meal_cents));
  item('COVERS', labels.COVERS, Number(r.covers), null);
  item('AVERAGE_TICKET', labels.AVERAGE_TICKET, null, averageTicket(net, Number(r.sale_tickets)));
  item('FIRST_TICKET', labels.FIRST_TICKET, null, null, r.first_time);
  item('LAST_TICKET', labels.LAST_TICKET, null, null, r.last_time);
}

async function queryZ(ctx: ReportContext<ZParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<ZRow>(zQuery(request));
  const out: Array<Record<string, Cell>> = [];
  const labels = zItemLabels(request.language);
  for (const r of rows) pushDayItems(out, r, labels);
  const columns = translatedColumns(request, [
    ['fiscalDate', 'date'],
    ['siteId', 'qty'],
    ['site', 'text'],
    ['code', 'text'],
    ['item', 'text'],
    ['count', 'qty'],
    ['amount', 'money'],
    ['detail', 'text'],
  ]);
  return {
    ...datasetHeader(zReport, request),
    columns,
    rows: out,
    // Blank, not "Total": the items of several days are not one column of figures to add.
    totals: Object.fromEntries(columns.map((c) => [c.key, ''])),
  };
}

/** The Z report class (SPEC.md §1 finance), registered in registry.ts. */
export const zReport: ReportClass<ZParams> = {
  className: 'RapportZ',
  titleId: 'report.RapportZ.title',
  fileNameId: 'report.RapportZ.filename',
  params: ZParamsSchema,
  maxDays: 31,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryZ,
};

/**
 * Sales compared with the same period a year earlier (`RapportVentesComparaison`, SPEC.md §1):
 * one row per fiscal date and site with the SALE tickets and net sales of the date and of its
 * counterpart a year before, and the variance in cents and as a fraction of last year's sales.
 *
 * Alignment: the counterpart of a date is the date {@link YEAR_SHIFT_DAYS} = 364 days earlier,
 * i.e. 52 whole weeks, so a Saturday is compared with a Saturday. Trade follows the weekday far
 * more than the calendar date (a weekend against weekdays would swing the variance by tens of
 * percent), so this is how restaurant chains compare; the price is that the compared period
 * starts one day (two in a leap year) later in the calendar. With datefiscales[], each date is
 * shifted the same way.
 *
 * A row exists when the date or its counterpart has tickets; the missing side reads 0.
 * `variancePercent = (net − previousNet) / previousNet`, null when last year's sales are 0.
 * Like the sales report, it reads the per-day aggregate `daily_sales` when the request has no
 * filter below the day, `daily_hour_sales` with only an hour range on whole hours, and the
 * tickets otherwise — one statement either way.
 */
import { subDays } from 'date-fns/subDays';
import { parseWireDate, toWireDate } from '../../../contract/dates.ts';
import type { Dataset } from '../../../contract/reports.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { hourRangeCondition, readsHourAggregates } from '../aggregate-reads.ts';
import { usesDailyAggregate } from '../sales.ts';
import { num, periodOf, type SelectedPeriod, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { type AnalysisParams, AnalysisParamsSchema } from './common.ts';

/** Days between a date and the one it is compared with: 52 weeks, same weekday. */
export const YEAR_SHIFT_DAYS = 364;

/** `date` (wire) moved `YEAR_SHIFT_DAYS` earlier. */
export function previousYearDate(date: string): string {
  const d = parseWireDate(date);
  if (!d) throw new RangeError(`not a wire date: ${date}`);
  return toWireDate(subDays(d, YEAR_SHIFT_DAYS));
}

function shifted(period: SelectedPeriod): SelectedPeriod {
  return {
    dateDebut: previousYearDate(period.dateDebut),
    dateFin: previousYearDate(period.dateFin),
    fiscalDates: period.fiscalDates?.map(previousYearDate) ?? null,
  };
}

interface ComparisonRow {
  fiscal_date: string;
  previous_fiscal_date: string;
  site_id: number;
  libelle: string;
  tickets: number | null;
  net_cents: number | string | null;
  previous_tickets: number | null;
  previous_net_cents: number | string | null;
}

/** One side (this year or last year) of the comparison as a SELECT, dates moved onto this year. */
function side(request: ReportRequest, values: unknown[], period: SelectedPeriod, shift: number): string {
  const $ = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  if (usesDailyAggregate(request)) {
    const dates = period.fiscalDates ? `AND d.fiscal_date = ANY(${$(period.fiscalDates)}::date[])` : '';
    return `SELECT d.site_id, d.fiscal_date + ${shift} AS fiscal_date, d.tickets, d.net_cents
              FROM daily_sales d
             WHERE d.site_id = ANY(${$(request.sites.map((s) => s.id))}::int[])
               AND d.fiscal_date BETWEEN ${$(period.dateDebut)}::date AND ${$(period.dateFin)}::date ${dates}`;
  }
  if (readsHourAggregates(request)) {
    // An hour range on whole hours: the per-hour aggregate keeps each local hour apart.
    const dates = period.fiscalDates ? `AND a.fiscal_date = ANY(${$(period.fiscalDates)}::date[])` : '';
    return `SELECT a.site_id, a.fiscal_date + ${shift} AS fiscal_date,
                   sum(a.tickets)::int AS tickets, sum(a.net_cents)::bigint AS net_cents
              FROM daily_hour_sales a
             WHERE a.site_id = ANY(${$(request.sites.map((s) => s.id))}::int[])
               AND a.fiscal_date BETWEEN ${$(period.dateDebut)}::date AND ${$(period.dateFin)}::date ${dates}
                   ${hourRangeCondition('a', request, values)}
             GROUP BY a.site_id, a.fiscal_date`;
  }
  return `SELECT t.site_id, t.fiscal_date + ${shift} AS fiscal_date,
                 (count(*) FILTER (WHERE t.kind = 'SALE'))::int AS tickets,
                 sum(t.total_cents)::bigint AS net_cents
            FROM ${TICKETS_FROM}
           WHERE ${ticketConditions(request, values, { period })}
           GROUP BY t.site_id, t.fiscal_date`;
}

/** The SQL of the comparison rows of `request` (exported for the benchmark and EXPLAIN). */
export function comparisonQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const current = side(request, values, periodOf(request), 0);
  const previous = side(request, values, shifted(periodOf(request)), YEAR_SHIFT_DAYS);
  return {
    text: `WITH cur AS (${current}), prev AS (${previous})
           SELECT coalesce(c.fiscal_date, p.fiscal_date)::text AS fiscal_date,
                  (coalesce(c.fiscal_date, p.fiscal_date) - ${YEAR_SHIFT_DAYS})::text AS previous_fiscal_date,
                  coalesce(c.site_id, p.site_id) AS site_id, si.libelle,
                  c.tickets, c.net_cents, p.tickets AS previous_tickets, p.net_cents AS previous_net_cents
             FROM cur c
             FULL JOIN prev p ON p.site_id = c.site_id AND p.fiscal_date = c.fiscal_date
             JOIN sites si ON si.id = coalesce(c.site_id, p.site_id)
            ORDER BY 1, 3`,
    values,
  };
}

/** Variance as a fraction of last year's figure, null when last year is 0. */
export function variancePercent(current: number, previous: number): number | null {
  return previous === 0 ? null : (current - previous) / previous;
}

async function queryComparison(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<ComparisonRow>(comparisonQuery(request));
  if (request.variant === 'Cumulative') {
    return cumulative(
      request,
      rows.map((r) => ({
        fiscalDate: r.fiscal_date,
        previousFiscalDate: r.previous_fiscal_date,
        net: num(r.net_cents),
        previousNet: num(r.previous_net_cents),
      })),
    );
  }
  // Daily: one literal with every key per row, straight from the database row (rows of one
  // shape; a year of a chain is ~2,000 rows), the totals added up on the way.
  const totals = { tickets: 0, net: 0, previousTickets: 0, previousNet: 0 };
  const out = rows.map((r) => {
    const tickets = num(r.tickets);
    const net = num(r.net_cents);
    const previousTickets = num(r.previous_tickets);
    const previousNet = num(r.previous_net_cents);
    totals.tickets += tickets;
    totals.net += net;
    totals.previousTickets += previousTickets;
    totals.previousNet += previousNet;
    return {
      fiscalDate: r.fiscal_date,
      previousFiscalDate: r.previous_fiscal_date,
      siteId: num(r.site_id),
      site: r.libelle,
      tickets,
      previousTickets,
      netSales: net,
      previousNetSales: previousNet,
      variance: net - previousNet,
      variancePercent: variancePercent(net, previousNet),
    };
  });
  return {
    ...datasetHeader(comparisonSalesReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['previousFiscalDate', 'date'],
      ['siteId', 'qty'],
      ['site', 'text'],
      ['tickets', 'qty'],
      ['previousTickets', 'qty'],
      ['netSales', 'money'],
      ['previousNetSales', 'money'],
      ['variance', 'money'],
      ['variancePercent', 'percent'],
    ]),
    rows: out,
    totals: {
      fiscalDate: null,
      previousFiscalDate: null,
      siteId: null,
      site: null,
      tickets: totals.tickets,
      previousTickets: totals.previousTickets,
      netSales: totals.net,
      previousNetSales: totals.previousNet,
      variance: totals.net - totals.previousNet,
      variancePercent: variancePercent(totals.net, totals.previousNet),
    },
  };
}

/**
 * The Cumulative variant: one row per fiscal date, every site together, with the day's net sales
 * this year and last, the running totals since the start of the period, and the variance of
 * those running totals (how far ahead of or behind last year the period stands on each date).
 */
function cumulative(
  request: ReportRequest,
  figures: ReadonlyArray<{
    fiscalDate: string;
    previousFiscalDate: string;
    net: number;
    previousNet: number;
  }>,
): Dataset {
  // Figures come ordered by date, then site: consecutive rows of a date are added up.
  const days: Array<{ fiscalDate: string; previousFiscalDate: string; net: number; previousNet: number }> =
    [];
  for (const f of figures) {
    const last = days.at(-1);
    if (last?.fiscalDate === f.fiscalDate) {
      last.net += f.net;
      last.previousNet += f.previousNet;
    } else days.push({ ...f });
  }
  let net = 0;
  let previousNet = 0;
  const rows = days.map((d) => {
    net += d.net;
    previousNet += d.previousNet;
    return {
      fiscalDate: d.fiscalDate,
      previousFiscalDate: d.previousFiscalDate,
      netSales: d.net,
      previousNetSales: d.previousNet,
      cumulativeNetSales: net,
      cumulativePreviousNetSales: previousNet,
      variance: net - previousNet,
      variancePercent: variancePercent(net, previousNet),
    };
  });
  return {
    ...datasetHeader(comparisonSalesReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['previousFiscalDate', 'date'],
      ['netSales', 'money'],
      ['previousNetSales', 'money'],
      ['cumulativeNetSales', 'money'],
      ['cumulativePreviousNetSales', 'money'],
      ['variance', 'money'],
      ['variancePercent', 'percent'],
    ]),
    rows,
    totals: {
      fiscalDate: null,
      previousFiscalDate: null,
      netSales: net,
      previousNetSales: previousNet,
      cumulativeNetSales: net,
      cumulativePreviousNetSales: previousNet,
      variance: net - previousNet,
      variancePercent: variancePercent(net, previousNet),
    },
  };
}

/**
 * Year-on-year comparison, Daily (per date and site) and Cumulative (running totals of the
 * chain). maxDays 400 like the sales report: it reads two periods, but
 * without filters both come from `daily_sales`, and with filters each is one index range.
 */
export const comparisonSalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesComparaison',
  titleId: 'report.RapportVentesComparaison.title',
  fileNameId: 'report.RapportVentesComparaison.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Cumulative'],
  query: queryComparison,
};

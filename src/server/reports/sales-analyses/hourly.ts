/**
 * Sales by hour (`RapportVentesHoraire`) and by part of the day (`RapportVentesTranche`,
 * SPEC.md §9's morning … peak night, bounds in contract/day-parts.ts), SPEC.md §1 "sales".
 *
 * Hours are read in each site's own clock (the local time the ticket was opened), so 12:00 is
 * noon in Paris and in London alike. Rows: every hour 0–23 (or every day part), empty ones
 * included so the day reads whole; per row the SALE tickets, net sales incl. and excl. VAT
 * (returns and cancellations negative), the average ticket `round(net / tickets)` and the
 * row's share of the period's net sales. Both classes run the same query, one row per local
 * hour; day parts add their hours up, so the two always agree to the cent.
 */
import type { Dataset } from '../../../contract/reports.ts';
import { DAY_PARTS } from '../../../contract/day-parts.ts';
import { aggregateConditions, hourRangeCondition, readsHourAggregates } from '../aggregate-reads.ts';
import { message } from '../../i18n.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import { averageTicket } from '../sales.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { type AnalysisParams, AnalysisParamsSchema, hourSpan, share, sumOf } from './common.ts';

interface HourRow {
  hour: number;
  tickets: number;
  net_cents: number | string;
  net_excl_cents: number | string;
}

/** Figures of one hour (or of one day part), cents. */
interface Figures {
  tickets: number;
  net: number;
  excl: number;
}

/**
 * The SQL of the hourly figures of `request` (exported for the benchmark and EXPLAIN): from
 * `daily_hour_sales` when the request keeps whole hours of every ticket (no terminal, seller or
 * training filter; an hour range on whole hours), else from the tickets.
 */
export function hourlyQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (readsHourAggregates(request)) {
    const where =
      aggregateConditions(
        'a',
        request.sites.map((s) => s.id),
        periodOf(request),
        values,
      ) + hourRangeCondition('a', request, values);
    return {
      text: `SELECT a.hour::int AS hour, sum(a.tickets)::int AS tickets,
                    sum(a.net_cents)::bigint AS net_cents, sum(a.net_excl_cents)::bigint AS net_excl_cents
               FROM daily_hour_sales a
              WHERE ${where}
              GROUP BY a.hour`,
      values,
    };
  }
  const where = ticketConditions(request, values);
  return {
    text: `SELECT extract(hour FROM local.tod)::int AS hour,
                  (count(*) FILTER (WHERE t.kind = 'SALE'))::int AS tickets,
                  sum(t.total_cents)::bigint AS net_cents,
                  sum(t.total_excl_cents)::bigint AS net_excl_cents
             FROM ${TICKETS_FROM}
            WHERE ${where}
            GROUP BY 1`,
    values,
  };
}

/** Figures of each local hour 0–23 (zeros where no ticket was opened). */
async function hourlyFigures(ctx: ReportContext<AnalysisParams>): Promise<Figures[]> {
  const { rows } = await ctx.database.pool.query<HourRow>(hourlyQuery(ctx.request));
  const hours: Figures[] = Array.from({ length: 24 }, () => ({ tickets: 0, net: 0, excl: 0 }));
  for (const r of rows) {
    hours[r.hour] = { tickets: num(r.tickets), net: num(r.net_cents), excl: num(r.net_excl_cents) };
  }
  return hours;
}

const FIGURE_COLUMNS = [
  ['tickets', 'qty'],
  ['netSales', 'money'],
  ['netSalesExclTax', 'money'],
  ['averageTicket', 'money'],
  ['share', 'percent'],
] as const;

function figureCells(f: Figures, totalNet: number) {
  return {
    tickets: f.tickets,
    netSales: f.net,
    netSalesExclTax: f.excl,
    averageTicket: averageTicket(f.net, f.tickets),
    share: share(f.net, totalNet),
  };
}

function totalOf(rows: readonly Figures[]): Figures {
  return {
    tickets: sumOf(rows, (r) => r.tickets),
    net: sumOf(rows, (r) => r.net),
    excl: sumOf(rows, (r) => r.excl),
  };
}

async function queryHourly(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request } = ctx;
  const hours = await hourlyFigures(ctx);
  const total = totalOf(hours);
  return {
    ...datasetHeader(hourlySalesReport, request),
    columns: translatedColumns(request, [['hour', 'text'], ...FIGURE_COLUMNS]),
    rows: hours.map((f, hour) => ({ hour: hourSpan(hour, hour + 1), ...figureCells(f, total.net) })),
    totals: { hour: null, ...figureCells(total, total.net) },
  };
}

async function queryDayParts(ctx: ReportContext<AnalysisParams>): Promise<Dataset> {
  const { request } = ctx;
  const hours = await hourlyFigures(ctx);
  const total = totalOf(hours);
  return {
    ...datasetHeader(dayPartSalesReport, request),
    columns: translatedColumns(request, [['dayPart', 'text'], ['hours', 'text'], ...FIGURE_COLUMNS]),
    rows: DAY_PARTS.map((part) => ({
      dayPart: message(request.language, `report.dayPart.${part.key}`),
      hours: hourSpan(part.fromHour, part.toHour),
      ...figureCells(totalOf(hours.slice(part.fromHour, part.toHour)), total.net),
    })),
    totals: { dayPart: null, hours: null, ...figureCells(total, total.net) },
  };
}

/**
 * Sales by local hour. maxDays 400 like the sales report. Without filters below the day it sums
 * `daily_hour_sales` (one row per site, day and local hour with a ticket); with an hour range,
 * terminals, sellers or training tickets it makes one pass over the period's tickets, where
 * converting each instant to its site's clock is most of the cost.
 */
export const hourlySalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesHoraire',
  titleId: 'report.RapportVentesHoraire.title',
  fileNameId: 'report.RapportVentesHoraire.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Graph'],
  query: queryHourly,
};

/** Sales by part of the day (contract/day-parts.ts); same query and limits as by hour. */
export const dayPartSalesReport: ReportClass<AnalysisParams> = {
  className: 'RapportVentesTranche',
  titleId: 'report.RapportVentesTranche.title',
  fileNameId: 'report.RapportVentesTranche.filename',
  params: AnalysisParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily', 'Graph'],
  query: queryDayParts,
};

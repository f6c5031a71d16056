/**
 * The corrections report (`RapportCorrections`, SPEC.md §1 "corrections", SPEC.md §9 ticket
 * criterion "corrections"), variant Daily: the lines voided on a ticket before it was cashed,
 * one row per fiscal date, site, terminal and seller, plus totals.
 *
 * A correction is a ticket line with `corrected = true` (schema.ts): an article rung up and then
 * voided on the same ticket. The line keeps its quantity and unit price but carries zero
 * amounts, so the ticket's totals and payments never include it. Per row:
 * - `correctedLines`: number of voided lines;
 * - `correctedQuantity`: their quantity (articles voided);
 * - `correctedAmount`: what they would have cost, `round(quantity × unit_price_cents)` summed,
 *   in cents — computed from the quantity and unit price the line keeps, not from its (zero)
 *   amount; `articles`: the distinct articles voided, alphabetical.
 *
 * Imported files (src/server/import) have no way to mark a line as voided yet, so on imported
 * data this report is empty; the demo chain voids about 2 % of its tickets' lines.
 * Selection as every report (../ticket-selection.ts), applied to the ticket that holds the
 * line. `operation` and the other class parameters are ignored.
 *
 * maxDays = 400 (one row per day, site, terminal and seller that voided something). Whole days
 * read the per-day aggregate `daily_corrections` (whatever the number of lines); an hour range,
 * a terminal or seller filter or training tickets read the lines of the selected tickets (a
 * cost growing with the lines).
 */
import { z } from 'zod';
import type { Dataset } from '../../../contract/reports.ts';
import { datasetHeader, translatedColumns } from '../dataset.ts';
import type { ReportClass, ReportContext, ReportRequest } from '../types.ts';
import { aggregateConditions, readsAggregates } from '../aggregate-reads.ts';
import { num, periodOf, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';

const CorrectionsParamsSchema = z.object({ operation: z.string() });
type CorrectionsParams = z.infer<typeof CorrectionsParamsSchema>;

interface CorrectionRow {
  fiscal_date: string;
  site_id: number;
  libelle: string;
  terminal_id: number | null;
  seller_code: string | null;
  lines: number | string;
  quantity: string;
  amount: number | string;
  articles: string;
}

/**
 * The SQL of the correction rows for `request` (exported for the benchmark): from the per-day
 * aggregate `daily_corrections` when the request keeps whole days (aggregate-reads.ts
 * `readsAggregates`), else from the voided lines of the selected tickets. Same rows either way.
 */
export function correctionsQuery(request: ReportRequest): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (readsAggregates(request)) {
    return {
      text: `SELECT c.fiscal_date::text AS fiscal_date, c.site_id, c.terminal_id, c.seller_code, c.lines,
                    c.quantity::text AS quantity, c.amount_cents AS amount,
                    array_to_string(c.articles, ', ') AS articles, s.libelle
               FROM daily_corrections c JOIN sites s ON s.id = c.site_id
              WHERE ${aggregateConditions(
                'c',
                request.sites.map((site) => site.id),
                periodOf(request),
                values,
              )}
              ORDER BY c.fiscal_date, c.site_id, c.terminal_id NULLS LAST, c.seller_code NULLS LAST`,
      values,
    };
  }
  const where = ticketConditions(request, values);
  return {
    text: `SELECT c.*, s.libelle
             FROM (SELECT t.fiscal_date::text AS fiscal_date, t.site_id, t.terminal_id, t.seller_code,
                          count(*)::int AS lines, sum(l.quantity)::text AS quantity,
                          sum(round(l.quantity * l.unit_price_cents))::bigint AS amount,
                          string_agg(DISTINCT l.article, ', ' ORDER BY l.article) AS articles
                     FROM ${TICKETS_FROM}
                     JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id AND l.corrected
                    WHERE ${where}
                    GROUP BY t.fiscal_date, t.site_id, t.terminal_id, t.seller_code) c
             JOIN sites s ON s.id = c.site_id
            ORDER BY c.fiscal_date, c.site_id, c.terminal_id NULLS LAST, c.seller_code NULLS LAST`,
    values,
  };
}

async function queryCorrections(ctx: ReportContext<CorrectionsParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<CorrectionRow>(correctionsQuery(request));
  const totals = { lines: 0, quantity: 0, amount: 0 };
  const out = rows.map((r) => {
    const row = {
      fiscalDate: r.fiscal_date,
      siteId: Number(r.site_id),
      site: r.libelle,
      terminalId: r.terminal_id,
      sellerCode: r.seller_code,
      correctedLines: Number(r.lines),
      correctedQuantity: Number(r.quantity),
      correctedAmount: num(r.amount),
      articles: r.articles,
    };
    totals.lines += row.correctedLines;
    totals.quantity += row.correctedQuantity;
    totals.amount += row.correctedAmount;
    return row;
  });
  return {
    ...datasetHeader(correctionsReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['siteId', 'qty'],
      ['site', 'text'],
      ['terminalId', 'qty'],
      ['sellerCode', 'text'],
      ['correctedLines', 'qty'],
      ['correctedQuantity', 'qty'],
      ['correctedAmount', 'money'],
      ['articles', 'text'],
    ]),
    rows: out,
    totals: {
      fiscalDate: null,
      siteId: null,
      site: null,
      terminalId: null,
      sellerCode: null,
      correctedLines: totals.lines,
      correctedQuantity: Math.round(totals.quantity * 1000) / 1000,
      correctedAmount: totals.amount,
      articles: null,
    },
  };
}

/** The corrections report class (SPEC.md §1), registered in registry.ts. */
export const correctionsReport: ReportClass<CorrectionsParams> = {
  className: 'RapportCorrections',
  titleId: 'report.RapportCorrections.title',
  fileNameId: 'report.RapportCorrections.filename',
  params: CorrectionsParamsSchema,
  maxDays: 400,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryCorrections,
};

/**
 * The tickets report (`RapportTickets`, SPEC.md §1 "tickets"), variant Daily: one row per
 * ticket — fiscal date, local time it was opened (site clock, `HH:mm`), site, terminal, seller,
 * ticket number, kind (sale, return, cancellation, translated), amount incl. VAT in cents, and
 * the payment methods used (translated, in payment order, each once) — plus the total amount.
 *
 * The ticket number is the till's own (`tickets.source_ref`: the ticket value of the imported
 * file, or the demo's reference), which is what a manager finds on the paper receipt.
 * Selection as every report (../ticket-selection.ts), narrowed by `operation`. Rows are ordered by fiscal date, site,
 * opening time, then ticket id.
 *
 * maxDays = 31: the report lists every ticket (a busy site rings ~500 a day, a chain of six
 * ~80,000 a month), so a month is the most a document can usefully hold. CSV and XLSX are
 * streamed (`stream`): rows are read through a cursor while the file is written.
 */
import { z } from 'zod';
import type { Dataset, Language } from '../../../contract/reports.ts';
import { message } from '../../i18n.ts';
import { cursorRows, datasetHeader, translatedColumns } from '../dataset.ts';
import { paymentMethodKey } from '../sales-analyses/figures.ts';
import { num, TICKET_OPERATIONS, TICKETS_FROM, ticketConditions } from '../ticket-selection.ts';
import type { DatasetRow, DatasetStream, ReportClass, ReportContext, ReportRequest } from '../types.ts';

/**
 * Class parameters. `operation`: VENTE (default) and TOUTES list every ticket (as the sales
 * report counts every ticket); ANNULATION only cancellation tickets; CORRECTION only tickets
 * holding at least one corrected (voided) line (ticket-selection.ts `operation`).
 */
const TicketsParamsSchema = z.object({
  operation: z.enum(TICKET_OPERATIONS),
});
type TicketsParams = z.infer<typeof TicketsParamsSchema>;

interface TicketRow {
  fiscal_date: string;
  time: string;
  site_id: number;
  libelle: string;
  terminal_id: number | null;
  seller_code: string | null;
  number: string;
  kind: 'SALE' | 'RETURN' | 'CANCELLATION';
  total_cents: number | string;
  methods: string[] | null;
}

/** The SQL of the ticket rows for `request` (exported for the benchmark). */
export function ticketsQuery(request: ReportRequest<TicketsParams>): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const where = ticketConditions(request, values, { operation: request.params.operation });
  return {
    text: `SELECT t.fiscal_date::text AS fiscal_date,
                  to_char(t.opened_at AT TIME ZONE s.time_zone, 'HH24:MI') AS time,
                  t.site_id, s.libelle, t.terminal_id, t.seller_code, t.source_ref AS number, t.kind,
                  t.total_cents, p.methods
             FROM ${TICKETS_FROM}
             LEFT JOIN LATERAL (
                  SELECT array_agg(p.method ORDER BY p.payment_no) AS methods
                    FROM payments p WHERE p.site_id = t.site_id AND p.ticket_id = t.ticket_id) p ON true
            WHERE ${where}
            ORDER BY t.fiscal_date, t.site_id, t.opened_at, t.ticket_id`,
    values,
  };
}

/**
 * Turns ticket rows into dataset rows, adding their amounts to a running total (labels looked
 * up once per kind and method, not once per ticket: a month is ~80,000 rows).
 */
function ticketRowMapper(language: Language) {
  let total = 0;
  const labels = new Map<string, string>();
  const label = (id: string) => {
    let text = labels.get(id);
    if (text === undefined) {
      text = message(language, id);
      labels.set(id, text);
    }
    return text;
  };
  return {
    map: (r: TicketRow): DatasetRow => {
      const amount = num(r.total_cents);
      total += amount;
      const methods = [...new Set((r.methods ?? []).map(paymentMethodKey))];
      return {
        fiscalDate: r.fiscal_date,
        time: r.time,
        siteId: Number(r.site_id),
        site: r.libelle,
        terminalId: r.terminal_id,
        sellerCode: r.seller_code,
        ticketNumber: r.number,
        kind: label(`report.ticketKind.${r.kind}`),
        amount,
        payments: methods.map((m) => label(`report.paymentMethod.${m}`)).join(', '),
      };
    },
    totals: (): Dataset['totals'] => ({
      fiscalDate: null,
      time: null,
      siteId: null,
      site: null,
      terminalId: null,
      sellerCode: null,
      ticketNumber: null,
      kind: null,
      amount: total,
      payments: null,
    }),
  };
}

function ticketsHead(request: ReportRequest<TicketsParams>): DatasetStream['head'] {
  return {
    ...datasetHeader(ticketsReport, request),
    columns: translatedColumns(request, [
      ['fiscalDate', 'date'],
      ['time', 'text'],
      ['siteId', 'qty'],
      ['site', 'text'],
      ['terminalId', 'qty'],
      ['sellerCode', 'text'],
      ['ticketNumber', 'text'],
      ['kind', 'text'],
      ['amount', 'money'],
      ['payments', 'text'],
    ]),
  };
}

async function queryTickets(ctx: ReportContext<TicketsParams>): Promise<Dataset> {
  const { request, database } = ctx;
  const { rows } = await database.pool.query<TicketRow>(ticketsQuery(request));
  const mapper = ticketRowMapper(request.language);
  const out = rows.map(mapper.map);
  return { ...ticketsHead(request), rows: out, totals: mapper.totals() };
}

/** The same rows as {@link queryTickets}, read through a cursor as they are written out. */
async function streamTickets(ctx: ReportContext<TicketsParams>): Promise<DatasetStream> {
  const { request, database } = ctx;
  const mapper = ticketRowMapper(request.language);
  async function* rows() {
    for await (const batch of cursorRows<TicketRow>(database.pool, ticketsQuery(request)))
      yield batch.map(mapper.map);
  }
  return { head: ticketsHead(request), rows: rows(), totals: mapper.totals };
}

/** The tickets report class (SPEC.md §1), registered in registry.ts. */
export const ticketsReport: ReportClass<TicketsParams> = {
  className: 'RapportTickets',
  titleId: 'report.RapportTickets.title',
  fileNameId: 'report.RapportTickets.filename',
  params: TicketsParamsSchema,
  maxDays: 31,
  formats: ['PDF', 'CSV', 'XLSX', 'JSON'],
  variants: ['Daily'],
  query: queryTickets,
  stream: streamTickets,
};

/**
 * One ticket in full (GET bo/tickets/detail; SPEC.md §2 `/tickets`; shape in contract/tickets.ts):
 * its summary, lines, payments, the sale it cancels and the cancellations of it. Cancellations
 * are looked up on the same site only: sales data never refers across sites (DESIGN.md §5).
 */
import type { TicketDetail } from '../../contract/tickets.ts';
import type { Database } from '../db/connect.ts';
import { DomainError } from '../errors.ts';
import { SUMMARY_COLUMNS, SUMMARY_JOINS, type SummaryRow, toSummary } from './ticket-search.ts';

/** The head of a ticket: its summary and the figures only the detail shows. */
interface HeadRow extends SummaryRow {
  timeZone: string;
  covers: number | null;
  totalExclCents: number;
  taxCents: number;
}

interface LineRow {
  lineNo: number;
  articleCode: string | null;
  article: string;
  family: string | null;
  quantity: string;
  unitPriceCents: number;
  amountCents: number;
  vatRate: string;
  corrected: boolean;
}

interface PaymentRow {
  paymentNo: number;
  method: string;
  amountCents: number;
}

/** `[site id, ticket id]`: the primary key every query of the detail reads by. */
type TicketKey = [number, number];

function readHead(database: Database, key: TicketKey) {
  return database.pool.query<HeadRow>(
    `SELECT ${SUMMARY_COLUMNS}, s.time_zone AS "timeZone", t.covers,
            t.total_excl_cents AS "totalExclCents", t.tax_cents AS "taxCents"
       FROM tickets t ${SUMMARY_JOINS}
      WHERE t.site_id = $1 AND t.ticket_id = $2`,
    key,
  );
}

function readLines(database: Database, key: TicketKey) {
  return database.pool.query<LineRow>(
    `SELECT line_no AS "lineNo", article_code AS "articleCode", article, family, quantity::text AS quantity,
            unit_price_cents AS "unitPriceCents", amount_cents AS "amountCents", vat_rate::text AS "vatRate", corrected
       FROM ticket_lines WHERE site_id = $1 AND ticket_id = $2 ORDER BY line_no`,
    key,
  );
}

function readPayments(database: Database, key: TicketKey) {
  return database.pool.query<PaymentRow>(
    `SELECT payment_no AS "paymentNo", method, amount_cents AS "amountCents"
       FROM payments WHERE site_id = $1 AND ticket_id = $2 ORDER BY payment_no`,
    key,
  );
}

/** The sale the ticket cancels (none for a sale). */
function readCancelledSale(database: Database, key: TicketKey) {
  return database.pool.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS}
       FROM tickets c JOIN tickets t ON t.site_id = c.site_id AND t.ticket_id = c.cancels_ticket_id
       ${SUMMARY_JOINS}
      WHERE c.site_id = $1 AND c.ticket_id = $2`,
    key,
  );
}

/** The cancellations of the ticket, oldest first. */
function readCancellations(database: Database, key: TicketKey) {
  return database.pool.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS}
       FROM tickets t ${SUMMARY_JOINS}
      WHERE t.site_id = $1 AND t.cancels_ticket_id = $2
      ORDER BY t.opened_at, t.ticket_id`,
    key,
  );
}

/**
 * Ticket `ticketId` of site `siteId` for a user whose scope is `scopeSiteIds`; amounts in cents.
 * @throws DomainError forbidden (403) Forbidden with `details.sites` for a site outside the
 *   scope; notFound (404) NotFound when the site has no such ticket.
 */
export async function ticketDetail(
  database: Database,
  scopeSiteIds: readonly number[],
  siteId: number,
  ticketId: number,
): Promise<TicketDetail> {
  if (!scopeSiteIds.includes(siteId)) {
    throw new DomainError('forbidden', 'Forbidden', `site ${siteId} is outside the user's scope`, {
      sites: [siteId],
    });
  }
  const key: TicketKey = [siteId, ticketId];
  const [head, lines, payments, cancels, cancelledBy] = await Promise.all([
    readHead(database, key),
    readLines(database, key),
    readPayments(database, key),
    readCancelledSale(database, key),
    readCancellations(database, key),
  ]);
  const ticket = head.rows[0];
  if (!ticket) throw new DomainError('notFound', 'NotFound', `no ticket ${ticketId} at site ${siteId}`);
  return {
    ...toSummary(ticket),
    timeZone: ticket.timeZone,
    covers: ticket.covers,
    totalExclCents: Number(ticket.totalExclCents),
    taxCents: Number(ticket.taxCents),
    lines: lines.rows.map((l) => ({
      ...l,
      quantity: Number(l.quantity),
      unitPriceCents: Number(l.unitPriceCents),
      amountCents: Number(l.amountCents),
      vatRate: Number(l.vatRate),
    })),
    payments: payments.rows.map((p) => ({ ...p, amountCents: Number(p.amountCents) })),
    cancels: cancels.rows[0] ? toSummary(cancels.rows[0]) : null,
    cancelledBy: cancelledBy.rows.map(toSummary),
  };
}

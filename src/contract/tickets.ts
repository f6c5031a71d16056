/**
 * Ticket search and ticket detail (SPEC.md §2 `/tickets`, §9 "ticket search criteria"). SPEC.md §7
 * lists no ticket call, so these follow the house style of bo/getReport (DESIGN.md §4):
 *
 * - `GET bo/tickets/search?id&sites[]&tpv[]&vendeurs&dateDebut&dateFin&heureDebut&heureFin
 *   &montantMin&montantMax&criteres[]&trainingMode&page&pageSize` → {@link TicketSearchAnswerSchema};
 * - `GET bo/tickets/detail?id&site&ticketId` → {@link TicketDetailSchema}.
 *
 * Amounts travel as integer cents of the site's currency; instants as ISO 8601; the ticket's
 * local clock (`openedLocal`) as `YYYY-MM-DDTHH:mm:ss` in the site's time zone, so the screen
 * shows the hour the till printed without knowing time zones.
 */
import { z } from 'zod';

/**
 * Criteria of SPEC.md §9 (wire values of `criteres[]`). A ticket matches when it meets ANY of
 * the chosen criteria (a manager ticking "cancellations" and "corrections" wants both kinds of
 * suspicious tickets); none chosen = every ticket.
 * - `cancellations`: tickets of kind CANCELLATION;
 * - `corrections`: tickets with at least one corrected (voided) line;
 * - `cashed`: tickets with at least one payment (money changed hands, refunds included);
 * - `employeeMeals`: staff meals.
 */
export const TICKET_CRITERIA = ['cancellations', 'corrections', 'cashed', 'employeeMeals'] as const;
export const TicketCriterionSchema = z.enum(TICKET_CRITERIA);
export type TicketCriterion = z.infer<typeof TicketCriterionSchema>;

/** Kinds of ticket (schema.ts `tickets.kind`). */
export const TICKET_KINDS = ['SALE', 'RETURN', 'CANCELLATION'] as const;
export const TicketKindSchema = z.enum(TICKET_KINDS);
export type TicketKind = z.infer<typeof TicketKindSchema>;

/** Longest period one search may cover, in days (beyond it: 400 `MaxReportDays` with `details.maxDays`). */
export const TICKET_SEARCH_MAX_DAYS = 93;
/** Page size when none is asked, and the hard maximum the server accepts. */
export const TICKET_PAGE_SIZE = 50;
export const TICKET_MAX_PAGE_SIZE = 200;

/** One ticket of a result page. Money in cents of `currency` (the site's). */
export const TicketSummarySchema = z.object({
  restaurantId: z.number().int(),
  site: z.string(),
  ticketId: z.number().int(),
  /** The till's own reference of the ticket (import key or demo number). */
  number: z.string(),
  fiscalDate: z.string(),
  openedAt: z.string(),
  /** Wall clock of the site when the ticket was opened, `YYYY-MM-DDTHH:mm:ss`. */
  openedLocal: z.string(),
  terminalId: z.number().int().nullable(),
  terminal: z.string().nullable(),
  sellerCode: z.string().nullable(),
  seller: z.string().nullable(),
  kind: TicketKindSchema,
  employeeMeal: z.boolean(),
  trainingMode: z.boolean(),
  /** At least one corrected line. */
  corrected: z.boolean(),
  /** At least one payment. */
  cashed: z.boolean(),
  totalCents: z.number().int(),
  currency: z.string(),
});
export type TicketSummary = z.infer<typeof TicketSummarySchema>;

/** A page of results, newest first; `total` counts every match, `page` is 1-based. */
export const TicketSearchAnswerSchema = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  tickets: z.array(TicketSummarySchema),
});
export type TicketSearchAnswer = z.infer<typeof TicketSearchAnswerSchema>;

/** A line of a ticket. `vatRate` a fraction (0.1 = 10 %); corrected lines carry zero amounts. */
export const TicketLineSchema = z.object({
  lineNo: z.number().int(),
  articleCode: z.string().nullable(),
  article: z.string(),
  family: z.string().nullable(),
  quantity: z.number(),
  unitPriceCents: z.number().int(),
  amountCents: z.number().int(),
  vatRate: z.number(),
  corrected: z.boolean(),
});
export type TicketLine = z.infer<typeof TicketLineSchema>;

/** A payment of a ticket: `method` CASH, CARD, MEAL_VOUCHER, CHEQUE or OTHER; cents. */
export const TicketPaymentSchema = z.object({
  paymentNo: z.number().int(),
  method: z.string(),
  amountCents: z.number().int(),
});
export type TicketPayment = z.infer<typeof TicketPaymentSchema>;

/** GET bo/tickets/detail: the ticket, its lines, payments and what the till recorded of its history. */
export const TicketDetailSchema = TicketSummarySchema.extend({
  timeZone: z.string(),
  covers: z.number().int().nullable(),
  totalExclCents: z.number().int(),
  taxCents: z.number().int(),
  lines: z.array(TicketLineSchema),
  payments: z.array(TicketPaymentSchema),
  /** A cancellation: the sale it cancels (same site), when recorded; else null. */
  cancels: TicketSummarySchema.nullable(),
  /** A sale: the cancellation tickets that cancel it (usually none, at most one). */
  cancelledBy: z.array(TicketSummarySchema),
});
export type TicketDetail = z.infer<typeof TicketDetailSchema>;

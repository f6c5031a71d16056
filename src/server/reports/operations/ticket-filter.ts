/**
 * The ticket selection every ticket-level report shares (tickets, cancellations, corrections,
 * finance, VAT, Z): sites, period or explicit fiscal dates, hour range in the site's own clock,
 * terminals, sellers and training mode — exactly the rules of the sales report (sales.ts), so a
 * figure of one report reconciles with the same figure of another.
 *
 * The clause expects the ticket table aliased `t` and the `sites` row of its site aliased `s`
 * (joined on `s.id = t.site_id`), and reads the period through the `(site_id, fiscal_date)`
 * index of `tickets`.
 */
import { minutesToHhmm, type ReportRequest } from '../types.ts';

/** A WHERE clause over `t`/`s` and its values, numbered from `$1`. */
export interface TicketFilter {
  /** Conditions joined by AND (no leading WHERE). */
  where: string;
  values: unknown[];
}

/**
 * The selection of `request` as SQL. Parameters `$1`…`$9` are taken; a query adds its own from
 * `$10` on.
 */
export function ticketFilter(request: ReportRequest): TicketFilter {
  const hours = request.hours;
  return {
    where: `t.site_id = ANY($1::int[])
        AND t.fiscal_date BETWEEN $2::date AND $3::date
        AND ($4::date[] IS NULL OR t.fiscal_date = ANY($4::date[]))
        AND ($5::boolean OR NOT t.training_mode)
        AND (cardinality($6::int[]) = 0 OR t.terminal_id = ANY($6::int[]))
        AND (cardinality($7::text[]) = 0 OR t.seller_code = ANY($7::text[]))
        AND ($8::time IS NULL OR (
              SELECT CASE
                WHEN $8::time < $9::time THEN x.tod >= $8::time AND x.tod < $9::time
                WHEN $8::time > $9::time THEN x.tod >= $8::time OR x.tod < $9::time
                ELSE true END
                FROM (SELECT (t.opened_at AT TIME ZONE z.time_zone)::time AS tod FROM sites z WHERE z.id = t.site_id) x))`,
    values: [
      request.sites.map((site) => site.id),
      request.dateDebut,
      request.dateFin,
      request.fiscalDates,
      request.trainingMode,
      request.terminals,
      request.sellers,
      hours ? minutesToHhmm(hours.start) : null,
      hours ? minutesToHhmm(hours.end) : null,
    ],
  };
}

/** Bigint sums come back as strings when the int8 parser is absent; cents stay far below 2^53. */
export function cents(value: number | string | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** Payment methods of the schema (schema.ts `payments.method`), in display order. */
export const PAYMENT_METHODS = ['CASH', 'CARD', 'MEAL_VOUCHER', 'CHEQUE', 'OTHER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

function isPaymentMethod(method: string): method is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(method);
}

/** A method as stored, or OTHER for a value outside the schema's list. */
export function paymentMethodKey(method: string): PaymentMethod {
  return isPaymentMethod(method) ? method : 'OTHER';
}

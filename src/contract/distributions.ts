/**
 * Distributions (répartitions): GET bo/getRepartition (SPEC.md §7: typeRepartition, statut,
 * site, dateDebut, dateFin), shown on /analyses/repartitions. SPEC.md does not say what a
 * distribution is; in this trade it is how the sales of a period split across one dimension,
 * each part with its number of tickets, its amount and its share of the whole.
 *
 * `typeRepartition` — the dimension:
 * - `PAIEMENT`: payment method (CASH, CARD, MEAL_VOUCHER, CHEQUE, OTHER); amount = payments;
 * - `FAMILLE`: product family of the lines (no family → key `''`); amount = lines incl. VAT;
 * - `TVA`: VAT rate of the lines (key the fraction as text, e.g. `0.1`); amount = lines incl. VAT;
 * - `CAISSE`: terminal (key its number); amount = ticket totals;
 * - `VENDEUR`: seller (key the seller code); amount = ticket totals;
 * - `TRANCHE`: hour of the day the ticket was opened, site local clock (key `00`…`23`,
 *   label `12:00–13:00`); amount = ticket totals.
 * `tickets` counts the distinct tickets contributing to the part (a ticket paid by card and cash
 * counts in both parts, so the parts' tickets may add up to more than the tickets).
 *
 * `statut` — which tickets (default TOUS):
 * - `VENTE`: sales and returns (kinds SALE, RETURN), cancellations left out;
 * - `ANNULATION`: cancellation tickets only (their amounts are negative);
 * - `TOUS`: every ticket, the net figure of the sales report.
 * Training-mode tickets are always left out.
 *
 * `share` = part amount / total amount (a fraction, 0.25 = 25 %), 0 when the total is 0.
 * Rows are ordered by amount, largest first, then key.
 */
import { z } from 'zod';
import { LanguageSchema } from './reports.ts';
import { ID_LIST_TEXT, INT4_MAX } from './integers.ts';

export const DISTRIBUTION_TYPES = ['PAIEMENT', 'FAMILLE', 'TVA', 'CAISSE', 'VENDEUR', 'TRANCHE'] as const;
export type DistributionType = (typeof DISTRIBUTION_TYPES)[number];

export const DISTRIBUTION_STATUSES = ['VENTE', 'ANNULATION', 'TOUS'] as const;
export type DistributionStatus = (typeof DISTRIBUTION_STATUSES)[number];

/** Longest period GET bo/getRepartition answers (MaxReportDays, SPEC.md §5): a year and a month. */
export const DISTRIBUTION_MAX_DAYS = 400;

/** Query of GET bo/getRepartition (SPEC.md §7), `id` being the caller's user id. */
export const DistributionQuerySchema = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(INT4_MAX)
    .optional()
    .describe('id of the signed-in user; SPEC.md §7 does not name it, absent = the caller'),
  typeRepartition: z
    .enum(DISTRIBUTION_TYPES)
    .describe('dimension: PAIEMENT, FAMILLE, TVA, CAISSE, VENDEUR, TRANCHE'),
  statut: z.enum(DISTRIBUTION_STATUSES).default('TOUS').describe('VENTE, ANNULATION or TOUS (default)'),
  site: z
    .string()
    .regex(ID_LIST_TEXT, 'restaurantIds, comma-separated')
    .refine(
      (v) => v === '' || v.split(',').every((id) => Number(id) <= INT4_MAX),
      'a restaurantId is at most 2147483647',
    )
    .optional()
    .describe('restaurantId (or several, comma-separated); absent = every site of the user (SPEC.md §5)'),
  dateDebut: z.string().describe('first fiscal date, YYYY-MM-DD'),
  dateFin: z.string().describe('last fiscal date, YYYY-MM-DD (included)'),
  language: LanguageSchema.default('fr').describe('language of the labels'),
});
export type DistributionQuery = z.infer<typeof DistributionQuerySchema>;

/** One part of a distribution. */
export const DistributionRowSchema = z.object({
  /** Stable key of the part (method code, family name, rate, terminal number, seller code, hour). */
  key: z.string(),
  /** Label in the request's language. */
  label: z.string(),
  /** Distinct tickets contributing to the part. */
  tickets: z.number().int(),
  /** Amount incl. VAT, integer cents. */
  amountCents: z.number().int(),
  /** amountCents / totalCents, a fraction; 0 when the total is 0. */
  share: z.number(),
});
export type DistributionRow = z.infer<typeof DistributionRowSchema>;

/** Answer of GET bo/getRepartition. */
export const DistributionAnswerSchema = z.object({
  typeRepartition: z.enum(DISTRIBUTION_TYPES),
  statut: z.enum(DISTRIBUTION_STATUSES),
  currency: z.string(),
  dateDebut: z.string(),
  dateFin: z.string(),
  rows: z.array(DistributionRowSchema),
  /** Sum of the rows' amounts, integer cents. */
  totalCents: z.number().int(),
});
export type DistributionAnswer = z.infer<typeof DistributionAnswerSchema>;

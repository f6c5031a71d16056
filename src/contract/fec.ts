/**
 * Wire shapes of the FEC account plan (issue #29, docs/decisions/0037): GET bo/fec/plan answers
 * {@link FecPlanSchema}, POST bo/fec/savePlan takes {@link FecPlanInputSchema}. A role names the
 * figure an account receives: `SALES_<rate>` / `VAT_<rate>` (rate a fraction, `SALES_0.2`),
 * `PAYMENT_<method>` (`PAYMENT_CASH`), `ROUNDING_DEBIT` / `ROUNDING_CREDIT`.
 */
import { z } from 'zod';

/** True when `account` is a PCG account number: digits only, at least 3, class 1 to 8 (decision 0037). */
export function isPcgAccount(account: string): boolean {
  return /^[1-8]\d{2,}$/.test(account);
}

/** The longest account label kept (CompteLib has no limit in A47 A-1; ours keeps files readable). */
export const MAX_PLAN_LABEL = 100;

/** One account of the plan as saved or sent: role, PCG account number, label. */
export const FecPlanAccountSchema = z.object({
  role: z
    .string()
    .max(40)
    .describe('the figure the account receives: SALES_0.2, VAT_0.2, PAYMENT_CASH, ROUNDING_DEBIT…'),
  account: z.string().max(20).describe('PCG account number: digits only, class 1 to 8, at least 3 digits'),
  label: z.string().max(200).describe('the account label written in CompteLib'),
});

/** An account as GET bo/fec/plan answers it: the plan's, with the default it replaces. */
export const FecPlanEntrySchema = FecPlanAccountSchema.extend({
  defaultAccount: z.string().describe('the default PCG account of the role (decision 0037)'),
  defaultLabel: z.string(),
});

/** A site of the company not kept in EUR: left out of its FEC (decision 0037). */
export const FecForeignSiteSchema = z.object({
  id: z.number().int().describe('site id'),
  libelle: z.string().describe('site name'),
  devise: z.string().describe('ISO 4217 code of the site currency (GBP)'),
});
export type FecForeignSite = z.infer<typeof FecForeignSiteSchema>;

/** GET bo/fec/plan: the company's plan, every role, in the default plan's order. */
export const FecPlanSchema = z.object({
  societe: z.number().int().describe('company (société) id'),
  saved: z.boolean().describe('false while the company uses the default plan'),
  accounts: z.array(FecPlanEntrySchema),
  sitesHorsEuro: z
    .array(FecForeignSiteSchema)
    .describe(
      'the sites of the company not kept in EUR: a FEC is in euros, so they cannot be in it (decision 0037)',
    ),
});
export type FecPlan = z.infer<typeof FecPlanSchema>;

/** POST bo/fec/savePlan's body: the accounts of the plan; a role left out keeps its default. */
export const FecPlanInputSchema = z.object({
  accounts: z.array(FecPlanAccountSchema).max(100),
});
export type FecPlanInput = z.infer<typeof FecPlanInputSchema>;

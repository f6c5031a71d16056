/**
 * The FEC account plan of each company (issue #29, docs/decisions/0037, migration 0017): one row
 * per company and role (`SALES_0.2`, `VAT_0.2`, `PAYMENT_CASH`, `ROUNDING_DEBIT`… see
 * fec/account-plan.ts) with the PCG account and its label. A company without rows uses the
 * default plan; a role without a row takes its default account.
 */
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from './schema.ts';

/** fec_account_plans: the saved accounts of a company's FEC plan. */
export const fecAccountPlans = pgTable(
  'fec_account_plans',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The figure the account receives (account-plan.ts keys). */
    role: text('role').notNull(),
    /** A PCG account number: digits, class 1–8, at least 3 digits. */
    account: text('account').notNull(),
    label: text('label').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.role] })],
);
